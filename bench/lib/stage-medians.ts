import pg from 'pg';
import { median } from './env';
import type { Heard } from './e2e-arms';

interface Stamps {
  id: string;
  created: number;
  started: number;
  finished: number;
}

/**
 * Medians of each stage of a generation's way, from the record's own timestamps (same machine, same
 * clock): HTTP submit until it is recorded, waiting for a worker, the worker's run (provider call, file,
 * settle), and its end until its owner's socket hears it. Only generations heard completed count.
 */
export async function stageMedians(
  databaseUrl: string,
  submittedAt: ReadonlyMap<string, number>,
  heard: ReadonlyMap<string, Heard>,
): Promise<{ total: number; describe: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ids = [...submittedAt.keys()].filter((id) => heard.get(id)?.status === 'completed');
    const { rows } = await client.query<Stamps>(
      `select id, extract(epoch from created_at) * 1000 as created, extract(epoch from started_at) * 1000 as started,
              extract(epoch from finished_at) * 1000 as finished
       from generations where id = any($1)`,
      [ids],
    );
    const stage = (pick: (row: Stamps) => number) =>
      median(
        rows.map((row) =>
          pick({ ...row, created: Number(row.created), started: Number(row.started), finished: Number(row.finished) }),
        ),
      );
    const record = stage((row) => row.created - submittedAt.get(row.id)!);
    const wait = stage((row) => row.started - row.created);
    const run = stage((row) => row.finished - row.started);
    const relay = stage((row) => heard.get(row.id)!.at - row.finished);
    return {
      total: record + wait + run + relay,
      describe: `submit → recorded ${record.toFixed(1)}, recorded → worker ${wait.toFixed(1)}, worker run ${run.toFixed(1)}, finished → socket ${relay.toFixed(1)}`,
    };
  } finally {
    await client.end();
  }
}
