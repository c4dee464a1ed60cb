import type { Me } from '@mediagen/shared';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { browserForFile, openPage, type PageWatch } from './support/browser';
import { createUser, expectNoConsoleErrors, signInThroughLoginPage, uniqueEmail } from './support/app';
import { movePlan } from './support/plans';
import { stackOfThisWorker } from './support/stack';

/** Image sets (issue 36) through the whole stack: the panel, the simulator, the library. */
const { api, client, emulator, simulator, databaseUrl } = stackOfThisWorker();

const browser = browserForFile();

afterEach(async () => {
  await fetch(`${simulator}/__sim/faults`, { method: 'DELETE' });
});

interface StableImageRequest {
  endpoint: string;
  aspect_ratio?: string;
  style_preset?: string;
  negative_prompt?: string;
  seed?: number;
}

/** A Pro creator, signed in on the dashboard. */
async function proCreator(options: { width?: number; dark?: boolean } = {}): Promise<PageWatch & { token: string }> {
  const email = uniqueEmail('sets');
  const token = await createUser(emulator, email);
  await movePlan(databaseUrl, token, 'pro');
  const watch = await openPage(browser(), { width: options.width ?? 1280, height: 1000, dark: options.dark ?? false });
  await signInThroughLoginPage(watch.page, client, email);
  return { ...watch, token };
}

async function imageTokensLeft(token: string): Promise<number> {
  const response = await fetch(`${api}/api/me`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as Me).tokens.image;
}

async function imagePanel(page: Page) {
  const panel = page.getByRole('region', { name: 'Image generator' });
  await panel.getByRole('button', { name: /Image settings/ }).click();
  return panel;
}

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('image sets', () => {
  it('a Pro creator makes 3 images at 16:9 with a style and a negative prompt: 3 images, 3 tokens, each downloadable', async () => {
    const { page, context, errors, token } = await proCreator();
    try {
      const before = await imageTokensLeft(token);
      const panel = await imagePanel(page);
      await panel.getByLabel('Number of images').selectOption('3');
      await panel.getByLabel('Shape').selectOption('16:9');
      await panel.getByLabel('Style').selectOption('anime');
      await panel.getByLabel('Leave out').fill('blurry, extra fingers');
      await panel.getByLabel('Image prompt').fill('three red foxes in a snowy forest');
      await panel.getByRole('button', { name: 'Generate Image' }).click();
      await page.getByText('Image generated successfully!').waitFor({ timeout: 45_000 });

      // v2beta makes one image a call: three calls, each with the next seed.
      const sent = (
        (await (await fetch(`${simulator}/__sim/stability/v2beta/requests`)).json()) as StableImageRequest[]
      ).slice(-3);
      for (const request of sent) {
        expect(request).toMatchObject({ endpoint: 'generate/core', aspect_ratio: '16:9', style_preset: 'anime' });
        expect(request.negative_prompt).toMatch(/^blurry, extra fingers, /);
      }
      expect(sent.map((request) => request.seed! - sent[0]!.seed!)).toEqual([0, 1, 2]);
      expect(await imageTokensLeft(token)).toBe(before - 3);

      const grid = panel.getByRole('list', { name: '3 images' });
      const images = grid.getByRole('img', { name: /^Generated image \d of 3/ });
      expect(await images.count()).toBe(3);
      const sources = new Set<string>();
      for (let index = 0; index < 3; index += 1) {
        const source = (await images.nth(index).getAttribute('src'))!;
        sources.add(new URL(source).pathname);
        const file = await fetch(source);
        expect(file.status).toBe(200);
        const { width, height } = pngSize(Buffer.from(await file.arrayBuffer()));
        expect(width / height).toBeCloseTo(16 / 9, 1);
      }
      expect(sources.size).toBe(3);
      // Each image has its own download, a PNG saved under its own name.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        grid.getByRole('button', { name: 'Download image 2 of 3' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^mediagen-\d{13}-2\.png$/);
      expectNoConsoleErrors(errors, 'the Pro image set');
    } finally {
      await context.close();
    }
  });

  it('one filtered image of a set of 4 shows as filtered and returns exactly one token; the library shows the set', async () => {
    const { page, context, errors, token } = await proCreator();
    try {
      const fault = await fetch(`${simulator}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ route: 'image', fault: 'content-filtered', times: 1 }),
      });
      expect(fault.status).toBe(204);
      const before = await imageTokensLeft(token);
      const panel = await imagePanel(page);
      await panel.getByLabel('Number of images').selectOption('4');
      await panel.getByLabel('Image prompt').fill('four lighthouses at dawn');
      await panel.getByRole('button', { name: 'Generate Image' }).click();
      await page.getByText('Image generated successfully!').waitFor({ timeout: 45_000 });

      const grid = panel.getByRole('list', { name: '4 images' });
      await grid.getByRole('img', { name: /filtered by the provider, its token returned/ }).waitFor();
      expect(await grid.getByRole('img', { name: /^Generated image/ }).count()).toBe(3);
      // Four charged together, the filtered one's given back.
      expect(await imageTokensLeft(token)).toBe(before - 3);

      await page.goto(`${client}/library`);
      const item = page.getByRole('listitem').filter({ hasText: 'four lighthouses at dawn' });
      await item.getByText('4 images').waitFor();
      expect(await item.getByRole('button', { name: /^Download image \d of 4$/ }).count()).toBe(3);
      expectNoConsoleErrors(errors, 'the filtered set');
    } finally {
      await context.close();
    }
  });

  it('"same seed again" from the library fills the image panel, and a set fits 375 px in the dark theme', async () => {
    const { page, context, errors, token } = await proCreator({ width: 375, dark: true });
    try {
      const response = await fetch(`${api}/api/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          kind: 'image',
          prompt: 'two owls at night',
          samples: 2,
          seed: 1000,
          aspectRatio: '3:2',
        }),
      });
      expect(response.status).toBe(202);
      await page.goto(`${client}/library`);
      const item = page.getByRole('listitem').filter({ hasText: 'two owls at night' });
      await item.getByText('2 images').waitFor({ timeout: 45_000 });
      await noSidewaysScroll(page);
      await item.getByRole('button', { name: 'Same seed again: image 2 of 2, seed 1001' }).click();
      await page.waitForURL(/\/dashboard$/);
      const panel = page.getByRole('region', { name: 'Image generator' });
      // Filled in once the panel has mounted and read the draft.
      await expect.poll(() => panel.getByLabel('Image prompt').inputValue()).toBe('two owls at night');
      await panel.getByRole('button', { name: /Image settings/ }).click();
      expect(await panel.getByLabel('Seed').inputValue()).toBe('1001');
      expect(await panel.getByLabel('Shape').inputValue()).toBe('3:2');
      await noSidewaysScroll(page);
      expectNoConsoleErrors(errors, 'same seed again');
    } finally {
      await context.close();
    }
  });
});
