import { readFileSync, readdirSync } from 'node:fs';
import { GenerationLifecycle, newGenerationId, openDatabase } from '@mediagen/core';
import { createTestDatabase } from '@mediagen/core/testing';
import type { Figure } from '../lib/report';

const CALLERS = 20;
const CONNECTIONS = 10;
const USERS = 400;
const SECONDS = 4;
const REQUEST = { prompt: 'a lighthouse at dusk', width: 512, height: 512 };

/**
 * CPU time (ms) PostgreSQL's processes on this host have used so far; null when none is visible (a
 * database elsewhere), and the per-submission cost is then left out.
 */
function postgresCpuMs(): number | null {
  let ticks = 0;
  let seen = false;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      seen = true;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return seen ? ticks * 10 : null;
}

/** Runs `operation` from CALLERS async loops for SECONDS; how many ran and PostgreSQL's CPU per run. */
async function loop(
  operation: (index: number) => Promise<unknown>,
): Promise<{ perSecond: number; pgCpuUs: number | null }> {
  let count = 0;
  const end = Date.now() + SECONDS * 1000;
  const before = postgresCpuMs();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (Date.now() < end) await operation(count++);
    }),
  );
  const after = postgresCpuMs();
  return {
    perSecond: count / SECONDS,
    pgCpuUs: before === null || after === null ? null : ((after - before) * 1000) / count,
  };
}

/**
 * `GenerationLifecycle.submit` alone (the charge, the record, the ledger and the announcement), from
 * 20 callers over 10 connections, against a bare one-row insert from the same callers: what the record
 * costs PostgreSQL per submission, apart from HTTP, auth and Redis.
 */
export async function lifecycleBench(): Promise<Figure[]> {
  const database = await createTestDatabase('bench-lifecycle');
  const record = openDatabase(database.url, { maxConnections: CONNECTIONS });
  try {
    const lifecycle = new GenerationLifecycle(record.db);
    const uids = Array.from({ length: USERS }, (_, index) => `bench-user-${index}`);
    await record.pool.query(
      `insert into accounts (uid, period_started_at, image_tokens, video_tokens, speech_tokens, in_flight)
       select uid, now(), 1000000, 1000000, 1000000, 0 from unnest($1::text[]) as uid`,
      [uids],
    );
    await record.pool.query('create table bare_insert (id text primary key, body jsonb, created_at timestamptz)');
    const submit = (index: number) =>
      lifecycle.submit({
        id: newGenerationId('image'),
        uid: uids[index % USERS]!,
        kind: 'image',
        request: REQUEST,
        prompt: REQUEST.prompt,
        maxInFlight: 1_000_000,
      });
    let inserted = 0;
    const bareInsert = () =>
      record.pool.query('insert into bare_insert (id, body, created_at) values ($1, $2, now())', [
        `bare-${inserted++}`,
        JSON.stringify(REQUEST),
      ]);
    await loop(submit);
    const submitted = await loop(submit);
    const bare = await loop(bareInsert);
    const cpu = (value: number | null) => (value === null ? 'not on this host' : `${value.toFixed(0)} µs`);
    return [
      {
        part: 'lifecycle',
        name: `lifecycle.submit /s (${CALLERS} callers, ${CONNECTIONS} connections, ${USERS} users)`,
        value: submitted.perSecond,
        unit: '/s',
        ceiling: bare.perSecond,
        ratio: submitted.perSecond / bare.perSecond,
        note: `PostgreSQL CPU per submission ${cpu(submitted.pgCpuUs)}, per bare insert ${cpu(bare.pgCpuUs)}`,
      },
    ];
  } finally {
    await record.close();
    await database.drop();
  }
}
