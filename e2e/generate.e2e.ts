import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import type { Generation } from '@mediagen/shared';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { browserForFile, openPage, type PageWatch } from './support/browser';
import {
  createUser,
  waitForToastsToClear,
  expectNoConsoleErrors,
  saveScreenshot,
  signInThroughLoginPage,
  uniqueEmail,
} from './support/app';
import { recordProgress } from './support/progress';
import { stackOfThisWorker } from './support/stack';

const { api, client, emulator, simulator, queuePrefix } = stackOfThisWorker();
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const EXHAUSTED =
  'Your free tokens are over. Tokens will reset in 30 days. Please purchase a subscription for unlimited access.';

const browser = browserForFile();
afterEach(async () => {
  await fetch(`${simulator}/__sim/faults`, { method: 'DELETE' });
});

async function signedInPage(label: string): Promise<PageWatch> {
  const watch = await openPage(browser(), { width: 1280, height: 1000 });
  const email = uniqueEmail(label);
  await createUser(emulator, email);
  await signInThroughLoginPage(watch.page, client, email);
  return watch;
}

function increasing(values: number[]): boolean {
  return values.every((value, index) => index === 0 || value > values[index - 1]!);
}

/** A media element's state, read in the page. */
function mediaState(page: Page, selector: string) {
  return page.locator(selector).evaluate((element: HTMLMediaElement) => ({
    readyState: element.readyState,
    currentTime: element.currentTime,
    paused: element.paused,
    duration: element.duration,
    error: element.error?.message ?? null,
  }));
}

async function waitForAdvance(page: Page, selector: string, beyond: number): Promise<void> {
  await page.waitForFunction(
    ({ selector, beyond }) => {
      const element = document.querySelector<HTMLMediaElement>(selector);
      return element !== null && !element.paused && element.currentTime > beyond;
    },
    { selector, beyond },
    { timeout: 10_000 },
  );
}

describe('generating from the dashboard', () => {
  it('makes an image with rising progress, shows it and downloads it as a PNG; a second image finds the token spent', async () => {
    const { page, context, errors } = await signedInPage('image');
    try {
      const panel = page.getByRole('region', { name: 'Image generator' });
      await panel.getByLabel('Image prompt').fill('a lighthouse on a cliff at dusk, waves crashing');
      const progress = await recordProgress(page, 'bar', 'image');
      await panel.getByRole('button', { name: 'Generate Image' }).click();
      await page.getByText('Preparing to generate image...').waitFor();

      const image = panel.getByRole('img', {
        name: 'Generated image: a lighthouse on a cliff at dusk, waves crashing',
      });
      await image.waitFor({ timeout: 20_000 });
      await page.getByText('Image generated successfully!').waitFor();
      const seen = await progress();
      expect(seen.length, `progress values: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(2);
      expect(increasing(seen), `progress values: ${JSON.stringify(seen)}`).toBe(true);
      expect(seen.every((value) => value >= 0 && value <= 99)).toBe(true);
      expect(await panel.getByRole('progressbar').count()).toBe(0);

      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('img[alt^="Generated image"]');
        return img !== null && img.complete && img.naturalWidth > 0;
      });
      const size = await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
      expect(size).toEqual([1024, 1024]);
      await page.getByRole('region', { name: 'Remaining tokens' }).getByText('Image 0/1').waitFor();

      // The download button is revealed on hover.
      await panel.hover();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: 'Download image' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^mediagen-\d{13}\.png$/);
      const stamp = Number(/\d{13}/.exec(download.suggestedFilename())![0]);
      expect(Math.abs(Date.now() - stamp)).toBeLessThan(60_000);
      const bytes = await readFile((await download.path())!);
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(bytes.length).toBeGreaterThan(1000);
      await page.getByText('Image downloaded successfully!').waitFor();

      // Image has one free token: the second request is refused with the 5-second toast.
      await panel.getByLabel('Image prompt').fill('a second lighthouse');
      await panel.getByRole('button', { name: 'Generate Image' }).click();
      await page.getByText(EXHAUSTED).waitFor();
      // The earlier picture stays, and the button is usable again.
      expect(await image.isVisible()).toBe(true);
      expect(await panel.getByRole('button', { name: 'Generate Image' }).isEnabled()).toBe(true);
      expectNoConsoleErrors(
        errors.filter((error) => !isRefusal(error, 402)),
        'image generation',
      );
    } finally {
      await context.close();
    }
  });

  it('makes a video whose progress text rises, then plays it', async () => {
    const { page, context, errors } = await signedInPage('video');
    try {
      const panel = page.getByRole('region', { name: 'Video generator' });
      await panel.getByLabel('Video prompt').fill('a paper boat drifting down a rainy street');
      const progress = await recordProgress(page, 'text', 'video');
      await panel.getByRole('button', { name: 'Generate Video' }).click();
      await panel.getByRole('button', { name: 'Generating...' }).waitFor();
      expect(await panel.getByRole('button', { name: 'Generating...' }).isDisabled()).toBe(true);

      const video = panel.locator('video');
      await video.waitFor({ timeout: 30_000 });
      const seen = await progress();
      expect(seen.length, `progress values: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(2);
      expect(increasing(seen), `progress values: ${JSON.stringify(seen)}`).toBe(true);
      expect(Math.max(...seen)).toBeLessThanOrEqual(99);
      await panel.getByRole('button', { name: 'Generate Video' }).waitFor();

      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, null, {
        timeout: 15_000,
      });
      await video.evaluate((element: HTMLVideoElement) => element.play());
      await waitForAdvance(page, 'video', 0.3);
      const state = await mediaState(page, 'video');
      expect(state.error).toBeNull();
      expect(state.duration).toBeGreaterThan(2);
      const frame = await video.evaluate((element: HTMLVideoElement) => [element.videoWidth, element.videoHeight]);
      expect(frame).toEqual([320, 180]);
      expectNoConsoleErrors(errors, 'video generation');
    } finally {
      await context.close();
    }
  });

  it('speaks text in the chosen language and voice, and plays and pauses it', async () => {
    const { page, context, errors } = await signedInPage('speech');
    try {
      const panel = page.getByRole('region', { name: 'Speech generator' });
      await panel
        .getByLabel('Text to speak')
        .fill(
          'Welcome to the studio. This sentence is long enough to keep playing while the test presses pause, so we can hear it stop.',
        );
      // Spec: the voice stays disabled until a gender is chosen, then starts at that gender's first voice.
      expect(await panel.getByLabel('Voice').isDisabled()).toBe(true);
      await panel.getByLabel('Language').selectOption({ label: 'English (UK)' });
      await panel.getByLabel('Gender').selectOption({ label: 'Female' });
      expect(await panel.getByLabel('Voice').inputValue()).toBe('nova');
      // The Realtime models have no nova: the creator is told which voice reads it instead.
      await panel.getByText('Read by Coral, the nearest voice the speech model has.').waitFor();
      await panel.getByText('Text in another language is read as written, never translated.').waitFor();
      await panel.getByLabel('Voice').selectOption('shimmer');
      expect(await panel.getByText(/^Read by/).count()).toBe(0);

      await panel.getByRole('button', { name: 'Generate Speech' }).click();
      await page.getByText('Speech generated successfully!').waitFor({ timeout: 20_000 });
      await panel.getByText('Shimmer · English (UK)').waitFor();
      const play = panel.getByRole('button', { name: 'Play audio' });
      await play.waitFor();
      await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 2);

      await play.click();
      const pause = panel.getByRole('button', { name: 'Pause audio' });
      await pause.waitFor();
      await waitForAdvance(page, 'audio', 0.5);

      await pause.click();
      await play.waitFor();
      const paused = await mediaState(page, 'audio');
      expect(paused.paused).toBe(true);
      expect(paused.error).toBeNull();
      expect(paused.duration).toBeGreaterThan(paused.currentTime);
      await page.waitForTimeout(400);
      expect((await mediaState(page, 'audio')).currentTime).toBe(paused.currentTime);

      await play.click();
      await pause.waitFor();
      await waitForAdvance(page, 'audio', paused.currentTime + 0.2);
      await pause.click();
      await page.getByRole('region', { name: 'Remaining tokens' }).getByText('Speech 1/2').waitFor();
      expectNoConsoleErrors(errors, 'speech generation');
    } finally {
      await context.close();
    }
  });

  it('refuses the third speech with the exhausted-tokens toast', async () => {
    const { page, context, errors } = await signedInPage('exhausted');
    try {
      const panel = page.getByRole('region', { name: 'Speech generator' });
      await panel.getByLabel('Language').selectOption('en-US');
      await panel.getByLabel('Gender').selectOption('male');
      for (const [index, left] of [
        [1, 1],
        [2, 0],
      ] as const) {
        await panel.getByLabel('Text to speak').fill(`Take number ${index}.`);
        await panel.getByRole('button', { name: 'Generate Speech' }).click();
        await panel.getByRole('button', { name: 'Play audio' }).waitFor({ timeout: 20_000 });
        await page.getByRole('region', { name: 'Remaining tokens' }).getByText(`Speech ${left}/2`).waitFor();
        // The next take starts from a clean panel; reset also clears the voice choice.
        if (index === 1) {
          await panel.hover();
          await panel.getByRole('button', { name: 'Reset speech' }).click();
          await page.getByText('Speech content has been reset!').waitFor();
          expect(await panel.getByRole('button', { name: 'Play audio' }).count()).toBe(0);
          expect(await panel.getByLabel('Text to speak').inputValue()).toBe('');
          await panel.getByLabel('Language').selectOption('en-US');
          await panel.getByLabel('Gender').selectOption('male');
        }
      }
      await panel.getByLabel('Text to speak').fill('Take number 3.');
      await panel.getByRole('button', { name: 'Generate Speech' }).click();
      // A toast under the pointer waits for it to leave (the toaster's hover pause): the pointer moves away.
      await page.mouse.move(0, 0);
      const toast = page.getByText(EXHAUSTED);
      await toast.waitFor();
      // Spec: the exhausted toast lasts 5 seconds, longer than the usual 3.
      const shownAt = Date.now();
      await page.waitForTimeout(3500);
      expect(await toast.isVisible()).toBe(true);
      // Gone after its 5 s (and at most a moment more when the toaster's pause latched: lib/toast-deadline).
      await toast.waitFor({ state: 'detached', timeout: 15_000 });
      expect(Date.now() - shownAt).toBeGreaterThan(4000);
      expectNoConsoleErrors(
        errors.filter((error) => !isRefusal(error, 402)),
        'exhausted speech',
      );
    } finally {
      await context.close();
    }
  });

  it('shows a video still running after a reload, then finished', async () => {
    const { page, context, errors } = await signedInPage('reload');
    try {
      // A few dropped status polls keep the job running long enough to reload in the middle (the
      // worker keeps polling after network errors, spec §8). Few enough not to trip the worker's
      // circuit breaker (10 calls at 50 % failures).
      expect((await fetch(`${simulator}/__sim/reset`, { method: 'POST' })).status).toBe(204);
      const fault = await fetch(`${simulator}/__sim/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ route: 'video.query', fault: 'drop', times: 5 }),
      });
      expect(fault.status).toBe(204);

      const panel = page.getByRole('region', { name: 'Video generator' });
      await panel.getByLabel('Video prompt').fill('a hot air balloon over a valley at sunrise');
      await panel.getByRole('button', { name: 'Generate Video' }).click();
      // Reload once the provider task has started and progress has moved.
      const progressText = panel.getByText(/^Generating video\.\.\. \d+%$/);
      await page.waitForFunction(
        () => Number(/Generating video\.\.\. (\d+)%/.exec(document.body.innerText)?.[1] ?? 0) > 0,
      );
      const before = Number(/(\d+)%/.exec((await progressText.textContent())!)![1]);

      await page.reload();
      await page.getByRole('heading', { name: 'Creator Dashboard' }).waitFor();
      const progress = await recordProgress(page, 'text', 'video');
      await progressText.waitFor();
      expect(await panel.getByRole('button', { name: 'Generating...' }).isDisabled()).toBe(true);

      await panel.locator('video').waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, null, {
        timeout: 15_000,
      });
      expect(await progressText.count()).toBe(0);
      // Progress picked up where it was before the reload and never went back.
      const after = await progress();
      expect(after.length, `progress after the reload: ${JSON.stringify(after)}`).toBeGreaterThanOrEqual(1);
      expect(after[0], `before ${before}, after ${JSON.stringify(after)}`).toBeGreaterThanOrEqual(before);
      expect(increasing(after)).toBe(true);
      await panel.getByRole('button', { name: 'Generate Video' }).waitFor();
      const stats = (await (await fetch(`${simulator}/__sim/stats`)).json()) as { requests: Record<string, number> };
      // Polling went on past the five dropped answers.
      expect(stats.requests['video.query']).toBeGreaterThan(5);
      expectNoConsoleErrors(errors, 'reload during a video');
    } finally {
      await context.close();
    }
  });

  it('shows the place in line while an image waits, then makes it', async () => {
    const { page, context, errors } = await signedInPage('queue');
    try {
      // Another user's image meets a provider 429: the worker pauses the whole image queue for the
      // Retry-After (longer than the stack's shortened Stability lockout), so an image submitted meanwhile
      // reliably waits in line.
      expect((await fetch(`${simulator}/__sim/reset`, { method: 'POST' })).status).toBe(204);
      const fault = await fetch(`${simulator}/__sim/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ route: 'image', fault: 'http429', times: 1, retryAfterSeconds: 8 }),
      });
      expect(fault.status).toBe(204);
      const other = await createUser(emulator, uniqueEmail('queue-ahead'));
      await callApi<Generation>(other, '/api/generations', { kind: 'image', prompt: 'a queue ahead' });
      await expect
        .poll(
          async () => ((await (await fetch(`${simulator}/__sim/stats`)).json()) as SimulatorStats).requests.image ?? 0,
          { timeout: 5000, interval: 50 },
        )
        .toBeGreaterThanOrEqual(1);
      // The simulator answers after its 1.2 s latency; then the worker pauses the queue (BullMQ's limiter).
      const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
      try {
        await expect
          .poll(() => redis.pttl(`${queuePrefix}:generation-image:limiter`), { timeout: 10_000, interval: 50 })
          .toBeGreaterThan(3000);
      } finally {
        await redis.quit();
      }

      const panel = page.getByRole('region', { name: 'Image generator' });
      await panel.getByLabel('Image prompt').fill('a lighthouse keeper waiting his turn');
      await panel.getByRole('button', { name: 'Generate Image' }).click();
      const status = panel.getByRole('status');
      await status
        .filter({ hasText: /^Queued — (next|#\d+) in line(, about \d+ (s|min))?$/ })
        .waitFor({ timeout: 5000 });
      // Read together: once the pause ends the text moves on, and both with it.
      const [statusText, progressText] = await panel.evaluate((region) => [
        region.querySelector('[role="status"]')?.textContent,
        region.querySelector('[role="progressbar"]')?.getAttribute('aria-valuetext'),
      ]);
      expect(progressText).toBe(statusText);

      // Once the pause ends it runs like any other image.
      await panel
        .getByRole('img', { name: 'Generated image: a lighthouse keeper waiting his turn' })
        .waitFor({ timeout: 30_000 });
      expect(await panel.getByRole('status').count()).toBe(0);
      expectNoConsoleErrors(errors, 'a queued image');
    } finally {
      await context.close();
    }
  });

  it('shows all three results together on the dashboard, in both themes (screenshots)', async () => {
    const { page, context, errors } = await signedInPage('shots');
    try {
      const image = page.getByRole('region', { name: 'Image generator' });
      const video = page.getByRole('region', { name: 'Video generator' });
      const speech = page.getByRole('region', { name: 'Speech generator' });
      await image.getByLabel('Image prompt').fill('a neon city skyline reflected in a lake');
      await image.getByRole('button', { name: 'Generate Image' }).click();
      await video.getByLabel('Video prompt').fill('clouds rolling over mountains');
      await video.getByRole('button', { name: 'Generate Video' }).click();
      await speech.getByLabel('Text to speak').fill('Hello and welcome.');
      await speech.getByLabel('Language').selectOption('fr-FR');
      await speech.getByLabel('Gender').selectOption('female');
      await speech.getByRole('button', { name: 'Generate Speech' }).click();

      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>('img[alt^="Generated image"]')?.naturalWidth ?? 0) > 0,
        null,
        {
          timeout: 20_000,
        },
      );
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, null, {
        timeout: 30_000,
      });
      await speech.getByRole('button', { name: 'Play audio' }).waitFor({ timeout: 20_000 });
      await page.getByRole('region', { name: 'Remaining tokens' }).getByText('Video 0/1').waitFor();

      for (const theme of ['light', 'dark'] as const) {
        if (theme === 'dark') await page.getByRole('button', { name: 'Switch to Dark Mode' }).click();
        await waitForToastsToClear(page);
        await page.mouse.move(0, 0);
        await saveScreenshot(page, `dashboard-signed-in-1280-${theme}`);
      }
      expectNoConsoleErrors(errors, 'signed-in dashboard');
    } finally {
      await context.close();
    }
  });
});

interface SimulatorStats {
  requests: Record<string, number>;
}

/** Calls the API as another user, the way the app does (bearer token, an idempotency key per submission). */
async function callApi<T>(idToken: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${idToken}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The browser logs a refused request (here the API's 402) as a console error; that one is expected. */
function isRefusal(error: string, status: number): boolean {
  return error.includes(`status of ${status}`);
}
