import { AUTH_MESSAGES } from '@mediagen/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/stores/auth-store';
import { loadFakeFirebase } from '@/testing/auth-client-double';
import { deferred, type FakeFirebaseAuth } from '@/testing/fake-firebase-auth';
import { renderWithApp } from '@/testing/render';
import type { CredentialMode } from '../hooks/use-credential-sign-in';
import { AuthModal, type AuthModalVariant } from './AuthModal';

let firebase: FakeFirebaseAuth;

beforeEach(() => {
  firebase = loadFakeFirebase();
  useAuthStore.getState().signedOut();
});

function renderModal(variant: AuthModalVariant, initialMode?: CredentialMode) {
  const onClose = vi.fn();
  const onSignedIn = vi.fn();
  renderWithApp(<AuthModal variant={variant} initialMode={initialMode} onClose={onClose} onSignedIn={onSignedIn} />);
  const dialog = screen.getByRole('dialog');
  return { onClose, onSignedIn, dialog, user: userEvent.setup() };
}

const email = () => screen.getByLabelText('Email');
const password = () => screen.getByLabelText('Password');

describe('sign-in/sign-up modal', () => {
  it('asks for both fields', async () => {
    const { user, dialog } = renderModal('sign-in-or-up');
    await user.type(email(), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert').textContent).toBe(AUTH_MESSAGES.fillAllFields);
    expect(firebase.signInWithEmail).not.toHaveBeenCalled();
  });

  it('requires a password of at least 6 characters', async () => {
    const { user, dialog } = renderModal('sign-in-or-up');
    await user.type(email(), 'ada@example.com');
    await user.type(password(), '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert').textContent).toBe('Password must be at least 6 characters long');
  });

  it('opens on the sign-up form when asked to', () => {
    const { dialog } = renderModal('sign-in-or-up', 'sign-up');
    expect(screen.getByRole('dialog', { name: 'Create Account' })).toBe(dialog);
    expect(within(dialog).getByRole('button', { name: 'Sign in instead' })).toBeDefined();
  });

  it('uses an email input', () => {
    renderModal('sign-in-or-up');
    expect(email()).toHaveProperty('type', 'email');
  });

  it('clears both fields when switching between sign-in and sign-up', async () => {
    const { user, dialog } = renderModal('sign-in-or-up');
    await user.type(email(), 'ada@example.com');
    await user.type(password(), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(within(dialog).getByRole('heading', { name: 'Create Account' })).toBeDefined();
    expect(email()).toHaveProperty('value', '');
    expect(password()).toHaveProperty('value', '');
    await user.type(email(), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in instead' }));
    expect(email()).toHaveProperty('value', '');
  });

  it("reads 'Processing...' and is disabled while busy, then signs in", async () => {
    const pending = deferred<string>();
    firebase.signInWithEmail.mockReturnValueOnce(pending.promise);
    const { user, dialog, onSignedIn } = renderModal('sign-in-or-up');
    await user.type(email(), 'ada@example.com');
    await user.type(password(), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    const busy = within(dialog).getByRole('button', { name: 'Processing...' });
    expect(busy).toHaveProperty('disabled', true);

    pending.resolve('ada@example.com');
    expect(await screen.findByText(AUTH_MESSAGES.signedIn)).toBeDefined();
    expect(onSignedIn).toHaveBeenCalledOnce();
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, email: 'ada@example.com' });
  });

  it('creates an account in sign-up mode', async () => {
    const { user, dialog } = renderModal('sign-in-or-up');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));
    await user.type(email(), 'new@example.com');
    await user.type(password(), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(AUTH_MESSAGES.accountCreated)).toBeDefined();
    expect(firebase.signUpWithEmail).toHaveBeenCalledWith('new@example.com', 'secret1');
  });

  it("shows the catalogue's message for a provider error", async () => {
    firebase.signUpWithEmail.mockRejectedValueOnce({
      code: 'auth/email-already-in-use',
      message: 'Firebase: Error',
    });
    const { user, dialog, onSignedIn } = renderModal('sign-in-or-up');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));
    await user.type(email(), 'ada@example.com');
    await user.type(password(), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    // Said in the dialog, not by a toast over it.
    expect((await within(dialog).findByRole('alert')).textContent).toBe(AUTH_MESSAGES.emailInUse);
    expect(screen.getAllByText(AUTH_MESSAGES.emailInUse)).toHaveLength(1);
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('closes with its close button or Escape, not with a backdrop click', async () => {
    const { user, onClose } = renderModal('sign-in-or-up');
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('is a modal dialog that takes focus', () => {
    const { dialog } = renderModal('sign-in-or-up');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(email());
  });

  it('signs in with Google', async () => {
    const { user, onSignedIn } = renderModal('sign-in-or-up');
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByText('Successfully signed in with Google!')).toBeDefined();
    expect(firebase.signInWithProvider).toHaveBeenCalledWith('Google');
    expect(onSignedIn).toHaveBeenCalledOnce();
  });

  it('says a blocked popup in the dialog, and clears it on the next try', async () => {
    firebase.signInWithProvider.mockRejectedValueOnce({ code: 'auth/popup-blocked', message: 'Firebase: Error' });
    const { user, dialog, onSignedIn } = renderModal('sign-in-or-up');
    await user.click(within(dialog).getByRole('button', { name: 'Continue with Google' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/popup was blocked/);
    await user.click(within(dialog).getByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByText('Successfully signed in with Google!')).toBeDefined();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(onSignedIn).toHaveBeenCalledOnce();
  });
});

describe('sign-in-to-continue modal', () => {
  it('has no length rule when signing in', async () => {
    const { user, dialog } = renderModal('sign-in-to-continue');
    await user.type(email(), 'ada@example.com');
    await user.type(password(), '123');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(firebase.signInWithEmail).toHaveBeenCalledWith('ada@example.com', '123');
  });

  it('still requires both fields', async () => {
    const { user, dialog } = renderModal('sign-in-to-continue');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert').textContent).toBe(AUTH_MESSAGES.fillAllFields);
  });

  it("reads 'Signing in...' while busy", async () => {
    firebase.signInWithEmail.mockReturnValueOnce(deferred<string>().promise);
    const { user, dialog } = renderModal('sign-in-to-continue');
    await user.type(email(), 'ada@example.com');
    await user.type(password(), 'pw');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(within(dialog).getByRole('button', { name: 'Signing in...' })).toHaveProperty('disabled', true);
  });

  it('lets a newcomer create an account there and then', async () => {
    const { user, dialog, onSignedIn } = renderModal('sign-in-to-continue');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(screen.getByRole('dialog', { name: 'Create Account' })).toBeDefined();
    await user.type(email(), 'new@example.com');
    await user.type(password(), '123');
    await user.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByRole('alert').textContent).toBe('Password must be at least 6 characters long');
    await user.type(password(), '456');
    await user.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    expect(firebase.signUpWithEmail).toHaveBeenCalledWith('new@example.com', '123456');
    expect(onSignedIn).toHaveBeenCalledOnce();
  });

  it('closes on a backdrop click', async () => {
    const { user, onClose } = renderModal('sign-in-to-continue');
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledOnce();
  });
});
