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
type LogLine = { level: number; msg: string; err?: { message: string } };
const logLines: LogLine[] = [];
const identityWarnings = () => logLines.filter((line) => line.msg === 'the identity service could not check a sign-in');

beforeAll(async () => {
  [known, newcomer] = await Promise.all([createTestUser(), createTestUser()]);
  gateway = await startIdentityGateway((outgoing, pass) => {
    // 500, not 503: firebase-admin retries a 503 for several seconds before it gives up.
    if (identityDown) outgoing.writeHead(500, { 'content-type': 'text/plain' }).end('identity service failing');
    else pass();
  });
  context = await createTestContext();
  server = await context.start(
    {
      FIREBASE_AUTH_EMULATOR_HOST: gateway.host,
      // An account's state is asked for again after a second, so the outage is seen soon.
      AUTH_REVALIDATE_SECONDS: '1',
    },
    { logger: { level: 'warn', stream: { write: (line: string) => void logLines.push(JSON.parse(line) as LogLine) } } },
  );
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
  // Operators read why: a warning with what the identity service answered.
  expect(identityWarnings()).not.toHaveLength(0);
  expect(identityWarnings()[0]!.err?.message).toMatch(/identity service failing|500/);
  // A token that is no good is still refused as such, outage or not, and is no operator's concern.
  const warningsBefore = identityWarnings().length;
  expect((await me('not-a-token')).status).toBe(401);
  expect(identityWarnings()).toHaveLength(warningsBefore);
  // Sockets say the same.
  expect(await socketRefusal(server.origin, newcomer.idToken)).toBe('NOT_READY');
  expect(await socketRefusal(server.origin, 'not-a-token')).toBe('UNAUTHENTICATED');

  identityDown = false;
  expect((await me(newcomer.idToken)).status).toBe(200);
});
