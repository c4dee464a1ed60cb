import { describe, expect, it } from 'vitest';
import { stackOfThisWorker } from './support/stack';
import { browserForFile, openPage } from './support/browser';
import { expectNoConsoleErrors } from './support/app';

const { api } = stackOfThisWorker();
const browser = browserForFile();

describe('the API reference page', () => {
  it('renders the published description under its own Content-Security-Policy, with nothing refused', async () => {
    const { page, context, errors } = await openPage(browser());
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(api) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    try {
      await page.goto(`${api}/api/docs`);
      // A CSP refusal is a console error, so a page that renders with none loaded everything it needed.
      await page.getByText('Submit a generation').first().waitFor();
      await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(10);
      // An operation opened shows its parameters, answers and the shared schemas.
      await page.getByText('Submit a generation').first().click();
      await page.getByText('Prefer: wait').first().waitFor();
      await page.locator('.models').scrollIntoViewIfNeeded();
      expect(outside).toEqual([]);
      expectNoConsoleErrors(errors, '/api/docs');
    } finally {
      await context.close();
    }
  });
});
