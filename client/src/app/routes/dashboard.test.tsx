import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useGenerationsStore } from '@/features/generations/stores/generations-store';
import { useAuthStore } from '@/stores/auth-store';
import { loadFakeFirebase } from '@/testing/auth-client-double';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { buildGeneration } from '@/testing/generation-factory';
import { renderWithApp } from '@/testing/render';
import { DashboardPage } from './dashboard';

// Signed in, the page opens its live updates: a socket on which the server stays silent.
vi.mock('socket.io-client', async () => {
  const { createFakeSocketServer } = await import('@/testing/fake-socket');
  return { io: createFakeSocketServer().io };
});

const fetchMock = stubFetch();
const submissions = () =>
  fetchMock.mock.calls.filter(([input, init]) => String(input).endsWith('/api/generations') && init?.method === 'POST');

beforeEach(() => {
  loadFakeFirebase();
  useAuthStore.getState().signedOut();
  useGenerationsStore.getState().cleared();
  fetchMock.mockImplementation(async (input, init) => {
    const { pathname } = new URL(String(input));
    if (pathname !== '/api/generations') return jsonAnswer(404, {});
    return init?.method === 'POST'
      ? jsonAnswer(202, buildGeneration({ kind: 'image', prompt: 'a lighthouse at dusk' }))
      : jsonAnswer(200, { items: [], nextCursor: null });
  });
});

async function openSignInFromGenerate() {
  const user = userEvent.setup();
  renderWithApp(<DashboardPage />, { route: '/dashboard' });
  await user.type(screen.getByLabelText('Image prompt'), 'a lighthouse at dusk');
  await user.click(screen.getByRole('button', { name: 'Generate Image' }));
  const dialog = await screen.findByRole('dialog', { name: 'Sign in to continue' });
  return { user, dialog };
}

describe('signing in from the dialog a Generate click opened', () => {
  it('goes ahead with the generation the creator asked for', async () => {
    const { user, dialog } = await openSignInFromGenerate();
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    await vi.waitFor(() => expect(submissions()).toHaveLength(1));
    const [, init] = submissions()[0]!;
    expect(JSON.parse(String(init?.body))).toMatchObject({ kind: 'image', prompt: 'a lighthouse at dusk' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('generates nothing when the creator closes the dialog instead', async () => {
    const { user, dialog } = await openSignInFromGenerate();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    // Signing in some other way later is not a yes to the click they walked away from.
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    const again = await screen.findByRole('dialog', { name: 'Sign in to continue' });
    await user.click(within(again).getByRole('button', { name: 'Close' }));
    useAuthStore.getState().signedIn('ada@example.com');
    await screen.findByPlaceholderText('Describe the image you want to generate...');
    expect(submissions()).toHaveLength(0);
  });
});
