import type { Generation, Me } from '@mediagen/shared';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { browserForFile, openPage, type PageWatch } from './support/browser';
import { createUser, expectNoConsoleErrors, signInThroughLoginPage, uniqueEmail } from './support/app';
import { stackOfThisWorker } from './support/stack';

const { api, client, emulator, simulator } = stackOfThisWorker();
const STAYS_SPENT = 'The video has started: canceling stops it, and the token stays spent.';
const SPENT_OUTCOME = 'The video had started, so its token stays spent.';

const browser = browserForFile();
afterEach(async () => {
  await fetch(`${simulator}/__sim/faults`, { method: 'DELETE' });
});

/**
 * Keeps every video "Processing" at the provider for a while: the task was started (paid work), so the
 * job runs, polled, until it is canceled, however slow the machine is.
 */
async function holdVideosRendering(): Promise<void> {
  const response = await fetch(`${simulator}/__sim/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ route: 'video.query', fault: 'unknown-status', status: 'Processing', times: 400 }),
  });
  expect(response.status).toBe(204);
}

async function signedInPage(label: string): Promise<PageWatch & { token: string }> {
  const watch = await openPage(browser(), { width: 1280, height: 1000 });
  const email = uniqueEmail(label);
  const token = await createUser(emulator, email);
  await signInThroughLoginPage(watch.page, client, email);
  return { ...watch, token };
}

async function readApi<T>(token: string, path: string): Promise<T> {
  const response = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** What a screen reader reads after the control's name (its aria-describedby text). */
function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

async function startVideo(page: Page, prompt: string): Promise<Locator> {
  const panel = page.getByRole('region', { name: 'Video generator' });
  await panel.getByLabel('Video prompt').fill(prompt);
  await panel.getByRole('button', { name: 'Generate Video' }).click();
  // Once the provider's task has started, the panel says what a cancel would do to the token.
  await panel.getByText(STAYS_SPENT).waitFor({ timeout: 30_000 });
  await panel.getByText(/^Generating video\.\.\. \d+%$/).waitFor();
  return panel;
}

async function onlyGeneration(token: string): Promise<Generation> {
  const { items } = await readApi<{ items: Generation[] }>(token, '/api/generations');
  expect(items).toHaveLength(1);
  return items[0]!;
}

describe('canceling a running video', () => {
  it('from the panel: says before and after that the token stays spent, and the panel reads canceled', async () => {
    await holdVideosRendering();
    const { page, context, errors, token } = await signedInPage('cancel-panel');
    try {
      const panel = await startVideo(page, 'a kite over the dunes at noon');
      const cancel = panel.getByRole('button', { name: 'Cancel video' });
      expect(await descriptionOf(cancel)).toBe(STAYS_SPENT);
      expect((await onlyGeneration(token)).status).toBe('active');

      await cancel.click();
      await page.getByText('Video canceled', { exact: true }).waitFor();
      await page.getByText(SPENT_OUTCOME, { exact: true }).waitFor();
      await panel.getByText(`Video canceled. ${SPENT_OUTCOME}`).waitFor();
      expect(await panel.getByText(/^Generating video/).count()).toBe(0);
      expect(await cancel.count()).toBe(0);
      await panel.getByRole('button', { name: 'Generate Video' }).waitFor();

      expect(await onlyGeneration(token)).toMatchObject({ status: 'canceled', token: 'spent' });
      await page.getByRole('region', { name: 'Remaining tokens' }).getByText('Video 0/1').waitFor();
      expect((await readApi<Me>(token, '/api/me')).tokens.video).toBe(0);
      expectNoConsoleErrors(errors, 'cancel from the panel');
    } finally {
      await context.close();
    }
  });

  it('kept running by a reset, then from the library: the item reads canceled with the token outcome', async () => {
    await holdVideosRendering();
    const { page, context, errors, token } = await signedInPage('cancel-library');
    const prompt = 'a lantern drifting across a lake at night';
    try {
      const panel = await startVideo(page, prompt);
      await panel.hover();
      await panel.getByRole('button', { name: 'Reset video' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your video is still running' });
      await dialog.getByText(STAYS_SPENT).waitFor();
      await dialog.getByRole('button', { name: 'Keep it running' }).click();
      await page.getByText('Video panel cleared. It keeps running: find it in your library.').waitFor();
      expect(await panel.getByLabel('Video prompt').inputValue()).toBe('');
      expect(await panel.getByText(/^Generating video/).count()).toBe(0);
      expect((await onlyGeneration(token)).status).toBe('active');

      await page.getByRole('link', { name: 'Open your library →' }).click();
      await page.waitForURL(`${client}/library`);
      const item = page
        .getByRole('list', { name: 'Your generations' })
        .getByRole('listitem')
        .filter({ hasText: prompt });
      await item.getByText('Generating', { exact: true }).waitFor();
      const cancel = item.getByRole('button', { name: 'Cancel video' });
      expect(await descriptionOf(cancel)).toBe(STAYS_SPENT);

      await cancel.click();
      await page.getByText('Video canceled', { exact: true }).waitFor();
      await item.getByText('Canceled', { exact: true }).waitFor();
      await item.getByText(SPENT_OUTCOME).waitFor();
      expect(await cancel.count()).toBe(0);
      expect(await onlyGeneration(token)).toMatchObject({ status: 'canceled', token: 'spent' });

      await page.goto(`${client}/dashboard`);
      await page.getByRole('region', { name: 'Remaining tokens' }).getByText('Video 0/1').waitFor();
      expectNoConsoleErrors(errors, 'cancel from the library');
    } finally {
      await context.close();
    }
  });
});
