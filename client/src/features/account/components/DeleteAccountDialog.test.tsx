import { ERROR_MESSAGES } from '@mediagen/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadFakeFirebase } from '@/testing/auth-client-double';
import type { FakeFirebaseAuth } from '@/testing/fake-firebase-auth';
import { stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { DeleteAccountDialog } from './DeleteAccountDialog';

let firebase: FakeFirebaseAuth;

const fetchMock = stubFetch();
const reauthenticationRequired = () =>
  Response.json(
    { error: { code: 'REAUTHENTICATION_REQUIRED', message: ERROR_MESSAGES.REAUTHENTICATION_REQUIRED } },
    { status: 401 },
  );
const closed = () => new Response(null, { status: 204 });

beforeEach(() => {
  firebase = loadFakeFirebase();
  // Signing in again gives the browser a token with a new sign-in time.
  firebase.reauthenticate.mockImplementation(async () => {
    firebase.getIdToken.mockResolvedValue('token-of-the-new-sign-in');
  });
});

function renderDialog() {
  const onAccountClosed = vi.fn(async () => undefined);
  renderWithApp(<DeleteAccountDialog onClose={vi.fn()} onAccountClosed={onAccountClosed} />);
  return { onAccountClosed, user: userEvent.setup() };
}

async function confirmDeletion(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/to confirm/), 'delete');
  await user.click(screen.getByRole('button', { name: 'Delete account' }));
}

/** Each DELETE /api/me the dialog sent, with the token it carried. */
const closeRequests = () =>
  fetchMock.mock.calls.map(([url, init]) => ({
    url: String(url),
    method: init?.method,
    authorization: (init?.headers as Record<string, string>).Authorization,
  }));

describe('closing an account after the sign-in has grown old', () => {
  it('asks for the password, signs the user in again, and closes the account with the new token', async () => {
    fetchMock.mockResolvedValueOnce(reauthenticationRequired()).mockResolvedValueOnce(closed());
    const { user, onAccountClosed } = renderDialog();
    await confirmDeletion(user);

    const password = await screen.findByLabelText('Your password');
    expect(screen.getByText(/For your security, confirm it is you/).textContent).toContain('enter your password');
    expect(onAccountClosed).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Confirm and delete' })).toHaveProperty('disabled', true);

    await user.type(password, 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Confirm and delete' }));
    await waitFor(() => expect(onAccountClosed).toHaveBeenCalledOnce());
    expect(firebase.reauthenticate).toHaveBeenCalledWith({ method: 'password', password: 'correct horse' });
    expect(closeRequests()).toEqual([
      { url: expect.stringMatching(/\/api\/me$/), method: 'DELETE', authorization: 'Bearer test-id-token' },
      {
        url: expect.stringMatching(/\/api\/me$/),
        method: 'DELETE',
        authorization: 'Bearer token-of-the-new-sign-in',
      },
    ]);
  });

  it('a wrong password closes nothing and says so', async () => {
    fetchMock.mockResolvedValueOnce(reauthenticationRequired());
    firebase.reauthenticate.mockRejectedValueOnce(
      Object.assign(new Error('Firebase: Error (auth/wrong-password).'), { code: 'auth/wrong-password' }),
    );
    const { user, onAccountClosed } = renderDialog();
    await confirmDeletion(user);
    await user.type(await screen.findByLabelText('Your password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Confirm and delete' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password.');
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(onAccountClosed).not.toHaveBeenCalled();
  });

  it('a social account signs in with its provider again', async () => {
    firebase.reauthenticationMethod.mockResolvedValue('Google');
    fetchMock.mockResolvedValueOnce(reauthenticationRequired()).mockResolvedValueOnce(closed());
    const { user, onAccountClosed } = renderDialog();
    await confirmDeletion(user);

    await user.click(await screen.findByRole('button', { name: 'Sign in with Google and delete' }));
    await waitFor(() => expect(onAccountClosed).toHaveBeenCalledOnce());
    expect(firebase.reauthenticate).toHaveBeenCalledWith({ method: 'Google' });
    expect(screen.queryByLabelText('Your password')).toBeNull();
  });

  it('a recent sign-in closes the account at once, without asking again', async () => {
    fetchMock.mockResolvedValueOnce(closed());
    const { user, onAccountClosed } = renderDialog();
    await confirmDeletion(user);
    await waitFor(() => expect(onAccountClosed).toHaveBeenCalledOnce());
    expect(firebase.reauthenticate).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('Your password')).toBeNull();
  });
});
