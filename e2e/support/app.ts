import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * Where the browser tests put their screenshots, when asked: `pnpm screenshots` runs them with
 * SCREENSHOT_DIR=screenshots to refresh the committed set. A plain run takes none: painting and encoding
 * some eighty whole pages was a sixth of the browser tests' CPU, for pictures nobody looked at.
 */
export const SCREENSHOT_DIR =
  process.env.SCREENSHOT_DIR === undefined ? null : resolve(import.meta.dirname, '../..', process.env.SCREENSHOT_DIR);

export type Theme = 'light' | 'dark';

/** A fresh address per test, so every test starts with a full token allowance. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${randomUUID().slice(0, 8)}@example.com`;
}

export const PASSWORD = 'secret-pass-123';

/**
 * Creates an account straight on the auth emulator, for tests that are not about signing up.
 * Resolves to the account's ID token, for tests that call the API as that user without a browser.
 */
export async function createUser(emulator: string, email: string, password = PASSWORD): Promise<string> {
  const response = await fetch(`http://${emulator}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  if (!response.ok) throw new Error(`emulator sign-up failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { idToken: string }).idToken;
}

/** Signs in the way a returning user does: the Welcome Back page, then the dashboard. */
export async function signInThroughLoginPage(
  page: Page,
  client: string,
  email: string,
  password = PASSWORD,
): Promise<void> {
  await page.goto(`${client}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${client}/dashboard`);
  // The welcome toast comes once the API has answered /api/me: the session reached the server.
  await page.getByText(/^Welcome! You have \d+ image/).waitFor();
}

/** The theme as the app persists it (zustand's persist format), set before any script runs. */
export async function presetTheme(page: Page, theme: Theme): Promise<void> {
  await page.addInitScript((isDark) => {
    localStorage.setItem('theme-storage', JSON.stringify({ state: { isDark }, version: 0 }));
  }, theme === 'dark');
}

/**
 * Shows the whole page at once, so lazy images below the fold load too, and under `pnpm screenshots`
 * saves it as a JPEG. The viewport is stretched to the page's height, rather than using Playwright's
 * fullPage, which paints fixed bars (the mobile bottom bar) in the middle of the picture and leaves lazy
 * images unloaded.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
  try {
    await waitForImages(page);
    if (SCREENSHOT_DIR === null) return;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const path = resolve(SCREENSHOT_DIR, `${name}.jpg`);
    await page.screenshot({ path, type: 'jpeg', quality: 70, animations: 'disabled' });
  } finally {
    await page.setViewportSize(viewport);
  }
}

/** Resolves once every <img> on the page has finished loading (or failed). */
export async function waitForImages(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((image) => image.complete), null, { timeout: 10_000 });
}

/** Waits for every toast to time out, so none covers a screenshot. */
export async function waitForToastsToClear(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('[data-sonner-toast]').length === 0, null, {
    timeout: 10_000,
  });
}

/** Console errors and uncaught exceptions fail a test: a user would not see them, but they mean something broke. */
export function expectNoConsoleErrors(errors: string[], where: string): void {
  expect(errors, `console errors on ${where}`).toEqual([]);
}
