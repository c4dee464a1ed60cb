import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, type RouteObject } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/stores/auth-store';
import { useThemeStore } from '@/stores/theme-store';
import { getIdToken, loadFirebaseAuth } from '@/testing/auth-client-double';
import { AppRoutes, appRoutes } from './router';

function Boom(): never {
  throw new Error('Kaboom');
}

function renderAt(path: string, extraRoutes: RouteObject[] = []) {
  const [root] = appRoutes;
  const routes = [{ ...root, children: [...extraRoutes, ...(root?.children ?? [])] }] as RouteObject[];
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes routes={routes} />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  useAuthStore.getState().signedOut();
  useThemeStore.setState({ isDark: false });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  getIdToken.mockReturnValue(new Promise(() => undefined));
});

describe('app routes', () => {
  it('shows the landing page with the logo and the five navigation links', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Transform Your Ideas Into Reality' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'MediaGen home' })).toBeDefined();
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect([...main.querySelectorAll('a')].map((link) => link.textContent)).toEqual([
      'Home',
      'About Us',
      'Services',
      'Pricing',
      'Guide',
    ]);
    expect(screen.getByRole('button', { name: 'Start Creating' })).toBeDefined();
  });

  it('links no team member to a LinkedIn page they do not have', async () => {
    renderAt('/about');
    expect(await screen.findByRole('heading', { name: 'Sofia Lindqvist' })).toBeDefined();
    expect(screen.queryAllByRole('link', { name: /on LinkedIn$/ })).toEqual([]);
    expect(document.querySelector('a[href="https://www.linkedin.com/"]')).toBeNull();
  });

  it('shows the logo on the home page only', async () => {
    renderAt('/about');
    expect(await screen.findByRole('heading', { name: 'Meet Our Team' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'MediaGen home' })).toBeNull();
  });

  it('offers Dashboard, Logout and the Library once signed in', () => {
    useAuthStore.getState().signedIn('ada@example.com');
    renderAt('/');
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeDefined();
    for (const bar of ['Main', 'Mobile']) {
      const nav = screen.getByRole('navigation', { name: bar });
      expect(within(nav).getByRole('link', { name: 'Library' }).getAttribute('href')).toBe('/library');
    }
  });

  it("opens 'Start Creating' on the sign-up form for a first visit", async () => {
    localStorage.removeItem('signed-in-before');
    const user = renderAt('/');
    await user.click(screen.getByRole('button', { name: 'Start Creating' }));
    expect(await screen.findByRole('dialog', { name: 'Create Account' })).toBeDefined();
  });

  it("opens 'Start Creating' on the sign-in form for a browser that signed in before", async () => {
    localStorage.setItem('signed-in-before', '1');
    const user = renderAt('/');
    await user.click(screen.getByRole('button', { name: 'Start Creating' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(within(dialog).getByRole('button', { name: 'Create account' })).toBeDefined();
    localStorage.removeItem('signed-in-before');
  });

  it('offers to create an account on the Login page', async () => {
    const user = renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
  });

  it('links the signed-out library to the sign-up form', async () => {
    renderAt('/library');
    const create = await screen.findByRole('link', { name: 'Create account' });
    expect(create.getAttribute('href')).toBe('/login?mode=sign-up');
  });

  it('titles the theme toggle after what it does', async () => {
    const user = renderAt('/');
    const toggle = screen.getByRole('button', { name: 'Switch to Dark Mode' });
    expect(toggle.getAttribute('title')).toBe('Switch to Dark Mode');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Switch to Light Mode' })).toBeDefined();
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });

  it("shows the guide's formulas, techniques and keyword groups, each part a named region", async () => {
    renderAt('/guide');
    expect(await screen.findByRole('heading', { level: 1, name: 'Prompt Guide' })).toBeDefined();
    const cardTitles = (region: string) =>
      within(screen.getByRole('region', { name: region }))
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent);
    expect(cardTitles('Prompt formulas')).toEqual(['Image prompt formula', 'Video prompt formula']);
    expect(cardTitles('Advanced techniques')).toEqual([
      'Weighted prompts',
      'Negative prompts',
      'Style mixing',
      'Sequential prompting',
    ]);
    expect(cardTitles('Optimization keywords')).toEqual([
      'Quality boosters',
      'Composition control',
      'Mood enhancement',
    ]);
    expect(screen.getByText('mountain lake::2 cabin::1 fog::0.5')).toBeDefined();
  });

  it('answers an unknown route with a 404 page', async () => {
    renderAt('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeDefined();
  });

  it('says in plain words that a page failed and offers a reload, until the visitor goes elsewhere', async () => {
    const consoleError = vi.mocked(console.error);
    const user = renderAt('/boom', [{ path: '/boom', element: <Boom /> }]);
    expect(screen.getByRole('heading', { name: 'Something went wrong.' })).toBeDefined();
    expect(screen.getByText('Reload to get the latest version.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeDefined();
    expect(document.title).toContain('Unexpected Application Error!');
    // The raw error is for developers: the console has it, the page does not.
    expect(screen.queryByText('Kaboom')).toBeNull();
    expect(consoleError).toHaveBeenCalledWith(
      'A page failed to render',
      expect.objectContaining({ message: 'Kaboom' }),
    );
    expect(screen.getByRole('button', { name: 'Switch to Dark Mode' })).toBeDefined();

    await user.click(screen.getByRole('link', { name: 'Go home' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Transform Your Ideas Into Reality' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Something went wrong.' })).toBeNull();
  });

  it('shows the dashboard to visitors with sign-in prompts', async () => {
    renderAt('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Creator Dashboard' })).toBeDefined();
    expect(screen.getAllByRole('button', { name: 'Sign in to Generate' })).toHaveLength(2);
    expect(screen.getByText('© 2024 MediaGen. All rights reserved.')).toBeDefined();
    // The sign-in SDK (32 KB gzip) waits until the visitor asks to sign in.
    expect(loadFirebaseAuth).not.toHaveBeenCalled();
  });

  it('opens the policies from the dashboard footer and closes them on a backdrop click', async () => {
    const user = renderAt('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Terms of Use' }));
    const dialog = screen.getByRole('dialog', { name: 'Terms of Use' });
    expect(dialog.textContent).toMatch(/non-commercial/);
    expect(dialog.textContent).toMatch(/API access/);
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the sign-in dialog when a visitor tries to generate', async () => {
    const user = renderAt('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByRole('dialog', { name: 'Sign in to continue' })).toBeDefined();
    // The form starts the download once it is on screen (an effect, which may run just after it shows).
    await vi.waitFor(() => expect(loadFirebaseAuth).toHaveBeenCalled());
  });
});
