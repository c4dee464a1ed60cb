import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_ADMIN_URL } from '@mediagen/core/testing';
import { ensurePostgres } from '../lib/postgres';
import { freePort } from '../lib/processes';

/** `pnpm dev`'s PostgreSQL: the machine's when it answers, else a cluster of its own from the binaries. */
const lines: string[] = [];
const sink = (name: string, line: string) => lines.push(`${name} | ${line}`);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function databases(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>('select datname from pg_database')).rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

function urlOf(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

describe('ensurePostgres', () => {
  it("creates the database on the machine's server when it is missing, and reuses it after", async () => {
    const name = `mediagen_dev_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const url = urlOf(POSTGRES_ADMIN_URL, name);
    cleanups.push(async () => {
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    });
    expect(await databases(POSTGRES_ADMIN_URL)).not.toContain(name);
    expect(await ensurePostgres(url, tmpdir(), sink)).toBeNull();
    expect(await databases(POSTGRES_ADMIN_URL)).toContain(name);
    expect(await ensurePostgres(url, tmpdir(), sink)).toBeNull();
  });

  it("starts a cluster of its own from the machine's binaries when nothing answers, and stops it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mediagen-pg-'));
    // Readable by the unprivileged user the cluster runs as when the tests run as root.
    await chmod(dataDir, 0o755);
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/mediagen`;
    const cluster = await ensurePostgres(url, dataDir, sink);
    expect(cluster, lines.join('\n')).not.toBeNull();
    cleanups.push(() => cluster!.stop());
    expect(await databases(url)).toContain('mediagen');

    await cluster!.stop();
    await expect(databases(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // Its data folder is kept: the next start finds the same database.
    const again = await ensurePostgres(url, dataDir, sink);
    cleanups.push(() => again!.stop());
    expect(await databases(url)).toContain('mediagen');
  }, 60_000);

  it('names what to do when a remote server does not answer', async () => {
    // 127.0.0.2 stands for another host here: nothing listens there, and it is not ours to start.
    const url = `postgres://postgres@127.0.0.2:${await freePort()}/mediagen`;
    await expect(ensurePostgres(url, tmpdir(), sink)).rejects.toThrow(
      /PostgreSQL is not reachable at .*Check DATABASE_URL/s,
    );
  });
});
