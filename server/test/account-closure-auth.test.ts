import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emulatorIdentityAdmin } from './support/identity-admin';
import { createTestContext, type TestContext } from './support/app';
import { apiClient } from './support/requests';
import { createTestUser } from './support/users';

/**
 * Closing an account is for the person who signed in a moment ago, as Firebase asks for its own sensitive
 * operations: a token from a sign-in more than 5 minutes old, or one whose sign-in was revoked, closes
 * nothing. The server's clock is moved on instead of waiting: an emulator token cannot be made older than
 * its account.
 */
let context: TestContext;
const identities = emulatorIdentityAdmin();

beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context.cleanup();
});

const MINUTE_MS = 60_000;
const startedLater = (ms: number) => context.start({}, { clock: () => Date.now() + ms });
const accountExists = (uid: string) =>
  identities()
    .getUser(uid)
    .then(
      () => true,
      () => false,
    );

describe('DELETE /api/me needs a recent sign-in', () => {
  it('refuses a sign-in more than 5 minutes old with 401 REAUTHENTICATION_REQUIRED, and closes nothing', async () => {
    const user = await createTestUser();
    const api = apiClient((await startedLater(6 * MINUTE_MS)).origin, user);
    const refused = await api.closeAccount();
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      error: {
        code: 'REAUTHENTICATION_REQUIRED',
        message: 'For your security, confirm it is you: sign in again, then try again.',
      },
    });
    expect(await accountExists(user.uid)).toBe(true);
    expect((await api.me()).status).toBe(200);
  });

  it('closes the account for a sign-in under 5 minutes old (the control)', async () => {
    const user = await createTestUser();
    const api = apiClient((await startedLater(4 * MINUTE_MS)).origin, user);
    expect((await api.closeAccount()).status).toBe(204);
    expect(await accountExists(user.uid)).toBe(false);
  });

  it('refuses a revoked sign-in, even while the API still trusts its last read of the account', async () => {
    const user = await createTestUser();
    const api = apiClient((await context.start()).origin, user);
    expect((await api.me()).status).toBe(200);
    // Revocation has second precision: revoke in a later second than the sign-in.
    const second = Math.floor(Date.now() / 1000);
    await vi.waitUntil(() => Math.floor(Date.now() / 1000) > second, { timeout: 2000, interval: 20 });
    await identities().revokeRefreshTokens(user.uid);

    expect((await api.me()).status).toBe(200);
    const refused = await api.closeAccount();
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHENTICATED');
    expect(await accountExists(user.uid)).toBe(true);
  });
});
