import type { Page } from 'playwright-core';

/**
 * Records, inside the page, every value a progress indicator shows (read on every change to the page), so
 * a rise that lasts a few hundred milliseconds is not missed between two round trips to the browser.
 */
export async function recordProgress(
  page: Page,
  read: 'bar' | 'text',
  kind: 'image' | 'video' | 'speech',
): Promise<() => Promise<number[]>> {
  const key = `__progress_${read}_${kind}`;
  await page.evaluate(
    ({ key, read, kind }) => {
      const seen: number[] = [];
      const store = window as unknown as Record<string, unknown>;
      store[key] = seen;
      const sample = () => {
        let value: number | undefined;
        if (read === 'bar') {
          const bar = document.querySelector(`[role="progressbar"][aria-label="${kind} generation progress"]`);
          const now = bar?.getAttribute('aria-valuenow');
          if (now != null) value = Number(now);
        } else {
          const match = new RegExp(`Generating ${kind}\\.\\.\\. (\\d+)%`).exec(document.body.innerText);
          if (match) value = Number(match[1]);
        }
        if (value !== undefined && seen.at(-1) !== value) seen.push(value);
      };
      // On each change rather than each animation frame: reading the page's text 60 times a second lays it
      // out every time, and no value can show without a change to the page.
      const observer = new MutationObserver(() => {
        if (store[key] === seen) sample();
        else observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      sample();
    },
    { key, read, kind },
  );
  return () =>
    page.evaluate((key) => {
      const store = window as unknown as Record<string, unknown>;
      const seen = store[key] as number[];
      delete store[key];
      return seen;
    }, key);
}
