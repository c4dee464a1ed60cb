import { act, fireEvent, render, screen } from '@testing-library/react';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from './notify';

/** jsdom's page is hidden unless told otherwise; a creator's is on screen. */
let pageHidden = false;

beforeEach(() => {
  pageHidden = false;
  vi.spyOn(document, 'hidden', 'get').mockImplementation(() => pageHidden);
});

afterEach(() => {
  toast.dismiss();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Shows a toast on a real Toaster, then latches the toaster open as a pointer that never leaves would. */
async function latchedToast(text: string, duration?: number) {
  vi.useFakeTimers();
  render(<Toaster duration={3000} />);
  notify.message(text, duration === undefined ? {} : { duration });
  // vi.waitFor moves the fake clock by its interval at each try: the toast's time starts when it shows.
  const shown = await vi.waitFor(() => screen.getByText(text));
  const toaster = shown.closest('[data-sonner-toaster]');
  if (toaster === null) throw new Error('no toaster around the toast');
  fireEvent.mouseMove(toaster);
  return shown;
}

/** Time passes in steps, letting React commit between them as it would between frames. */
async function waitMs(ms: number) {
  for (let passed = 0; passed < ms; passed += 100) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
  }
}

describe('a toast nobody is reading', () => {
  it('goes soon after its time though the toaster latched open', async () => {
    await latchedToast('Saved');
    await waitMs(3500);
    expect(screen.queryByText('Saved')).not.toBeNull();
    await waitMs(2000);
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('keeps its own longer time', async () => {
    await latchedToast('Your free tokens are over.', 5000);
    await waitMs(5500);
    expect(screen.queryByText('Your free tokens are over.')).not.toBeNull();
    await waitMs(2000);
    expect(screen.queryByText('Your free tokens are over.')).toBeNull();
  });

  it('stays while focus is in the toasts, and goes once it leaves', async () => {
    const shown = await latchedToast('Prompt copied');
    const close = shown.closest('li')?.querySelector('button');
    await act(async () => {
      (close ?? shown.closest('li'))?.focus();
    });
    await waitMs(10_000);
    expect(screen.queryByText('Prompt copied')).not.toBeNull();
    await act(async () => {
      (document.activeElement as HTMLElement | null)?.blur();
    });
    await waitMs(2500);
    expect(screen.queryByText('Prompt copied')).toBeNull();
  });

  it('waits while the page is hidden: nobody has seen it yet', async () => {
    await latchedToast('Image generated successfully!');
    pageHidden = true;
    await waitMs(10_000);
    expect(screen.queryByText('Image generated successfully!')).not.toBeNull();
    pageHidden = false;
    await waitMs(2500);
    expect(screen.queryByText('Image generated successfully!')).toBeNull();
  });
});
