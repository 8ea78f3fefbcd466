// PostgreSQL and Redis for the scale-out backends' tests. On a machine without them those tests
// skip with a message; with CI=true a missing service fails the run instead of skipping.
import { createConnection } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN_URL = process.env.IMPRINT_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.IMPRINT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((done) => {
    const s = createConnection({ host: u.hostname, port: Number(u.port) }, () => {
      s.destroy();
      done(true);
    });
    s.setTimeout(1000, () => {
      s.destroy();
      done(false);
    });
    s.on('error', () => done(false));
  });
}

export interface ServiceCheck {
  available: boolean;
  /** Why the tests are skipped; empty when available. */
  reason: string;
}

async function check(name: string, url: string): Promise<ServiceCheck> {
  if (await reachable(url)) return { available: true, reason: '' };
  const reason = `${name} is not reachable at ${url.replace(/\/\/[^@/]*@/, '//')}`;
  if (process.env.CI === 'true') throw new Error(`${reason}: CI=true requires it (start it as .ci/run does)`);
  console.warn(`[skip] ${reason}: its backend tests are skipped (start it, or set CI=true to make this an error)`);
  return { available: false, reason };
}

export const postgres = await check('PostgreSQL', PG_ADMIN_URL);
export const redis = await check('Redis', REDIS_URL);

/** A fresh database for one test file; drop it with the returned function. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `imprint_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
