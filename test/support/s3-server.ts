// A real S3-protocol server (s3rver) on an ephemeral port, so the S3 blob backend is tested over HTTP
// without MinIO or AWS. It runs in a child process: s3rver's ListObjectsV2 continuation tokens use DES,
// which Node's OpenSSL 3 only offers with --openssl-legacy-provider, and its logger hooks process-wide handlers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** s3rver's built-in account; it refuses any other access key. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
  /** Config URL for the bucket, with s3rver's credentials as query parameters. */
  url: string;
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

// Stops when its stdin closes, so it also goes away if the test process dies.
const CHILD = `
import S3rver from 's3rver';
const [directory, bucket] = process.argv.slice(1);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
const { port } = await server.run();
process.stdout.write(JSON.stringify({ port }) + '\\n');
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
`;

const ROOT = join(import.meta.dirname, '..', '..');

export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'imprint-s3rver-'));
  const bucket = `imprint-test-${randomBytes(4).toString('hex')}`;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '--input-type=module', '-e', CHILD, directory, bucket], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));

  let port: number;
  try {
    port = await new Promise<number>((ready, fail) => {
      let stdout = '';
      const timer = setTimeout(() => fail(new Error(`s3rver did not start within 15 s${stderr ? `: ${stderr}` : ''}`)), 15_000);
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        const line = stdout.split('\n')[0];
        if (stdout.includes('\n') && line !== undefined) {
          clearTimeout(timer);
          const parsed: unknown = JSON.parse(line);
          const p = (parsed as { port?: unknown }).port;
          if (typeof p === 'number') ready(p);
          else fail(new Error(`s3rver printed ${line}`));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`s3rver exited with code ${code} before listening: ${stderr}`));
      });
    });
  } catch (e) {
    child.kill();
    await exited;
    await rm(directory, { recursive: true, force: true });
    throw e;
  }

  const endpoint = `http://127.0.0.1:${port}`;
  const query = new URLSearchParams({
    endpoint,
    region: 'us-east-1',
    access_key_id: S3RVER_CREDENTIALS.accessKeyId,
    secret_access_key: S3RVER_CREDENTIALS.secretAccessKey,
  });
  return {
    url: `s3://${bucket}?${query.toString()}`,
    endpoint,
    bucket,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const timer = setTimeout(() => child.kill(), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
