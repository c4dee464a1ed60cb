import { expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import { createUser, expectNoConsoleErrors, signInThroughLoginPage, uniqueEmail } from './support/app';
import { stackOfThisWorker } from './support/stack';

const { client, emulator } = stackOfThisWorker();

const browser = browserForFile();

/**
 * Spec §7's token sync, on in this stack (VITE_TOKEN_SYNC_URL=/api/session, forwarded to the API on the
 * app's own origin): signing in POSTs a fresh ID token as a bearer and gets a session cookie scripts cannot
 * read; logging out DELETEs it.
 */
it('a sign-in opens the synced session and live updates over a WebSocket, a logout ends it', async () => {
  const email = uniqueEmail('sync');
  await createUser(emulator, email);
  const { page, context, errors } = await openPage(browser());
  // Live updates open a WebSocket and never poll: nothing a load balancer must keep on one server.
  const liveSocketUrls: string[] = [];
  const pollingRequests: string[] = [];
  page.on('websocket', (socket) => {
    if (socket.url().includes('/socket.io/')) liveSocketUrls.push(socket.url());
  });
  page.on('request', (request) => {
    if (request.url().includes('/socket.io/') && request.url().includes('transport=polling'))
      pollingRequests.push(request.url());
  });
  try {
    const synced = page.waitForRequest(
      (request) => request.url() === `${client}/api/session` && request.method() === 'POST',
    );
    await signInThroughLoginPage(page, client, email);
    const request = await synced;
    expect(request.headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]*$/);
    const token = request.headers().authorization!.slice('Bearer '.length);
    const { iat } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number };
    expect(Date.now() / 1000 - iat).toBeLessThan(5 * 60);
    expect((await request.response())?.status()).toBe(200);

    await expect.poll(() => liveSocketUrls.length, { timeout: 10_000 }).toBeGreaterThan(0);

    const cookie = (await context.cookies(client)).find((candidate) => candidate.name === 'mediagen_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('mediagen_session');

    const ended = page.waitForResponse(
      (response) => response.url() === `${client}/api/session` && response.request().method() === 'DELETE',
    );
    await page.getByRole('button', { name: 'Logout' }).click();
    expect((await ended).status()).toBe(204);
    await page.waitForURL(`${client}/`);
    expect((await context.cookies(client)).some((candidate) => candidate.name === 'mediagen_session')).toBe(false);
    expect(pollingRequests, 'live updates by HTTP long-polling').toEqual([]);
    expectNoConsoleErrors(errors, 'sign-in and logout with token sync');
  } finally {
    await context.close();
  }
});
