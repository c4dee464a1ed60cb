import { PLAN_FACTS, type Me } from '@mediagen/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import {
  createUser,
  expectNoConsoleErrors,
  presetTheme,
  saveScreenshot,
  signInThroughLoginPage,
  uniqueEmail,
  type Theme,
} from './support/app';
import { stackOfThisWorker } from './support/stack';

const { api, client, emulator } = stackOfThisWorker();

const browser = browserForFile();

type Allowance = Me['allowance'];

/** "1 image, 1 video and 2 speech every 30 days" read back as numbers and a period in days. */
function readAllowance(text: string): { allowance: Allowance; periodDays: number } {
  const match = /(\d+) images?, (\d+) videos? and (\d+) speech (?:every (\d+) days|a day)/.exec(text);
  expect(match, `an allowance in "${text}"`).not.toBeNull();
  const [, image, video, speech, days] = match!;
  return {
    allowance: { image: Number(image), video: Number(video), speech: Number(speech) },
    periodDays: days === undefined ? 1 : Number(days),
  };
}

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${where} is wider than the viewport`).toBeLessThanOrEqual(0);
}

describe('plan facts in the browser', () => {
  for (const theme of ['light', 'dark'] as Theme[]) {
    it(`Pricing's Free card states the allowance a new Free creator's dashboard shows (375 px, ${theme})`, async () => {
      const email = uniqueEmail('facts');
      const token = await createUser(emulator, email);
      const { page, context, errors } = await openPage(browser(), { width: 375, height: 800 });
      try {
        await presetTheme(page, theme);
        await signInThroughLoginPage(page, client, email);

        // The dashboard: the balance against the allowance, and the welcome saying how often it renews.
        const welcome = await page.getByText(/^Welcome! You have /).textContent();
        expect(welcome).toMatch(/on the Free plan, which renews them every (\d+) days\.$/);
        const welcomeDays = Number(/every (\d+) days/.exec(welcome!)![1]);
        const balance = page.getByRole('region', { name: 'Remaining tokens' });
        await balance.getByText('Free plan').waitFor();
        const balanceText = (await balance.textContent()) ?? '';
        const shown = (label: string) => {
          const match = new RegExp(`${label} (\\d+)/(\\d+)`).exec(balanceText);
          expect(match, `${label} on the dashboard: "${balanceText}"`).not.toBeNull();
          return { left: Number(match![1]), of: Number(match![2]) };
        };
        const dashboard: Allowance = { image: shown('Image').of, video: shown('Video').of, speech: shown('Speech').of };
        // A new creator has all of it left.
        expect([shown('Image').left, shown('Video').left, shown('Speech').left]).toEqual([
          dashboard.image,
          dashboard.video,
          dashboard.speech,
        ]);
        await expectNoSidewaysScroll(page, 'the dashboard');

        // Pricing's Free card, reached as a visitor would, through the bottom bar.
        await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Pricing' }).click();
        const free = page.getByRole('article', { name: 'Free' });
        await free.waitFor();
        const stated = readAllowance((await free.getByRole('listitem').first().textContent()) ?? '');
        expect(stated.allowance).toEqual(dashboard);
        expect(stated.periodDays).toBe(welcomeDays);

        // And both are what the API enforces, and the spec's business constants (1, 1 and 2 every 30 days).
        const me = (await (
          await fetch(`${api}/api/me`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as Me;
        expect(me).toMatchObject({ plan: 'free', allowance: dashboard });
        expect(stated).toEqual({ allowance: { image: 1, video: 1, speech: 2 }, periodDays: 30 });
        expect(stated.allowance).toEqual(PLAN_FACTS.free.allowance);

        // Every card and the Services page fit a phone's width, in this theme.
        await expectNoSidewaysScroll(page, 'Pricing');
        await saveScreenshot(page, `plan-facts-pricing-375-${theme}`);
        await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Services' }).click();
        await page.getByRole('heading', { name: 'Precision Control' }).waitFor();
        await expectNoSidewaysScroll(page, 'Services');
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        expectNoConsoleErrors(errors, 'dashboard → pricing → services');
      } finally {
        await context.close();
      }
    });
  }
});
