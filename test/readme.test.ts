// Runs the README's library example as a user would (against the built package, from the repo root).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

it('the README library example writes a jpg and logs the headline fit report', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const code = /```js readme\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(code).toBeDefined();
  // Resolve `imprint` as an installed package would be: a node_modules link to this repo.
  const dir = await mkdtemp(join(tmpdir(), 'imprint-readme-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'imprint'));
  await symlink(join(ROOT, 'examples'), join(dir, 'examples'));
  await mkdir(join(dir, 'out')); // as in a clone (out/.gitkeep)
  await writeFile(join(dir, 'example.mjs'), code!);
  const { stdout } = await promisify(execFile)(process.execPath, ['example.mjs'], { cwd: dir });
  expect(stdout).toMatch(/name: 'headline'/);
  expect((await sharp(await readFile(join(dir, 'out', 'card.jpg'))).metadata()).format).toBe('jpeg');
  // What it writes goes to out/ (ignored by git), not beside the user's files.
  expect((await readdir(dir)).sort()).toEqual(['example.mjs', 'examples', 'node_modules', 'out']);
});

it('the README service example renders a task through the worker', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const code = /```js readme-service\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(code).toBeDefined();
  const dir = await mkdtemp(join(tmpdir(), 'imprint-readme-svc-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'imprint'));
  await symlink(join(ROOT, 'examples'), join(dir, 'examples'));
  await mkdir(join(dir, 'out'));
  await writeFile(join(dir, 'service.mjs'), code!);
  const { stdout } = await promisify(execFile)(process.execPath, ['service.mjs'], { cwd: dir });
  expect(stdout).toBe('task 1: done\nadmin true\n');
  expect((await readdir(dir)).sort()).toEqual(['examples', 'node_modules', 'out', 'service.mjs']);
}, 60_000);

it('the README threads example renders four cards on two threads and exits', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const code = /```js readme-threads\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(code).toBeDefined();
  const dir = await mkdtemp(join(tmpdir(), 'imprint-readme-threads-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'imprint'));
  await symlink(join(ROOT, 'examples'), join(dir, 'examples'));
  await writeFile(join(dir, 'threads.mjs'), code!);
  const { stdout } = await promisify(execFile)(process.execPath, ['threads.mjs'], { cwd: dir, timeout: 60_000 });
  expect(stdout).toBe('1080x1080 true\n'.repeat(4));
}, 60_000);
