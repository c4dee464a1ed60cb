import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Generation, GenerationKind, GenerationRequestInput } from '@mediagen/shared';
import { scaled } from '@mediagen/testing';
import { type TestApp, type TestContext } from './support/app';
import { apiClient } from './support/requests';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import { createTestUser, type TestUser } from './support/users';

/**
 * The money races, through the API with real workers and a provider that answers at once: a cancel timed
 * against the completion never yields both a refund and a served result, and many submissions for one
 * token are one acceptance. `pnpm test:long` runs 200 cancel races; a plain run 45.
 */
const RACES = scaled(45, 200);
let pipeline: TestPipeline;
let context: TestContext;
let server: TestApp;

beforeAll(async () => {
  pipeline = await startTestPipeline({
    server: { RATE_LIMIT_PER_MINUTE: '100000' },
    workers: { CONCURRENCY_IMAGE: '4', CONCURRENCY_SPEECH: '4' },
  });
  ({ context, server } = pipeline);
}, 60_000);
// A race suite leaves many finished jobs and open connections behind: closing may take a while.
afterAll(() => pipeline.close(), 60_000);

const REQUESTS: Record<'image' | 'speech', GenerationRequestInput> = {
  image: { kind: 'image', prompt: 'a lighthouse at dusk' },
  speech: { kind: 'speech', input: 'Hi', voice: 'nova', language: 'en-US' },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(api: ReturnType<typeof apiClient>, id: string): Promise<Generation> {
  return vi.waitUntil(
    async () => {
      const { body } = await api.get(id);
      return ['completed', 'failed', 'canceled'].includes(body.status) ? (body as Generation) : undefined;
    },
    { timeout: 30_000, interval: 25 },
  );
}

/** How long a job takes here from its 202 to its end, so cancels can be spread across that window. */
async function typicalRunMs(kind: 'image' | 'speech'): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < 2; run += 1) {
    const api = apiClient(server.origin, await createTestUser());
    const startedAt = performance.now();
    const { body } = await api.submit(REQUESTS[kind]);
    await settled(api, body.id);
    runs.push(performance.now() - startedAt);
  }
  return Math.max(...runs);
}

/** Submits, then cancels at a random moment within `withinMs`. */
async function race(user: TestUser, kind: 'image' | 'speech', withinMs: number) {
  const api = apiClient(server.origin, user);
  const accepted = await api.submit(REQUESTS[kind]);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  await sleep(Math.random() * withinMs);
  const cancel = await api.cancel(accepted.body.id);
  return { user, kind, api, id: accepted.body.id as string, cancel };
}
type Race = Awaited<ReturnType<typeof race>>;

describe('cancel against completion', () => {
  it(`${RACES} races: each ends completed or canceled, never a refund with a served result`, async () => {
    const window = { image: await typicalRunMs('image'), speech: await typicalRunMs('speech') };
    // Each user's allowance is 1 image and 2 speech: three races per user.
    const users: TestUser[] = [];
    const racesOf = async (count: number) => {
      const added = await Promise.all(Array.from({ length: Math.ceil(count / 3) }, () => createTestUser()));
      users.push(...added);
      return added.flatMap((user) => (['image', 'speech', 'speech'] as const).map((kind) => ({ user, kind })));
    };
    const plan = (await racesOf(RACES)).slice(0, RACES);
    const bothSidesWon = () =>
      races.some((race) => race.cancel.status === 200) && races.some((race) => race.cancel.status === 409);

    // In small batches, each cancel at a random moment of its job's expected run; the run's length under
    // this load is learnt batch by batch (longer when every cancel won, shorter when none did), so the
    // cancels keep landing around the completion, where the race is. A host so loaded that one side won
    // every race gets up to two more rounds of batches to find the other.
    const races: Race[] = [];
    let stretch = 1;
    for (let batch = 0; batch < plan.length; batch += 8) {
      if (batch + 8 >= plan.length && !bothSidesWon() && plan.length < RACES * 3) plan.push(...(await racesOf(24)));
      const raced = await Promise.all(
        plan.slice(batch, batch + 8).map(({ user, kind }) => race(user, kind, stretch * window[kind])),
      );
      const canceledShare = raced.filter((race) => race.cancel.status === 200).length / raced.length;
      if (canceledShare > 0.6) stretch *= 1.3;
      if (canceledShare < 0.4) stretch /= 1.3;
      races.push(...raced);
    }

    const artifactsDir = context.config().artifactsDir;
    const hasArtifact = async (id: string) => (await readdir(artifactsDir)).some((file) => file.startsWith(id));
    const outcomes: Record<string, number> = {};
    for (const race of races) {
      const ended = await settled(race.api, race.id);
      outcomes[ended.status] = (outcomes[ended.status] ?? 0) + 1;
      if (ended.status === 'completed') {
        // The completion committed first: the cancel was refused, the token spent, the file served.
        expect(race.cancel.status).toBe(409);
        expect(race.cancel.body.error.code).toBe('ALREADY_FINISHED');
        expect(ended.token).toBe('spent');
        expect(await hasArtifact(race.id)).toBe(true);
        const served = await fetch(ended.result!.url);
        expect(served.status).toBe(200);
        expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
      } else {
        // The cancel committed first: nothing is served and any file a late completion wrote is gone.
        expect(ended.status).toBe('canceled');
        expect(race.cancel.status).toBe(200);
        expect(ended.result).toBeUndefined();
        expect(['refunded', 'spent']).toContain(ended.token);
        await vi.waitUntil(async () => !(await hasArtifact(race.id)), { timeout: 10_000, interval: 50 });
      }
    }

    // Every token is accounted for: what each user has left plus what was spent is the allowance.
    for (const user of users) {
      const mine = races.filter((race) => race.user === user);
      const settledMine = await Promise.all(mine.map((race) => race.api.get(race.id)));
      const spent = (kind: GenerationKind) =>
        settledMine.filter(({ body }) => body.kind === kind && body.token === 'spent').length;
      const { body: me } = await apiClient(server.origin, user).me();
      expect(me.tokens.image + spent('image')).toBe(1);
      expect(me.tokens.speech + spent('speech')).toBe(2);
    }
    // Both sides won some races: the cancels were timed across the jobs, not all before or after them.
    expect(outcomes.completed, JSON.stringify(outcomes)).toBeGreaterThan(0);
    expect(outcomes.canceled, JSON.stringify(outcomes)).toBeGreaterThan(0);
  }, 240_000);
});

describe('one token, many submissions', () => {
  it('50 concurrent submissions for the last video token: one 202, the rest 402, one token spent', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => api.submit({ kind: 'video', prompt: `race ${index}` })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status === 402)).toHaveLength(49);
    expect((await api.me()).body.tokens.video).toBe(0);
    const { body: list } = await api.list();
    expect(list.items).toHaveLength(1);
  });
});
