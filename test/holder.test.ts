// The worker id names its process beyond doubt, and only a holder of this host that is provably gone
// (another boot, or no process with its pid and start time) lets the embedded service take a task back
// before its lease runs out (src/service/holder.ts; the kill test is in test/durability.test.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { holderIsGone, newWorkerId } from '../src/service/holder.js';

/** This process's worker id with one field replaced (fields: host, boot, start, pid, random). */
function withField(index: number, value: string): string {
  const parts = newWorkerId().split(':');
  parts[parts.length - 5 + index] = value;
  return parts.join(':');
}

describe('worker ids', () => {
  it('name the host, the boot, the process start and the pid, the pid second to last as before', () => {
    const id = newWorkerId();
    const parts = id.split(':');
    expect(parts.slice(0, -4).join(':')).toBe(hostname());
    expect(parts.at(-2)).toBe(String(process.pid));
    expect(parts.at(-4)).toMatch(/^([0-9a-f]{16}|-)$/);
    expect(parts.at(-3)).toMatch(/^(\d+|-)$/);
    expect(newWorkerId()).not.toBe(id);
  });
});

describe('a holder that is gone', () => {
  it('is not this process, nor a live process of this host', async () => {
    expect(holderIsGone(newWorkerId())).toBe(false);
    const child = spawn(process.execPath, ['-e', 'process.stdin.resume(); console.log(process.pid)'], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const pid = Number(await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(d.toString().trim()))));
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
      const live = withField(2, start).split(':');
      live[live.length - 2] = String(pid);
      expect(holderIsGone(live.join(':'))).toBe(false);
      // The same pid with another start time is another process: the holder was an earlier one.
      live[live.length - 3] = String(Number(start) - 1);
      expect(holderIsGone(live.join(':'))).toBe(true);
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
      live[live.length - 3] = start;
      expect(holderIsGone(live.join(':'))).toBe(true);
    } finally {
      child.kill();
    }
  });

  it('is one from an earlier boot of this machine, even with a pid that runs now', () => {
    expect(holderIsGone(withField(1, '0123456789abcdef'))).toBe(true);
  });

  it('is never proved for another host, or for an id it cannot read', () => {
    expect(holderIsGone(withField(0, 'other-machine'))).toBe(false);
    expect(holderIsGone(`other-machine:${process.pid + 1_000_000}:abcdef`)).toBe(false);
    for (const id of ['', 'garbage', 'a:b', `${hostname()}:notapid:abc`, `${hostname()}:-1:abc`]) expect(holderIsGone(id)).toBe(false);
  });

  it('takes the older host:pid:random form as gone only when no process has its pid', () => {
    expect(holderIsGone(`${hostname()}:${process.pid}:abcdef`)).toBe(false);
    // Above the kernel's largest pid (pid_max is at most 4194304): no such process.
    expect(holderIsGone(`${hostname()}:4999999:abcdef`)).toBe(true);
  });
});
