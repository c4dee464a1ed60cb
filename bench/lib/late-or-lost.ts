import pg from 'pg';
import { median, now } from './env';
import type { OursArm } from './e2e-arms';
import type { Figure } from './report';

/** How long past its window an unheard generation is listened for (sockets still open) before it is judged. */
export const GRACE_SECONDS = Number(process.env.BENCH_GRACE_SECONDS ?? 30);
/**
 * A generation the record finished this recently may still be on its way to the socket (the relay
 * publishes after the commit); it is counted with the backlog, not as lost.
 */
const SETTLE_MS = 2000;

/** What became of the accepted generations not heard at their owner's socket within their window. */
export interface LateOrLost {
  accepted: number;
  unheard: number;
  /** Heard within the grace period, and how long after their window (ms). */
  lateBy: number[];
  /** Finished in the record (or absent from it) and never heard: an update the stack lost. */
  lost: number;
  /** Of the lost, those whose owner's socket the server had dropped before they finished. */
  lostOnDroppedSocket: number;
  /** Still queued or active in the record at the end of the grace period: late in the worker backlog. */
  queued: number;
  active: number;
  /** Finished in the record in the last SETTLE_MS, not heard yet. */
  settling: number;
  droppedSockets: number;
  graceSeconds: number;
}

/**
 * Listens GRACE_SECONDS more for `unheard` (each with the end of its own window and its owner), then
 * reads the record of those still unheard: finished there means the update was lost on its way to the
 * socket; queued or active means the workers were still behind.
 */
export async function classifyUnheard(
  databaseUrl: string,
  arm: OursArm,
  accepted: number,
  unheard: ReadonlyMap<string, { windowEnd: number; owner: number }>,
): Promise<LateOrLost> {
  const silent = await arm.waitHeard(unheard.keys(), GRACE_SECONDS * 1000);
  const result: LateOrLost = {
    accepted,
    unheard: unheard.size,
    lateBy: [...unheard].flatMap(([id, { windowEnd }]) => {
      const heard = arm.heard.get(id);
      return heard === undefined ? [] : [Math.max(0, heard.at - windowEnd)];
    }),
    lost: 0,
    lostOnDroppedSocket: 0,
    queued: 0,
    active: 0,
    settling: 0,
    droppedSockets: arm.dropped.size,
    graceSeconds: GRACE_SECONDS,
  };
  if (silent.length === 0) return result;
  const readAt = now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; status: string; finished: string | null }>(
      `select id, status, extract(epoch from finished_at) * 1000 as finished from generations where id = any($1)`,
      [silent],
    );
    const recorded = new Map(rows.map((row) => [row.id, row]));
    for (const id of silent) {
      const row = recorded.get(id);
      if (row?.status === 'queued') result.queued += 1;
      else if (row?.status === 'active') result.active += 1;
      else if (row !== undefined && readAt - Number(row.finished) < SETTLE_MS) result.settling += 1;
      else {
        result.lost += 1;
        const droppedAt = arm.dropped.get(unheard.get(id)!.owner);
        if (droppedAt !== undefined && (row === undefined || droppedAt <= Number(row.finished))) {
          result.lostOnDroppedSocket += 1;
        }
      }
    }
    return result;
  } finally {
    await client.end();
  }
}

/** The classification as a figure: its value is the lost count, and any lost update misses the target. */
export function lateOrLostFigure(part: string, name: string, result: LateOrLost): Figure {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const late =
    result.lateBy.length === 0
      ? '0 heard late'
      : `${result.lateBy.length} heard late (${s(median(result.lateBy))} after their window at the median, ${s(Math.max(...result.lateBy))} at most)`;
  const dropped = result.lostOnDroppedSocket > 0 ? `, ${result.lostOnDroppedSocket} of them on dropped sockets` : '';
  const settling = result.settling > 0 ? `, ${result.settling} finished in the last ${SETTLE_MS / 1000} s` : '';
  return {
    part,
    name,
    value: result.lost,
    unit: 'lost',
    target: 'none lost',
    met: result.lost === 0,
    note:
      `${result.accepted} accepted, ${result.unheard} not heard at the socket within their window; ` +
      `listening ${result.graceSeconds} s more: ${late}, ${result.lost} LOST (finished in the record, never heard${dropped}), ` +
      `${result.queued} queued and ${result.active} active in the record (late: the worker backlog)${settling}; ` +
      `${result.droppedSockets} sockets dropped by the server during the run`,
  };
}
