import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { App } from './App';

vi.mock('@/lib/auth-client', () => ({
  loadFirebaseAuth: () => new Promise(() => undefined),
  getIdToken: () => new Promise(() => undefined),
}));

describe('App', () => {
  it('mounts the toaster after the first paint and shows toasts at the top right', async () => {
    // jsdom has no scrolling; the router's ScrollRestoration calls it.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: 'Transform Your Ideas Into Reality' })).toBeDefined();
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull();
    expect(await screen.findByRole('region', { name: /Notifications/ })).toBeDefined();

    act(() => void notify.success('Saved!'));
    const toast = await screen.findByText('Saved!');
    const toaster = toast.closest('[data-sonner-toaster]');
    expect(toaster?.getAttribute('data-y-position')).toBe('top');
    expect(toaster?.getAttribute('data-x-position')).toBe('right');
  });
});
