import { describe, expect, it } from 'vitest';
import { browserForFile, openPage } from './support/browser';
import { expectNoConsoleErrors, PASSWORD, uniqueEmail } from './support/app';
import { stackOfThisWorker } from './support/stack';

const { client } = stackOfThisWorker();
const browser = browserForFile();

describe('signing up', () => {
  it("goes from 'Start Creating' through the sign-up modal to the dashboard with a welcome toast", async () => {
    const { page, context, errors } = await openPage(browser());
    try {
      await page.goto(client);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Transform Your Ideas Into Reality',
      );
      await page.getByRole('button', { name: 'Start Creating' }).click();

      // A first visit opens on the sign-up form.
      const dialog = page.getByRole('dialog', { name: 'Create Account' });
      await dialog.waitFor();

      // The 6-character rule is checked before anything is sent.
      const email = uniqueEmail('signup');
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByLabel('Password').fill('12345');
      await dialog.getByRole('button', { name: 'Sign Up' }).click();
      await dialog.getByRole('alert').getByText('Password must be at least 6 characters long').waitFor();

      await dialog.getByLabel('Password').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Sign Up' }).click();

      await page.waitForURL(`${client}/dashboard`);
      await page.getByText('Account created successfully!').waitFor();
      await page
        .getByText(
          'Welcome! You have 1 image, 1 video and 2 speech tokens remaining on the Free plan, which renews them every 30 days.',
        )
        .waitFor();
      expect(await dialog.count()).toBe(0);

      // Signed in: the top bar offers the dashboard and logout, and the panels accept prompts.
      await page.getByRole('button', { name: 'Logout' }).waitFor();
      await page.getByPlaceholder('Describe the image you want to generate...').waitFor();
      await page.getByRole('region', { name: 'Remaining tokens' }).getByText('Speech 2/2').waitFor();
      const session = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? 'null'));
      expect(session.state).toMatchObject({ isAuthenticated: true, email, hasShownWelcome: true });

      // Logout returns home with its toast; the welcome toast, still showing, must not cover the button.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByText('Successfully logged out').waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.getByRole('link', { name: 'Sign In' }).waitFor();
      expectNoConsoleErrors(errors, 'sign-up flow');
    } finally {
      await context.close();
    }
  });

  it('tells a second sign-up with the same address to sign in instead', async () => {
    const { page, context } = await openPage(browser());
    try {
      const email = uniqueEmail('dup');
      for (const attempt of [1, 2]) {
        await page.goto(client);
        await page.evaluate(() => localStorage.removeItem('auth-storage'));
        await page.reload();
        await page.getByRole('button', { name: 'Start Creating' }).click();
        // The second time this browser has signed in before, so the dialog opens on the sign-in form.
        if (attempt === 2) await page.getByRole('button', { name: 'Create account' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create Account' });
        await dialog.getByLabel('Email').fill(email);
        await dialog.getByLabel('Password').fill(PASSWORD);
        await dialog.getByRole('button', { name: 'Sign Up' }).click();
        if (attempt === 1) {
          await page.waitForURL(`${client}/dashboard`);
          await page.getByRole('button', { name: 'Logout' }).click();
          await page.getByText('Successfully logged out').waitFor();
        } else {
          await page.getByText('This email is already registered. Please sign in instead.').waitFor();
          expect(new URL(page.url()).pathname).toBe('/');
        }
      }
    } finally {
      await context.close();
    }
  });
});

describe('a new visitor on the Login page', () => {
  it('creates an account there, then finds the Library in the top bar and in the mobile bar at 375 px', async () => {
    const { page, context, errors } = await openPage(browser(), { width: 375, height: 800 });
    /** Nothing sticks out of the page or of the top bar's row (a squeezed button would overflow the row). */
    const expectNothingOverflows = async (where: string) => {
      const overflow = await page.evaluate(() => {
        const row = document.querySelector('header > div')!;
        return {
          page: document.documentElement.scrollWidth - window.innerWidth,
          topBar: row.scrollWidth - row.clientWidth,
        };
      });
      expect(overflow, where).toEqual({ page: 0, topBar: 0 });
    };
    try {
      // Signed out, the top bar offers both ways in, and they fit on a phone.
      await page.goto(client);
      await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).waitFor();
      await expectNothingOverflows('signed-out home at 375 px');

      await page.goto(`${client}/login`);
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      const email = uniqueEmail('login-signup');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create Account', exact: true }).click();
      await page.waitForURL(`${client}/dashboard`);
      await page.getByText('Account created successfully!').waitFor();

      // On a phone the bottom bar names the Library, and the top bar still fits.
      const mobileLibrary = page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Library' });
      expect(await mobileLibrary.isVisible()).toBe(true);
      await expectNothingOverflows('signed-in dashboard at 375 px');

      // From md up the top bar names it, beside Dashboard, Logout and the account menu.
      for (const width of [768, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        const topLibrary = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' });
        expect(await topLibrary.isVisible(), `Library link at ${width} px`).toBe(true);
        await expectNothingOverflows(`signed-in dashboard at ${width} px`);
      }
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click();
      await page.getByRole('heading', { name: 'Your Library' }).waitFor();
      expectNoConsoleErrors(errors, 'sign-up on the Login page');
    } finally {
      await context.close();
    }
  });
});

describe('a signed-out visitor on the dashboard', () => {
  it('sees the signed-out placeholders, and generating opens the sign-in dialog', async () => {
    const { page, context, errors } = await openPage(browser());
    try {
      await page.goto(`${client}/dashboard`);
      await page.getByRole('heading', { name: 'Creator Dashboard' }).waitFor();
      await page.getByText('Sign in to generate images, videos and speech.').waitFor();

      expect(await page.getByLabel('Image prompt').getAttribute('placeholder')).toBe(
        'Please sign in to generate images',
      );
      expect(await page.getByLabel('Video prompt').getAttribute('placeholder')).toBe(
        'Please sign in to generate videos',
      );
      const speechText = page.getByLabel('Text to speak');
      expect(await speechText.getAttribute('placeholder')).toBe('Please sign in to generate speech');
      expect(await speechText.isDisabled()).toBe(true);
      // Video and speech read 'Sign in to Generate'; signed out, all three are the way in, not drawn disabled.
      const signInButtons = page.getByRole('button', { name: 'Sign in to Generate' });
      expect(await signInButtons.count()).toBe(2);
      const imageButton = page.getByRole('button', { name: 'Generate Image' });
      expect(await imageButton.isEnabled()).toBe(true);
      expect(await imageButton.evaluate((button) => getComputedStyle(button).opacity)).toBe('1');
      expect(await imageButton.evaluate((button) => getComputedStyle(button).cursor)).not.toBe('not-allowed');

      // The policy links are finger-sized (they were about 20 px tall).
      const policyLink = page
        .getByRole('navigation', { name: 'Policies' })
        .getByRole('button', { name: 'Privacy Policy' });
      expect((await policyLink.boundingBox())!.height).toBeGreaterThanOrEqual(44);

      await imageButton.click();
      const dialog = page.getByRole('dialog', { name: 'Sign in to continue' });
      await dialog.waitFor();
      // It offers to create an account too, and closes on a backdrop click.
      expect(await dialog.getByRole('button', { name: 'Create account' }).count()).toBe(1);
      await page.getByTestId('modal-backdrop').click({ position: { x: 5, y: 5 } });
      await dialog.waitFor({ state: 'detached' });

      await page
        .getByRole('region', { name: 'Video generator' })
        .getByRole('button', { name: 'Sign in to Generate' })
        .click({ force: true });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page
        .getByRole('region', { name: 'Speech generator' })
        .getByRole('button', { name: 'Sign in to Generate' })
        .click({ force: true });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expectNoConsoleErrors(errors, 'signed-out dashboard');
    } finally {
      await context.close();
    }
  });
});

describe('the theme', () => {
  it('survives a reload once toggled', async () => {
    const { page, context, errors } = await openPage(browser());
    try {
      await page.goto(`${client}/about`);
      const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
      expect(await isDark()).toBe(false);
      await page.getByRole('button', { name: 'Switch to Dark Mode' }).click();
      expect(await isDark()).toBe(true);
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const darkBackground = await background();

      await page.reload();
      await page.getByRole('button', { name: 'Switch to Light Mode' }).waitFor();
      expect(await isDark()).toBe(true);
      expect(await background()).toBe(darkBackground);
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('theme-storage') ?? 'null'));
      expect(stored.state).toEqual({ isDark: true });

      await page.getByRole('button', { name: 'Switch to Light Mode' }).click();
      await page.reload();
      await page.getByRole('button', { name: 'Switch to Dark Mode' }).waitFor();
      expect(await isDark()).toBe(false);
      expect(await background()).not.toBe(darkBackground);
      expectNoConsoleErrors(errors, 'theme toggle');
    } finally {
      await context.close();
    }
  });
});
