import { describe, expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import { createUser, expectNoConsoleErrors, presetTheme, signInThroughLoginPage, uniqueEmail } from './support/app';
import { stackOfThisWorker } from './support/stack';

const { api, client, emulator } = stackOfThisWorker();
const browser = browserForFile();

/** What a browser logs while it has no network: the socket's and the requests' failures, expected here. */
const OFFLINE_NOISE = /WebSocket|ERR_INTERNET_DISCONNECTED|Failed to load resource/;

describe('on a phone, nothing important is hidden', () => {
  it('keeps the account menu usable under the welcome toast, and says when live updates drop until they are back', async () => {
    const email = uniqueEmail('live');
    const token = await createUser(emulator, email);
    const { page, context, errors } = await openPage(browser(), { width: 375, height: 740, dark: true });
    try {
      await presetTheme(page, 'dark');
      const liveSockets: { framed: boolean; closed: boolean }[] = [];
      page.on('websocket', (socket) => {
        if (!socket.url().includes('/socket.io/')) return;
        const seen = { framed: false, closed: false };
        liveSockets.push(seen);
        socket.on('framereceived', () => (seen.framed = true));
        socket.on('close', () => (seen.closed = true));
      });
      await signInThroughLoginPage(page, client, email);

      // The welcome toast is still up when the menu opens: the menu's items are on top and take the click.
      await page.getByRole('button', { name: 'Account' }).click();
      const libraryItem = page.getByRole('link', { name: 'Your library' });
      await libraryItem.waitFor();
      expect(await page.locator('[data-sonner-toast]').count()).toBeGreaterThan(0);
      const onTop = await libraryItem.evaluate((link) => {
        const box = link.getBoundingClientRect();
        return link.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
      });
      expect(onTop, 'the menu item is the topmost element at its centre').toBe(true);
      const socketsBeforeLibrary = liveSockets.length;
      await libraryItem.click({ timeout: 3000 });
      await page.waitForURL(`${client}/library`);
      await page.getByRole('heading', { name: 'Your Library' }).waitFor();
      // Live updates are up once the WebSocket has its first frame back:
      // dropping the network then is a drop, not a connection that never began. Each page opens its own
      // connection: the dashboard's are closed and one the library opened is up.
      await expect
        .poll(
          () =>
            liveSockets.slice(0, socketsBeforeLibrary).every((socket) => socket.closed) &&
            liveSockets.slice(socketsBeforeLibrary).some((socket) => socket.framed && !socket.closed),
          { timeout: 30_000 },
        )
        .toBe(true);

      // Drop the network: the socket closes, and the page says so in a status region. Chromium's offline
      // mode closes the WebSocket at once as a rule; when it does not (seen once on a loaded host), the
      // client hears no ping for Socket.IO's pingInterval + pingTimeout (45 s) and gives it up then.
      const notice = page.getByRole('status').filter({ hasText: 'Reconnecting…' });
      await context.setOffline(true);
      await notice.waitFor({ timeout: 60_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      // Made while the page could not hear it: only the resync after the reconnect can bring it.
      const prompt = 'a harbour at night, made while offline';
      const accepted = await fetch(`${api}/api/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'image', prompt }),
      });
      expect(accepted.status).toBe(202);

      await context.setOffline(false);
      await page.getByRole('list', { name: 'Your generations' }).getByText(prompt).waitFor({ timeout: 20_000 });
      await expect.poll(() => notice.count(), { timeout: 20_000 }).toBe(0);
      expectNoConsoleErrors(
        errors.filter((error) => !OFFLINE_NOISE.test(error)),
        'the library through a dropped connection',
      );
    } finally {
      await context.close();
    }
  }, 120_000);
});
