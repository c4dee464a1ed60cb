import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailHash } from '@mediagen/core';
import { changeEmulatorUserEmail } from '@mediagen/testing';
import { createTestUser, deleteOwnAccount, authEmulatorHost } from '@mediagen/testing/vitest';
import type { TestApp, TestContext } from './support/app';
import { apiClient, imageRequest, submitCompleted, videoRequest } from './support/requests';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import type { TestUser } from './support/users';

/**
 * A user deletes their sign-in identity straight at the identity service (Identity Toolkit
 * `accounts:delete` with their own token), against the real Auth emulator. Once the server finds the
 * identity gone, the account closes as if its owner had asked: nothing of it is left but its trace, and a
 * new account with the same email is bound by that trace, whether or not the old token ever comes back.
 */
let pipeline: TestPipeline;
let context: TestContext;
let server: TestApp;

beforeAll(async () => {
  pipeline = await startTestPipeline({
    // Accounts are read again from the identity service after a second, not a minute.
    server: { AUTH_REVALIDATE_SECONDS: '1' },
    // Images only: a video stays queued, in flight when the account closes.
    workers: { WORKER_KINDS: 'image' },
  });
  ({ context, server } = pipeline);
}, 60_000);
afterAll(() => pipeline.close(), 60_000);

/** A user with a finished image (spent, its file stored) and a video waiting. */
async function accountInUse(user: TestUser) {
  const image = await submitCompleted(server.origin, user, imageRequest());
  const video = await apiClient(server.origin, user).submit(videoRequest());
  expect(video.status).toBe(202);
  return { image, video: video.body.id as string };
}

async function recordOf(uid: string) {
  const db = server.app.database.db;
  const rows = await Promise.all(
    (['accounts', 'generations', 'token_ledger'] as const).map(async (table) => [
      table,
      (await db.selectFrom(table).select('uid').where('uid', '=', uid).execute()).length,
    ]),
  );
  return Object.fromEntries(rows) as Record<string, number>;
}
const NOTHING = { accounts: 0, generations: 0, token_ledger: 0 };

const filesOf = async (id: string) =>
  (await readdir(context.config().artifactsDir).catch(() => [] as string[])).filter((file) => file.startsWith(id));

async function traceOf(email: string) {
  return server.app.database.db
    .selectFrom('account_traces')
    .selectAll()
    .where('email_hash', '=', emailHash(context.config().accountTraceSecret, email))
    .executeTakeFirst();
}

/** What a new account with `email` is given: the image the closed one spent stays spent. */
async function expectBoundByTrace(email: string) {
  const again = apiClient(server.origin, await createTestUser(email));
  const me = await again.me();
  expect(me.status).toBe(200);
  expect(me.body.tokens).toEqual({ image: 0, video: 1, speech: 2 });
  expect((await again.submit(imageRequest())).status).toBe(402);
}

describe('an identity deleted at the identity service', () => {
  it('closes the account once the server reads it gone, through its old token', async () => {
    const user = await createTestUser();
    const { image, video } = await accountInUse(user);
    await deleteOwnAccount(user.idToken);

    // Trusted as it was known for AUTH_REVALIDATE_SECONDS, then read again, found gone, refused.
    const api = apiClient(server.origin, user);
    await expect.poll(async () => (await api.me()).status, { timeout: 10_000 }).toBe(401);
    await expect.poll(() => recordOf(user.uid)).toEqual(NOTHING);
    // Files and queued jobs are tidied up after the record's transaction commits.
    await expect.poll(() => filesOf(image.id)).toEqual([]);
    await expect.poll(() => server.app.jobs.queue('video').getJob(video)).toBeUndefined();
    expect(await traceOf(user.email)).toMatchObject({ image_spent: 1, video_spent: 0, speech_spent: 0 });
    await expectBoundByTrace(user.email);
  });

  it('closes the account when a new one signs up with the same email, though the old token never comes back', async () => {
    const user = await createTestUser();
    const { image } = await accountInUse(user);
    await deleteOwnAccount(user.idToken);

    await expectBoundByTrace(user.email);
    expect(await recordOf(user.uid)).toEqual(NOTHING);
    await expect.poll(() => filesOf(image.id)).toEqual([]);
    expect(await traceOf(user.email)).toBeUndefined(); // the new account's first submission took it up
  });

  it('leaves an earlier account with the same email alone while its identity exists', async () => {
    const earlier = await createTestUser();
    const { image } = await accountInUse(earlier);
    // The earlier user moves to another address; the old one is free for a new sign-up.
    await changeEmulatorUserEmail(authEmulatorHost(), earlier.idToken, `moved-${earlier.email}`);

    const later = apiClient(server.origin, await createTestUser(earlier.email));
    expect((await later.me()).body.tokens).toEqual({ image: 1, video: 1, speech: 2 });
    expect(await recordOf(earlier.uid)).toMatchObject({ accounts: 1, generations: 2 });
    expect(await filesOf(image.id)).not.toEqual([]);
  });
});
