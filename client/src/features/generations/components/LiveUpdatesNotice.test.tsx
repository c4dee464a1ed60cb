import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLiveConnectionStore } from '../stores/live-connection-store';
import { LiveUpdatesNotice } from './LiveUpdatesNotice';

afterEach(() => useLiveConnectionStore.getState().set('off'));

describe('the live updates notice', () => {
  it('is an empty status region while live, says it is reconnecting when updates drop, and empties once back', () => {
    useLiveConnectionStore.getState().set('live');
    render(<LiveUpdatesNotice />);
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');

    act(() => useLiveConnectionStore.getState().set('reconnecting'));
    expect(region.textContent).toBe('Live updates dropped. Reconnecting…');

    act(() => useLiveConnectionStore.getState().set('live'));
    expect(region.textContent).toBe('');
  });
});
