import type { Me, PlanId } from '@mediagen/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserForFile, openPage, type PageWatch } from './support/browser';
import { createUser, expectNoConsoleErrors, signInThroughLoginPage, uniqueEmail } from './support/app';
import { movePlan } from './support/plans';
import { stackOfThisWorker } from './support/stack';

const { api, client, emulator, simulator, databaseUrl } = stackOfThisWorker();

const browser = browserForFile();

interface StableImageRequest {
  endpoint: string;
  aspect_ratio?: string;
  style_preset?: string;
  negative_prompt?: string;
  image?: { width: number; height: number };
}
interface VideoTask {
  model: string;
  resolution?: string;
  duration?: number;
}

async function simulatorLog<T>(path: string): Promise<T[]> {
  return (await (await fetch(`${simulator}${path}`)).json()) as T[];
}

/** A creator on `plan`, signed in on the dashboard. */
async function creatorOn(plan: PlanId): Promise<PageWatch & { token: string }> {
  const email = uniqueEmail(plan);
  const token = await createUser(emulator, email);
  if (plan !== 'free') await movePlan(databaseUrl, token, plan);
  const watch = await openPage(browser(), { width: 1280, height: 1000 });
  await signInThroughLoginPage(watch.page, client, email);
  return { ...watch, token };
}

async function imageTokensLeft(token: string): Promise<number> {
  const response = await fetch(`${api}/api/me`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as Me).tokens.image;
}

async function openSettings(page: Page, kind: 'Image' | 'Video') {
  const panel = page.getByRole('region', { name: `${kind} generator` });
  await panel.getByRole('button', { name: new RegExp(`${kind} settings`) }).click();
  return panel;
}

/** The width and height a PNG's header gives. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('what each plan makes', () => {
  it('shows a Free creator the models, 4K and Hailuo locked, each with the plan that unlocks it', async () => {
    const { page, context, errors } = await creatorOn('free');
    try {
      const image = await openSettings(page, 'Image');
      const ultra = image.getByLabel('Model').locator('option', { hasText: 'Stable Image Ultra' });
      expect(await ultra.textContent()).toBe('Stable Image Ultra (Enterprise)');
      expect(await ultra.isDisabled()).toBe(true);
      expect(await image.getByLabel('Resolution').locator('option', { hasText: '4K' }).textContent()).toBe(
        '4K (Enterprise)',
      );
      const video = await openSettings(page, 'Video');
      const hailuo = video.getByLabel('Model and resolution').locator('option', { hasText: '1080P' });
      expect(await hailuo.textContent()).toBe('Hailuo 2.3 · 1080P (Pro)');
      expect(await hailuo.isDisabled()).toBe(true);
      expectNoConsoleErrors(errors, 'the Free dashboard');
    } finally {
      await context.close();
    }
  });

  it("makes a Pro creator's image with Stable Image Core at 16:9, with a style and what to leave out, for one token", async () => {
    const { page, context, errors, token } = await creatorOn('pro');
    try {
      const before = await imageTokensLeft(token);
      const panel = await openSettings(page, 'Image');
      await panel.getByLabel('Shape').selectOption('16:9');
      await panel.getByLabel('Style').selectOption('anime');
      await panel.getByLabel('Leave out').fill('blurry, extra fingers');
      await panel.getByLabel('Image prompt').fill('a red fox in a snowy forest');
      await panel.getByRole('button', { name: 'Generate Image' }).click();
      await page.getByText('Image generated successfully!').waitFor({ timeout: 45_000 });

      const sent = (await simulatorLog<StableImageRequest>('/__sim/stability/v2beta/requests')).at(-1)!;
      expect(sent).toMatchObject({ endpoint: 'generate/core', aspect_ratio: '16:9', style_preset: 'anime' });
      expect(sent.negative_prompt).toMatch(/^blurry, extra fingers, /);
      expect(await imageTokensLeft(token)).toBe(before - 1);
      const source = await panel.getByRole('img', { name: /^Generated image: / }).getAttribute('src');
      const file = await fetch(source!);
      expect(file.status).toBe(200);
      const { width, height } = pngSize(Buffer.from(await file.arrayBuffer()));
      expect(width / height).toBeCloseTo(16 / 9, 1);
      expectNoConsoleErrors(errors, 'the Pro image');
    } finally {
      await context.close();
    }
  });

  it("makes an Enterprise creator's Ultra image in 4K: the file is 4,096 pixels wide", async () => {
    const { page, context, errors } = await creatorOn('enterprise');
    try {
      const panel = await openSettings(page, 'Image');
      await panel.getByLabel('Model').selectOption('stable-image-ultra');
      await panel.getByLabel('Resolution').selectOption('4k');
      await panel.getByLabel('Image prompt').fill('a lighthouse on a cliff at dawn');
      await panel.getByRole('button', { name: 'Generate Image' }).click();
      await page.getByText('Image generated successfully!').waitFor({ timeout: 45_000 });

      const endpoints = (await simulatorLog<StableImageRequest>('/__sim/stability/v2beta/requests')).map(
        (request) => request.endpoint,
      );
      expect(endpoints.slice(-2)).toEqual(['generate/ultra', 'upscale/fast']);
      const source = await panel.getByRole('img', { name: /^Generated image: / }).getAttribute('src');
      expect(pngSize(Buffer.from(await (await fetch(source!)).arrayBuffer()))).toEqual({ width: 4096, height: 4096 });
      expectNoConsoleErrors(errors, 'the Enterprise 4K image');
    } finally {
      await context.close();
    }
  });

  it("sends a Pro creator's 1080P video to MiniMax as Hailuo 2.3, in the 6 seconds it renders at 1080P", async () => {
    const { page, context, errors } = await creatorOn('pro');
    try {
      const panel = await openSettings(page, 'Video');
      await panel.getByLabel('Model and resolution').selectOption('MiniMax-Hailuo-2.3 1080P');
      await panel.getByLabel('Video prompt').fill('waves breaking on a rocky shore');
      await panel.getByRole('button', { name: 'Generate Video' }).click();
      await panel.getByLabel('Generated video').waitFor({ timeout: 45_000 });
      expect((await simulatorLog<VideoTask>('/__sim/video/tasks')).at(-1)).toMatchObject({
        model: 'MiniMax-Hailuo-2.3',
        resolution: '1080P',
        duration: 6,
      });
      expectNoConsoleErrors(errors, 'the Pro video');
    } finally {
      await context.close();
    }
  });
});
