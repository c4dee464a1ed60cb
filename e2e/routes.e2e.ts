import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile, openPage } from './support/browser';
import {
  expectNoConsoleErrors,
  presetTheme,
  saveScreenshot,
  SCREENSHOT_DIR,
  waitForImages,
  type Theme,
} from './support/app';
import { stackOfThisWorker } from './support/stack';

const { client } = stackOfThisWorker();

/** Every route of the spec, an unknown one, and the heading a visitor should see there. */
const ROUTES = [
  { name: 'home', path: '/', heading: 'Transform Your Ideas Into Reality' },
  { name: 'about', path: '/about', heading: 'Our Vision' },
  { name: 'services', path: '/services', heading: 'Everything you need to create' },
  { name: 'pricing', path: '/pricing', heading: 'Simple, transparent pricing' },
  { name: 'guide', path: '/guide', heading: 'Prompt Guide' },
  { name: 'dashboard', path: '/dashboard', heading: 'Creator Dashboard' },
  { name: 'login', path: '/login', heading: 'Welcome Back' },
  { name: 'payment', path: '/payment', heading: 'Payment' },
  { name: 'support', path: '/support', heading: 'Contact support' },
  { name: 'contact-sales', path: '/contact-sales', heading: 'Contact sales' },
  { name: 'not-found', path: '/no-such-page', heading: 'Page not found' },
] as const;

const WIDTHS = [375, 768, 1280] as const;
const THEMES: Theme[] = ['light', 'dark'];

const browser = browserForFile();

/**
 * Pairs of the top bar's visible controls (logo, links, buttons) whose painted boxes cross, by their text or
 * label. A control's box includes what it holds, which may overflow it (a name wider than its shrunk link).
 */
function overlapsInTopBar(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const painted = (element: Element) => {
      const boxes = [element, ...element.querySelectorAll('*')]
        .map((part) => part.getBoundingClientRect())
        .filter((box) => box.width > 0 && box.height > 0);
      if (boxes.length === 0) return null;
      return {
        left: Math.min(...boxes.map((box) => box.left)),
        right: Math.max(...boxes.map((box) => box.right)),
        top: Math.min(...boxes.map((box) => box.top)),
        bottom: Math.max(...boxes.map((box) => box.bottom)),
      };
    };
    const controls = [...document.querySelectorAll('header a, header button')].flatMap((element) => {
      const box = painted(element);
      const name = element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';
      return box === null ? [] : [{ name, box }];
    });
    const crossing: string[] = [];
    for (const [index, a] of controls.entries()) {
      for (const b of controls.slice(index + 1)) {
        const apart =
          a.box.right <= b.box.left ||
          b.box.right <= a.box.left ||
          a.box.bottom <= b.box.top ||
          b.box.bottom <= a.box.top;
        if (!apart) crossing.push(`${a.name} / ${b.name}`);
      }
    }
    return crossing;
  });
}

/** At this width: nothing sticks out sideways, the top bar's controls are apart, every picture loads, and the navigation for the width is the one shown. */
async function expectLaidOutFor(page: Page, route: (typeof ROUTES)[number], width: number, theme: Theme) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${route.path} is wider than the ${width} px viewport`).toBeLessThanOrEqual(0);
  expect(await overlapsInTopBar(page), `${route.path} at ${width} px`).toEqual([]);
  await saveScreenshot(page, `${route.name}-${width}-${theme}`);
  // The screenshot has shown the whole page, so lazy pictures have loaded too.
  await waitForImages(page);
  const broken = await page.evaluate(() =>
    [...document.images].filter((image) => image.naturalWidth === 0).map((image) => image.src),
  );
  expect(broken, `${route.path} has broken images`).toEqual([]);

  // The mobile bottom bar below md, the top navigation from md up.
  const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
  const mainNav = page.getByRole('navigation', { name: 'Main' });
  expect(await mobileNav.isVisible(), `mobile navigation at ${width} px`).toBe(width < 768);
  expect(await mainNav.isVisible(), `main navigation at ${width} px`).toBe(width >= 768);
  const nav = width < 768 ? mobileNav : mainNav;
  for (const label of ['Home', 'About Us', 'Services', 'Pricing', 'Guide']) {
    expect(await nav.getByRole('link', { name: label }).isVisible(), `${label} link on ${route.path}`).toBe(true);
  }
}

describe('every route', () => {
  // A page is loaded once per theme and checked at each width by resizing the window, as a phone turned
  // sideways or a desktop window dragged narrower does: what is laid out by width must follow the window,
  // not only the width the page was opened at.
  for (const theme of THEMES) {
    it(`renders without console errors at ${WIDTHS.join(', ')} px in the ${theme} theme`, async () => {
      // The OS preference says the opposite, so the stored theme is what decides.
      const { page, context, errors } = await openPage(browser(), {
        width: WIDTHS[0],
        height: 800,
        dark: theme === 'light',
      });
      try {
        await presetTheme(page, theme);
        for (const route of ROUTES) {
          await page.setViewportSize({ width: WIDTHS[0], height: 800 });
          await page.goto(`${client}${route.path}`);
          const heading = page.getByRole('heading', { level: 1 });
          await heading.waitFor();
          expect(await heading.textContent(), route.path).toBe(route.heading);
          expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), route.path).toBe(
            theme === 'dark',
          );
          // Both toggles say what they would switch to.
          await page
            .getByRole('button', { name: theme === 'dark' ? 'Switch to Light Mode' : 'Switch to Dark Mode' })
            .waitFor();
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: 800 });
            await expectLaidOutFor(page, route, width, theme);
          }
          expectNoConsoleErrors(errors, `${route.path} (${theme})`);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('opens a new page at its top, and Back returns to where the reader was', async () => {
    const { page, context, errors } = await openPage(browser(), { width: 375, height: 700 });
    try {
      await page.goto(`${client}/about`);
      await page.getByRole('heading', { name: 'Meet Our Team' }).waitFor();
      const left = await page.evaluate(() => {
        const halfway = Math.floor((document.documentElement.scrollHeight - window.innerHeight) / 2);
        window.scrollTo({ top: halfway, behavior: 'instant' });
        return halfway;
      });
      expect(left).toBeGreaterThan(300);
      await page.waitForFunction((y) => window.scrollY === y, left, { timeout: 2000 });

      await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Services' }).click();
      await page.getByRole('heading', { level: 1, name: 'Everything you need to create' }).waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'Our Vision' }).waitFor();
      await page.waitForFunction((y) => window.scrollY === y, left, { timeout: 2000 });
      expectNoConsoleErrors(errors, 'about → services → back');
    } finally {
      await context.close();
    }
  });

  it("asks for a page's own code while the app's script is still on its way", async () => {
    const html = await (await fetch(`${client}/dashboard`)).text();
    const appScript = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    expect(appScript).toBeDefined();
    const { page, context, errors } = await openPage(browser());
    let releaseApp = () => {};
    const appHeld = new Promise<void>((resolve) => (releaseApp = resolve));
    try {
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      await page.route(`${client}${appScript}`, async (route) => {
        await appHeld;
        // The page may be gone by then when the test has failed.
        await route.continue().catch(() => undefined);
      });
      const opened = page.goto(`${client}/dashboard`);
      // Held back, the app's script cannot be what asks for the dashboard's chunk: the page itself must.
      await expect
        .poll(() => requested.some((path) => /^\/assets\/dashboard-[\w-]+\.js$/.test(path)), { timeout: 15_000 })
        .toBe(true);
      releaseApp();
      await opened;
      await page.getByRole('heading', { level: 1, name: 'Creator Dashboard' }).waitFor();
      // A path named like a member of every object is no page: nothing to preload, and no error.
      await page.goto(`${client}/constructor`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expectNoConsoleErrors(errors, 'dashboard with its chunk preloaded, then /constructor');
    } finally {
      releaseApp();
      await context.close();
    }
  });

  it('shows a page opened directly in one go, never its loading spinner first', async () => {
    const { page, context, errors } = await openPage(browser());
    try {
      // Records whether the spinner that stands in for a page still loading is ever put on the page.
      await page.addInitScript(() => {
        const seen = { spinner: false };
        Object.assign(window, { seen });
        new MutationObserver(() => {
          if (document.querySelector('[role="status"]')?.textContent?.includes('Loading...')) seen.spinner = true;
        }).observe(document, { childList: true, subtree: true });
      });
      // The dashboard's own code comes well after the app's, as on a slow connection.
      await page.route(/\/assets\/dashboard-[\w-]+\.js$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await route.continue().catch(() => undefined);
      });
      await page.goto(`${client}/dashboard`);
      await page.getByRole('heading', { level: 1, name: 'Creator Dashboard' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { seen: { spinner: boolean } }).seen.spinner)).toBe(false);
      expectNoConsoleErrors(errors, 'dashboard opened directly');
    } finally {
      await context.close();
    }
  });

  it('reaches /payment from a pricing plan with the plan chosen', async () => {
    const { page, context, errors } = await openPage(browser());
    try {
      await page.goto(`${client}/pricing`);
      // Paid plans go through checkout (billing.e2e.ts); Free needs none, and /payment says so.
      await page.getByRole('article', { name: 'Free' }).getByRole('button', { name: 'Get Started' }).click();
      await page.waitForURL(`${client}/payment`);
      await page.getByText(/The Free plan needs no payment/).waitFor();
      expectNoConsoleErrors(errors, 'pricing → payment');
    } finally {
      await context.close();
    }
  });
});

afterAll(() => {
  if (SCREENSHOT_DIR === null) return;
  const lines = [
    '# Screenshots',
    '',
    'Written by the browser tests when `pnpm screenshots` runs them (a plain test run takes none): every route',
    'at 375, 768 and 1280 px wide, in the light and the dark theme (full page, JPEG), plus the signed-in dashboard with an image, a video and a speech result shown.',
    '`not-found` is an unknown route (`/no-such-page`); `payment` is opened directly, so it shows its no-plan',
    'state.',
    '',
    '| route | path | 375 px | 768 px | 1280 px |',
    '| --- | --- | --- | --- | --- |',
    ...ROUTES.map(({ name, path }) => {
      const cells = WIDTHS.map((width) =>
        THEMES.map((theme) => `[${theme}](${name}-${width}-${theme}.jpg)`).join(' · '),
      );
      return `| ${name} | \`${path}\` | ${cells.join(' | ')} |`;
    }),
    '',
    'Signed in, with results: [light](dashboard-signed-in-1280-light.jpg) · [dark](dashboard-signed-in-1280-dark.jpg)',
    '(written by `generate.e2e.ts`). Signed in on a phone, the home page: [light](home-signed-in-375-light.jpg) ·',
    '[dark](home-signed-in-375-dark.jpg) (written by `library.e2e.ts`).',
    '',
    "What a Free plan gets (made by the worker's marking, `worker/src/marking`, from a drawn scene and",
    "ffmpeg's test pattern, by `worker/scripts/mark-samples.ts`, which `pnpm screenshots` runs after the",
    'browser tests): [a marked image](free-image-watermark.png) and',
    '[a frame of a marked video](free-video-watermark-frame.png).',
    '',
  ];
  writeFileSync(resolve(SCREENSHOT_DIR, 'README.md'), lines.join('\n'));
});
