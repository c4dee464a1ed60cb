import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '@mediagen/shared';
import { WorkerHarness, imageRequest, speechRequest } from './support/harness';

/**
 * Retention of results (ARTIFACT_RETENTION_DAYS_<PLAN>): a worker deletes the files of generations older
 * than their plan allows and keeps their records, saying when the result expired.
 */
const harness = new WorkerHarness();

beforeAll(async () => {
  await harness.start({}, { ARTIFACT_RETENTION_DAYS_FREE: '30' });
});
afterAll(() => harness.stop());

const files = () => readdir(harness.config.artifactsDir).catch(() => [] as string[]);

/** Moves a generation's creation back in time, as if it had been made `days` ago. */
async function age(id: string, days: number) {
  await harness.records.db
    .updateTable('generations')
    .set({ created_at: new Date(Date.now() - days * DAY_MS) })
    .where('id', '=', id)
    .execute();
}

describe('retention', () => {
  it("deletes the files of a plan's results past its days, keeps their records, and leaves other plans alone", async () => {
    const pool = await harness.startWorkers({ kinds: ['image', 'speech'] });
    const old = await harness.submit('image', imageRequest());
    const recent = await harness.submit('speech', speechRequest());
    const pro = await harness.submit('speech', speechRequest('a pro user'));
    for (const { job } of [old, recent, pro]) {
      expect((await harness.settled(job.data.kind, job)).generation.status).toBe('completed');
    }
    await harness.records.db.updateTable('accounts').set({ plan: 'pro' }).where('uid', '=', pro.uid).execute();
    await age(old.id, 31);
    await age(pro.id, 400);
    const before = await harness.lifecycle.find(old.id);

    const report = await pool.sweepRetention();
    expect(report).toEqual({ expired: 1, failed: 0 });
    const expired = await harness.lifecycle.find(old.id);
    expect(expired).toMatchObject({ status: 'completed', artifact: null, version: before!.version + 1 });
    expect(expired!.artifactExpiredAt).toBeInstanceOf(Date);
    const left = await files();
    expect(left.some((file) => file.startsWith(old.id))).toBe(false);
    expect(left.some((file) => file.startsWith(recent.id))).toBe(true);
    // No retention is set for Pro: a year-old result stays.
    expect(left.some((file) => file.startsWith(pro.id))).toBe(true);
    // A second sweep finds nothing more to do.
    expect(await pool.sweepRetention()).toEqual({ expired: 0, failed: 0 });
    await pool.close(1000);
  });

  it('is off unless a plan has days set', async () => {
    const pool = await harness.startWorkers({ kinds: ['image'], artifactRetentionDays: {} });
    const { job, id } = await harness.submit('image', imageRequest('kept forever'));
    await harness.settled('image', job);
    await age(id, 3650);
    expect(await pool.sweepRetention()).toEqual({ expired: 0, failed: 0 });
    expect((await harness.lifecycle.find(id))?.artifact).not.toBeNull();
    await pool.close(1000);
  });
});
