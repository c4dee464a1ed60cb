import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { getIdToken } from '@/testing/auth-client-double';
import { App } from './App';

beforeEach(() => {
  getIdToken.mockReturnValue(new Promise(() => undefined));
});

describe('App', () => {
  it('fetches the toaster at the first key or pointer press, not for a visitor who only reads', async () => {
    // jsdom has no scrolling; the layout's scroll restoration calls it.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: 'Transform Your Ideas Into Reality' })).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull();

    fireEvent.keyDown(window, { key: 'Tab' });
    expect(await screen.findByRole('region', { name: /Notifications/ })).toBeDefined();
    cleanup();
  });

  it('mounts the toaster when a toast asks for it, and shows toasts at the top right', async () => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(<App />);
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull();

    act(() => void notify.success('Saved!'));
    const toast = await screen.findByText('Saved!');
    const toaster = toast.closest('[data-sonner-toaster]');
    expect(toaster?.getAttribute('data-y-position')).toBe('top');
    expect(toaster?.getAttribute('data-x-position')).toBe('right');
  });
});
