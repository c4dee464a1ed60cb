import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, socketRefusal, type TestApp, type TestContext } from './support/app';
import { startIdentityGateway, type IdentityGateway } from './support/identity-gateway';
import { createTestUser, type TestUser } from './support/users';

/**
 * Firebase Auth briefly away must not read as "your sign-in is over". A user the server knows keeps the
 * last known account state; one it has not seen yet hears 503 NOT_READY (try again), not 401 (sign in
 * again), and the same token works once the service is back. The identity service is the Auth emulator
 * behind a switchable gateway, cut at the HTTP boundary.
 */
let context: TestContext;
let server: TestApp;
let gateway: IdentityGateway;
let known: TestUser;
let newcomer: TestUser;
let identityDown = false;

beforeAll(async () => {
  [known, newcomer] = await Promise.all([createTestUser(), createTestUser()]);
  gateway = await startIdentityGateway((outgoing, pass) => {
    // 500, not 503: firebase-admin retries a 503 for several seconds before it gives up.
    if (identityDown) outgoing.writeHead(500, { 'content-type': 'text/plain' }).end('identity service failing');
    else pass();
  });
  context = await createTestContext();
  server = await context.start({
    FIREBASE_AUTH_EMULATOR_HOST: gateway.host,
    // An account's state is asked for again after a second, so the outage is seen soon.
    AUTH_REVALIDATE_SECONDS: '1',
  });
});
afterAll(async () => {
  await context?.cleanup();
  await gateway?.close();
});

const me = (token: string) => fetch(`${server.origin}/api/me`, { headers: { authorization: `Bearer ${token}` } });

it('answers 503 NOT_READY to a user it cannot check while the identity service is down, and 200 once it is back', async () => {
  expect((await me(known.idToken)).status).toBe(200);

  identityDown = true;
  await new Promise((resolve) => setTimeout(resolve, 1100));
  expect((await me(known.idToken)).status).toBe(200);
  const during = await me(newcomer.idToken);
  expect(during.status).toBe(503);
  expect(((await during.json()) as { error: { code: string } }).error.code).toBe('NOT_READY');
  // A token that is no good is still refused as such, outage or not.
  expect((await me('not-a-token')).status).toBe(401);
  // Sockets say the same.
  expect(await socketRefusal(server.origin, newcomer.idToken)).toBe('NOT_READY');
  expect(await socketRefusal(server.origin, 'not-a-token')).toBe('UNAUTHENTICATED');

  identityDown = false;
  expect((await me(newcomer.idToken)).status).toBe(200);
});
