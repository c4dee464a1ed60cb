import { PLAN_FACTS, allowanceInWords, type Me } from '@mediagen/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import { createUser, expectNoConsoleErrors, signInThroughLoginPage, uniqueEmail } from './support/app';
import { stackOfThisWorker } from './support/stack';

const { api, client, emulator } = stackOfThisWorker();

const browser = browserForFile();

/** The account's plan as the API has it (the record, not the page). */
async function planOf(token: string): Promise<Me['plan']> {
  const response = await fetch(`${api}/api/me`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as Me).plan;
}

/** From Pricing, a paid card's button, for the period picked: the browser goes to the stand-in's checkout. */
async function checkOut(page: Page, plan: 'Pro' | 'Enterprise', period: 'Monthly' | 'Yearly (Save 20%)') {
  await page.goto(`${client}/pricing`);
  await page.getByRole('button', { name: period }).click();
  // Signed in with no trial used yet, Pro's button is the trial's.
  await page
    .getByRole('article', { name: plan })
    .getByRole('button', { name: /Start Free Trial|Upgrade to/ })
    .click();
  await page.getByRole('heading', { name: `Subscribe to MediaGen ${plan}` }).waitFor();
}

/** The account menu's "Manage billing": the browser goes to the stand-in's portal. */
async function openPortal(page: Page) {
  await page.goto(`${client}/dashboard`);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Manage billing' }).click();
  await page.getByRole('heading', { name: 'MediaGen billing' }).waitFor();
}

/** The account menu's billing lines, read again from a fresh dashboard. */
async function accountMenuText(page: Page): Promise<string> {
  await page.goto(`${client}/dashboard`);
  await page.getByRole('button', { name: 'Account' }).click();
  const menu = page.locator('[data-open-menu]');
  await menu
    .getByRole('button', { name: 'Manage billing' })
    .or(menu.getByRole('link', { name: 'Upgrade' }))
    .waitFor();
  return (await menu.textContent()) ?? '';
}

describe('paid plans through Stripe Checkout and the portal (issue 38)', () => {
  it('a Free user buys Pro yearly, sees it within seconds, moves to Enterprise monthly in the portal, then cancels', async () => {
    const email = uniqueEmail('billing');
    const token = await createUser(emulator, email);
    const { page, context, errors } = await openPage(browser(), { width: 1280, height: 1000 });
    try {
      await signInThroughLoginPage(page, client, email);
      await checkOut(page, 'Pro', 'Yearly (Save 20%)');
      expect(await page.getByText('Pro yearly').first().textContent()).toContain('Pro yearly');
      await page.getByRole('button', { name: 'Pay' }).click();

      // Back in the app: confirming until the webhook has landed, then the plan, live.
      await page.waitForURL(/\/payment\?checkout=success/);
      await page.getByRole('heading', { name: "You're on Pro" }).waitFor({ timeout: 10_000 });
      const facts = await page.getByRole('list', { name: 'Pro plan' }).textContent();
      expect(facts).toContain(allowanceInWords(PLAN_FACTS.pro));
      expect(facts).toContain('No watermark');
      expect(await planOf(token)).toBe('pro');
      await page.getByRole('link', { name: 'Start creating' }).click();
      await page.getByRole('region', { name: 'Remaining tokens' }).getByText('Pro plan').waitFor();
      expect(await page.getByText('Free plan results carry the MediaGen mark').count()).toBe(0);

      await openPortal(page);
      await page.getByRole('button', { name: /^Switch to Enterprise monthly/ }).click();
      await page.getByRole('status').getByText('Your plan was changed.').waitFor();
      await expect.poll(() => planOf(token), { timeout: 10_000 }).toBe('enterprise');
      await page.getByRole('link', { name: 'Return to MediaGen' }).click();
      await page.waitForURL((url) => url.origin === new URL(client).origin);

      await openPortal(page);
      await page.getByRole('button', { name: 'Cancel plan' }).click();
      await page
        .getByRole('status')
        .getByText(/Your plan was canceled/)
        .waitFor();
      // Canceled: the plan stays to the end of the paid period, and the account menu says until when.
      await expect.poll(() => accountMenuText(page), { timeout: 10_000 }).toMatch(/Enterprise until .+, then Free/);
      expect(await planOf(token)).toBe('enterprise');
      expectNoConsoleErrors(errors, 'billing');
    } finally {
      await context.close();
    }
  });

  it('a declined card leaves the account on Free, and the way back says nothing was charged', async () => {
    const email = uniqueEmail('billing-declined');
    const token = await createUser(emulator, email);
    const { page, context, errors } = await openPage(browser(), { width: 375, height: 800, dark: true });
    try {
      await signInThroughLoginPage(page, client, email);
      await checkOut(page, 'Pro', 'Monthly');
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.getByRole('alert').getByText('Your card was declined.').waitFor();
      await page.getByRole('link', { name: 'Back' }).click();

      await page.waitForURL(/\/payment\?checkout=canceled/);
      await page.getByRole('status').getByText('Checkout canceled. You have not been charged.').waitFor();
      expect(await planOf(token)).toBe('free');
      await page.getByRole('link', { name: 'Back to pricing' }).click();
      await page.getByRole('article', { name: 'Free' }).getByText('Current plan').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'Pricing is wider than 375 px').toBeLessThanOrEqual(0);
      expectNoConsoleErrors(errors, 'billing, declined');
    } finally {
      await context.close();
    }
  });
});
