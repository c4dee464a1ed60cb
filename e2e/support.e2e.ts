import { describe, expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import { PASSWORD, expectNoConsoleErrors, presetTheme, uniqueEmail } from './support/app';
import { stackOfThisWorker } from './support/stack';

const { client, api, emulator } = stackOfThisWorker();
const PROJECT_ID = 'demo-mediagen';

const browser = browserForFile();

/**
 * An account with the `admin` custom claim, made straight on the Auth emulator (its REST API takes the
 * project owner's word, as the Admin SDK's `setCustomUserClaims` does): the admin check reads the claim
 * from the account.
 */
async function createAdmin(email: string): Promise<void> {
  const signUp = await fetch(`http://${emulator}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  const { localId } = (await signUp.json()) as { localId: string };
  const update = await fetch(
    `http://${emulator}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:update`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ localId, customAttributes: JSON.stringify({ admin: true }) }),
    },
  );
  if (!update.ok) throw new Error(`setting the admin claim failed: ${update.status} ${await update.text()}`);
}

describe('reaching us (issue 37)', () => {
  it('a signed-out visitor sends the support form from a plan’s promise; an admin sees it and marks it answered', async () => {
    const visitor = uniqueEmail('support');
    const message = `My video stopped at 40% <b>twice</b> (${visitor})`;
    const { page, context, errors } = await openPage(browser(), { width: 375, height: 800, dark: true });
    try {
      await presetTheme(page, 'dark');
      // The Free plan's support line is a promise: it leads to the form.
      await page.goto(`${client}/pricing`);
      await page.getByRole('article', { name: 'Free' }).getByRole('link', { name: 'Support form' }).click();
      await page.waitForURL(`${client}/support`);
      await page.getByRole('heading', { level: 1, name: 'Contact support' }).waitFor();

      await page.getByLabel('Your email').fill(visitor);
      await page.getByLabel('Topic').selectOption({ label: 'A generation went wrong' });
      await page.getByLabel('Message').fill(message);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'the support form is wider than 375 px').toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'Send message' }).click();
      const thanks = page.getByRole('status').filter({ hasText: 'Your request number is' });
      const id = /#(\d+)/.exec((await thanks.textContent()) ?? '')?.[1];
      expect(id).toBeDefined();
      expect(await thanks.textContent()).toContain(`We will reply by email to ${visitor}.`);
      expectNoConsoleErrors(errors, '/support');
    } finally {
      await context.close();
    }

    const adminEmail = uniqueEmail('support-admin');
    await createAdmin(adminEmail);
    const operator = await openPage(browser());
    try {
      const { page: admin } = operator;
      await admin.goto(`${api}/admin`);
      await admin.getByText('Sign in as an administrator to see support requests.').waitFor();
      await admin.getByPlaceholder('email').fill(adminEmail);
      await admin.getByPlaceholder('password').fill(PASSWORD);
      await admin.getByRole('button', { name: 'Sign in', exact: true }).click();

      const request = admin.getByRole('article').filter({ hasText: visitor });
      await request.waitFor();
      // What the visitor wrote is text on the page, never markup.
      expect(await request.getByText(message).count()).toBe(1);
      expect(await request.locator('b').count()).toBe(0);
      await request.getByLabel(/Reply to/).fill('Thanks: it is fixed, please try again.');
      await request.getByRole('button', { name: 'Mark answered' }).click();
      await request.getByText(/^Answered .* by /).waitFor();
      await request.getByText('Thanks: it is fixed, please try again.').waitFor();

      // Answered, it leaves the open list.
      await admin.reload();
      await admin.getByText('No open support requests.').waitFor();
      // Signed out, the page asks for the list and is refused (401): that is how it knows to say so. And
      // the API server has no favicon (404). Chromium logs both; anything else is a fault.
      const expected = /^Failed to load resource: the server responded with a status of (401|404) /;
      expectNoConsoleErrors(
        operator.errors.filter((error) => !expected.test(error)),
        '/admin',
      );
    } finally {
      await operator.context.close();
    }
  });
});
