import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { startIdentityGateway, type IdentityGateway } from './support/identity-gateway';
import { createTestUser, type TestUser } from './support/users';

/**
 * An account's state is read again every AUTH_REVALIDATE_SECONDS; a user who keeps using the app must not
 * wait for that read (in production, a round trip to Google). The identity service is the Auth emulator
 * behind a gateway that can hold its answers back, at the HTTP boundary.
 */
const REVALIDATE_SECONDS = 8;

let context: TestContext;
let server: TestApp;
let gateway: IdentityGateway;
let user: TestUser;
let holding = false;
const held: (() => void)[] = [];

function release(): void {
  holding = false;
  held.splice(0).forEach((pass) => pass());
}

beforeAll(async () => {
  user = await createTestUser();
  gateway = await startIdentityGateway((_outgoing, pass) => {
    if (holding) held.push(pass);
    else pass();
  });
  context = await createTestContext();
  server = await context.start({
    FIREBASE_AUTH_EMULATOR_HOST: gateway.host,
    AUTH_REVALIDATE_SECONDS: String(REVALIDATE_SECONDS),
  });
});
afterAll(async () => {
  release();
  await context?.cleanup();
  await gateway?.close();
});

const me = () => fetch(`${server.origin}/api/me`, { headers: { authorization: `Bearer ${user.idToken}` } });

it('reads the account of a user who keeps using the app again before its time runs out, and serves them meanwhile', async () => {
  expect((await me()).status).toBe(200);

  // From now on the identity service answers nothing until released. The user's requests go on being
  // served from the known state until the server asks for the account again, ahead of its time.
  holding = true;
  await vi.waitUntil(
    async () => {
      expect((await me()).status).toBe(200);
      return held.length > 0;
    },
    { timeout: REVALIDATE_SECONDS * 1000 + 2000, interval: 100 },
  );
  // That read is still unanswered, and the user is served all the same.
  expect((await me()).status).toBe(200);
  expect(held).toHaveLength(1);

  release();
  expect((await me()).status).toBe(200);
});
