import { CHROMIUM_PATH, HEADLESS_CHROMIUM_ARGS } from '@mediagen/testing';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { beforeAll } from 'vitest';

const CHROMIUM_ARGS = [
  ...HEADLESS_CHROMIUM_ARGS,
  '--disable-quic',
  // Lets <audio> and <video> play without a user gesture in headless runs.
  '--autoplay-policy=no-user-gesture-required',
];

function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

let running: Promise<Browser> | undefined;

/**
 * The browser of this test process, launched by the first file that asks and kept for the next ones (the
 * files share the process: isolate is off), relaunched should it have gone. Every test opens a context of
 * its own (openPage), so nothing of one file's pages reaches the next; Playwright closes the browser when
 * the process ends.
 */
async function sharedBrowser(): Promise<Browser> {
  const browser = await running;
  if (browser?.isConnected()) return browser;
  running = launchBrowser();
  return running;
}

/** The browser for the tests of the file that calls it, ready before they run. */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await sharedBrowser();
  });
  return () => {
    if (browser === undefined) throw new Error('the browser is launched before the tests run');
    return browser;
  };
}

export interface PageWatch {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; dark?: boolean } = {},
): Promise<PageWatch> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The suites' several-hosts fault test adds and removes network interfaces on this host while the
    // browser tests run beside it, and Chromium cancels the loads in flight when they change: the machine's
    // doing, not the page's (what the page shows is still asserted).
    if (message.text().includes('net::ERR_NETWORK_CHANGED')) return;
    // "Failed to load resource" does not say which: the location does.
    errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, context, errors };
}
