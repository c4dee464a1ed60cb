import type { Generation, GenerationRequestInput, Me } from '@mediagen/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import {
  createUser,
  expectNoConsoleErrors,
  presetTheme,
  saveScreenshot,
  signInThroughLoginPage,
  uniqueEmail,
  waitForToastsToClear,
  type Theme,
} from './support/app';
import { stackOfThisWorker } from './support/stack';

const { api, client, emulator } = stackOfThisWorker();

const browser = browserForFile();

async function callApi<T>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

/**
 * Submits through the API and waits until the generation has completed. Read once a second: the file's
 * one user shares the API's 120 requests a minute with every page the tests open in that minute.
 */
async function generate(token: string, request: GenerationRequestInput): Promise<Generation> {
  const accepted = await callApi<Generation>(token, 'POST', '/api/generations', request);
  expect(accepted.status).toBe(202);
  for (let read = accepted.body; ;) {
    if (read.status === 'completed') return read;
    if (read.status === 'failed' || read.status === 'canceled') throw new Error(`${read.id} ended ${read.status}`);
    await new Promise((done) => setTimeout(done, 1000));
    read = (await callApi<Generation>(token, 'GET', `/api/generations/${accepted.body.id}`)).body;
  }
}

const library = (page: Page) => page.getByRole('list', { name: 'Your generations' });
const items = (page: Page) => library(page).getByRole('listitem');
const item = (page: Page, prompt: string) => items(page).filter({ hasText: prompt });

async function expectPrompts(page: Page, prompts: string[]): Promise<void> {
  await expect.poll(() => items(page).locator('p[id]').allTextContents(), { timeout: 15_000 }).toEqual(prompts);
}

const IMAGE = 'a lighthouse on a cliff at dusk';
const VIDEO = 'a paper boat drifting down a rainy street';
const SPEECH = 'Hello from the library test.';

describe('the library', () => {
  const email = uniqueEmail('library');
  let token: string;

  beforeAll(async () => {
    token = await createUser(emulator, email);
    // Oldest first, so the library lists them speech, video, image.
    await generate(token, { kind: 'image', prompt: IMAGE });
    await generate(token, { kind: 'video', prompt: VIDEO });
    await generate(token, { kind: 'speech', input: SPEECH, voice: 'nova', language: 'en-US' });
  }, 60_000);

  it('lists three generations newest first, again after a reload; filters and search narrow them', async () => {
    const { page, context, errors } = await openPage(browser(), { width: 1280, height: 1000 });
    try {
      await signInThroughLoginPage(page, client, email);
      // The dashboard's strip shows recent work under the panels and leads to the library.
      await page.getByRole('region', { name: 'Recent' }).getByText(IMAGE).waitFor();
      await page.getByRole('link', { name: 'Open your library →' }).click();
      await page.waitForURL(`${client}/library`);
      await expectPrompts(page, [SPEECH, VIDEO, IMAGE]);
      await expect.poll(() => item(page, IMAGE).getByRole('img', { name: IMAGE }).isVisible()).toBe(true);
      await expect.poll(() => item(page, VIDEO).locator('video').count()).toBe(1);
      await expect.poll(() => item(page, SPEECH).locator('audio').count()).toBe(1);
      // How the speech was read: nova is read by coral on the Realtime models.
      await item(page, SPEECH).getByText('Nova, read by Coral · English (US)').waitFor();
      // A Free creator's results are served with the mark, and each says so beside it, with the way out.
      for (const prompt of [SPEECH, VIDEO, IMAGE]) {
        const notice = item(page, prompt).getByText('Free plan results carry the MediaGen mark.');
        await notice.waitFor();
        expect(await notice.innerText()).toBe('Free plan results carry the MediaGen mark. Upgrade to remove it.');
        expect(await notice.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/pricing');
      }
      // The image's Content Credentials, as the worker signed them into the marked copy a Free creator gets.
      await item(page, IMAGE).getByRole('button', { name: 'Content Credentials' }).click();
      await item(page, IMAGE).getByText('This copy carries the MediaGen mark.').waitFor();

      await page.reload();
      await expectPrompts(page, [SPEECH, VIDEO, IMAGE]);

      await page.getByLabel('Type', { exact: true }).selectOption('video');
      await expectPrompts(page, [VIDEO]);
      await page.getByLabel('Type', { exact: true }).selectOption('');
      await page.getByLabel('Status', { exact: true }).selectOption('failed');
      await page.getByText('Nothing matches these filters.').waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expectPrompts(page, [SPEECH, VIDEO, IMAGE]);
      await page.getByLabel('Search prompts').fill('LIGHTHOUSE');
      await expectPrompts(page, [IMAGE]);
      await page.getByLabel('Search prompts').fill('');
      await expectPrompts(page, [SPEECH, VIDEO, IMAGE]);
      expectNoConsoleErrors(errors, '/library');
    } finally {
      await context.close();
    }
  });

  it('runs one again (the new one updates live), and deletes one: its file link stops working', async () => {
    const { page, context, errors } = await openPage(browser(), { width: 1280, height: 1000 });
    try {
      await signInThroughLoginPage(page, client, email);
      await page.goto(`${client}/library`);
      await expectPrompts(page, [SPEECH, VIDEO, IMAGE]);

      await item(page, SPEECH).getByRole('button', { name: 'Run again' }).click();
      await page.getByText('Speech queued again with the same settings').waitFor();
      await expectPrompts(page, [SPEECH, SPEECH, VIDEO, IMAGE]);
      // The new one arrives queued or running and turns completed in place, with no reload.
      const rerun = items(page).first();
      await expect.poll(() => rerun.getByText('Completed').isVisible(), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => rerun.locator('audio').count()).toBe(1);
      const me = await callApi<Me>(token, 'GET', '/api/me');
      expect(me.body.tokens.speech).toBe(0);

      const videoUrl = (await item(page, VIDEO).locator('video').getAttribute('src'))!;
      expect((await fetch(videoUrl)).status).toBe(200);
      await item(page, VIDEO).getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this video?' });
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Video deleted').waitFor();
      await expectPrompts(page, [SPEECH, SPEECH, IMAGE]);
      expect([404, 410]).toContain((await fetch(videoUrl)).status);
      await page.reload();
      await expectPrompts(page, [SPEECH, SPEECH, IMAGE]);
      expectNoConsoleErrors(errors, '/library after run again and delete');
    } finally {
      await context.close();
    }
  });

  it('is there on a fresh browser at 375 px, and looks right at 375, 768 and 1280 px in both themes', async () => {
    for (const theme of ['light', 'dark'] as Theme[]) {
      const { page, context, errors } = await openPage(browser(), { width: 375, height: 800, dark: theme === 'dark' });
      try {
        await presetTheme(page, theme);
        await signInThroughLoginPage(page, client, email);
        await page.goto(`${client}/library`);
        await expectPrompts(page, [SPEECH, SPEECH, IMAGE]);
        await waitForToastsToClear(page);
        // Open in the screenshots: what the manifest says fits a phone, in both themes.
        await item(page, IMAGE).getByRole('button', { name: 'Content Credentials' }).click();
        await item(page, IMAGE).getByText('This copy carries the MediaGen mark.').waitFor();
        for (const width of [375, 768, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          // Nothing spills sideways, down to a phone.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await saveScreenshot(page, `library-${width}-${theme}`);
        }
        // On a phone, the home page's top bar keeps Dashboard and Logout in words, beside the logo's mark.
        await page.setViewportSize({ width: 375, height: 800 });
        await page.goto(`${client}/`);
        const bar = page.getByRole('banner');
        const logo = (await bar.getByRole('link', { name: 'MediaGen home' }).boundingBox())!;
        const dashboard = bar.getByRole('link', { name: 'Dashboard', exact: true });
        const logout = bar.getByRole('button', { name: 'Logout', exact: true });
        expect([await dashboard.innerText(), await logout.innerText()]).toEqual(['Dashboard', 'Logout']);
        expect(logo.x + logo.width).toBeLessThanOrEqual((await dashboard.boundingBox())!.x);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        await saveScreenshot(page, `home-signed-in-375-${theme}`);
        expectNoConsoleErrors(errors, `/library, ${theme}`);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});

describe('closing an account', () => {
  it('deletes it from the account menu after a confirmation; signing up again brings no new free tokens', async () => {
    const email = uniqueEmail('close');
    const token = await createUser(emulator, email);
    const speech = await generate(token, { kind: 'speech', input: 'Goodbye.', voice: 'nova', language: 'en-US' });
    const { page, context, errors } = await openPage(browser(), { width: 1280, height: 900 });
    try {
      await signInThroughLoginPage(page, client, email);
      await page.getByRole('button', { name: 'Account', exact: true }).click();
      await page.getByRole('button', { name: 'Delete account…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await dialog.getByText('anonymous trace').waitFor();
      const confirm = dialog.getByRole('button', { name: 'Delete account' });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Type delete to confirm').fill('delete');
      await confirm.click();
      await page.waitForURL(`${client}/`);
      await page.getByText('Your account and everything you made were deleted.').waitFor();
      await page.getByRole('link', { name: 'Sign In' }).waitFor();

      expect([404, 410]).toContain((await fetch(speech.result!.url)).status);
      expect((await callApi(token, 'GET', '/api/me')).status).toBe(401);
      const again = await createUser(emulator, email);
      const me = await callApi<Me>(again, 'GET', '/api/me');
      expect(me.status, JSON.stringify(me.body)).toBe(200);
      expect(me.body.tokens).toEqual({ image: 1, video: 1, speech: 1 });
      expectNoConsoleErrors(errors, 'account deletion');
    } finally {
      await context.close();
    }
  });
});
