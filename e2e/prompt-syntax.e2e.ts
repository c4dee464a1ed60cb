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
} from './support/app';
import { stackOfThisWorker } from './support/stack';

const { client, emulator, simulator } = stackOfThisWorker();
const PROMPT = 'mountain lake::2 AND wooden cabin::0.5 [blurry, extra fingers]';

const browser = browserForFile();

interface ReceivedImageRequest {
  textPrompts: { text: string; weight: number }[];
}

/** What the simulated Stability received for text-to-image, oldest first. */
async function receivedImageRequests(): Promise<ReceivedImageRequest[]> {
  return (await (await fetch(`${simulator}/__sim/stability/requests`)).json()) as ReceivedImageRequest[];
}

/** The parts the image panel says the prompt will be read as, and the first one's background colour. */
async function readAs(page: Page) {
  const parts = page.getByRole('region', { name: 'Image generator' }).getByRole('list', { name: 'Prompt parts' });
  await parts.waitFor();
  return {
    texts: await parts.getByRole('listitem').allTextContents(),
    background: await parts
      .getByRole('listitem')
      .first()
      .evaluate((item) => getComputedStyle(item).backgroundColor),
  };
}

describe('the Prompt Guide syntax, in the browser', () => {
  it('shows how a weighted prompt will be read, in both themes, and Stability receives its weighted parts', async () => {
    const email = uniqueEmail('syntax');
    await createUser(emulator, email);
    const { page, context, errors } = await openPage(browser());
    try {
      await presetTheme(page, 'light');
      await signInThroughLoginPage(page, client, email);
      const panel = page.getByRole('region', { name: 'Image generator' });
      const field = panel.getByLabel('Image prompt');
      await field.fill('a plain lighthouse');
      expect(await panel.getByText('Read as:').count()).toBe(0);

      await field.fill('portrait of a chef [blurry');
      await panel.getByText('Can’t read this prompt: A [ is never closed').waitFor();

      await field.fill(PROMPT);
      await panel.getByText('Read as:').waitFor();
      const light = await readAs(page);
      expect(light.texts).toEqual([
        'mountain lake weight ×2',
        'wooden cabin weight ×0.5',
        'without blurry, extra fingers weight ×1',
      ]);
      await saveScreenshot(page, 'prompt-syntax-light');
      await page.getByRole('button', { name: 'Switch to Dark Mode' }).click();
      await page.getByRole('button', { name: 'Switch to Light Mode' }).waitFor();
      const dark = await readAs(page);
      expect(dark.texts).toEqual(light.texts);
      // Each theme has its own chip colours.
      expect(dark.background).not.toBe(light.background);
      await saveScreenshot(page, 'prompt-syntax-dark');

      await panel.getByRole('button', { name: 'Generate Image' }).click();
      await panel.getByRole('img', { name: `Generated image: ${PROMPT}` }).waitFor({ timeout: 20_000 });
      const received = (await receivedImageRequests()).find((request) =>
        request.textPrompts.some((part) => part.text.startsWith('mountain lake')),
      );
      expect(received?.textPrompts).toEqual([
        { text: expect.stringMatching(/^mountain lake, highly detailed/), weight: 2 },
        { text: 'wooden cabin', weight: 0.5 },
        { text: 'blurry, extra fingers', weight: -1 },
        { text: expect.stringMatching(/^blurry, low quality/), weight: -1 },
      ]);
      expectNoConsoleErrors(errors, 'generating from a weighted prompt');
    } finally {
      await context.close();
    }
  });
});
