import { describe, expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import { createUser, expectNoConsoleErrors, signInThroughLoginPage, uniqueEmail } from './support/app';
import { stackOfThisWorker } from './support/stack';

const { client, emulator } = stackOfThisWorker();
const PROJECT_ID = 'demo-mediagen';

const browser = browserForFile();

/** The out-of-band code the Auth emulator "sent" to `email` for `requestType`, as its REST API lists them. */
async function emailedCode(email: string, requestType: 'PASSWORD_RESET' | 'VERIFY_EMAIL'): Promise<string> {
  const response = await fetch(`http://${emulator}/emulator/v1/projects/${PROJECT_ID}/oobCodes`);
  const { oobCodes } = (await response.json()) as {
    oobCodes: { email: string; requestType: string; oobCode: string }[];
  };
  const found = oobCodes.filter((code) => code.email === email && code.requestType === requestType).at(-1);
  if (found === undefined) throw new Error(`no ${requestType} email for ${email}`);
  return found.oobCode;
}

describe('account basics', () => {
  it('"Forgot password?" sends a reset link; the link sets a new password that signs in', async () => {
    const email = uniqueEmail('reset');
    await createUser(emulator, email);
    const { page, context, errors } = await openPage(browser());
    try {
      await page.goto(`${client}/login`);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      // The address typed so far is kept.
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText(`If an account uses ${email}, a link to choose a new password is on its way.`).waitFor();
      // The same answer for an address with no account: the form tells no one who has one.
      await page.getByLabel('Email').fill(uniqueEmail('nobody'));
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText(/a link to choose a new password is on its way/).waitFor();

      const code = await emailedCode(email, 'PASSWORD_RESET');
      await page.goto(`${client}/auth/action?mode=resetPassword&oobCode=${code}`);
      await page.getByText(`For ${email}`).waitFor();
      await page.getByLabel('New password').fill('a-brand-new-pass');
      await page.getByRole('button', { name: 'Save password' }).click();
      await page.getByText('Your password is changed. Sign in with the new one.').waitFor();
      // A code works once.
      await page.goto(`${client}/auth/action?mode=resetPassword&oobCode=${code}`);
      await page.getByText('This link is invalid or has expired. Ask for a new one.').waitFor();

      await signInThroughLoginPage(page, client, email, 'a-brand-new-pass');
      // An expired or used link is the only console noise allowed: Firebase logs the refused code.
      expectNoConsoleErrors(
        errors.filter((error) => !/400|INVALID_OOB_CODE/.test(error)),
        'password reset',
      );
    } finally {
      await context.close();
    }
  });

  it('the account menu offers email verification, and shows it once the link is opened', async () => {
    const email = uniqueEmail('verify');
    await createUser(emulator, email);
    const { page, context, errors } = await openPage(browser());
    try {
      await signInThroughLoginPage(page, client, email);
      await page.getByRole('button', { name: 'Account', exact: true }).click();
      await page.getByText('Email not verified').waitFor();
      await page.getByRole('button', { name: 'Send verification email' }).click();
      await page.getByText(`A verification link is on its way to ${email}`).waitFor();

      const code = await emailedCode(email, 'VERIFY_EMAIL');
      await page.goto(`${client}/auth/action?mode=verifyEmail&oobCode=${code}`);
      await page.getByText('Your email is verified.').waitFor();
      await page.getByRole('link', { name: 'Go to the dashboard' }).click();
      await page.getByRole('button', { name: 'Account', exact: true }).click();
      await page.getByText('Email verified').waitFor();
      expectNoConsoleErrors(errors, 'email verification');
    } finally {
      await context.close();
    }
  });
});
