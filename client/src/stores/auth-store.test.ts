import { describe, expect, it } from 'vitest';
import { useAuthStore } from './auth-store';

function stored(): unknown {
  return (JSON.parse(localStorage.getItem('auth-storage') ?? 'null') as { state: unknown }).state;
}

describe('auth store', () => {
  it('persists exactly isAuthenticated, email and hasShownWelcome under auth-storage (spec §3)', () => {
    useAuthStore.getState().signedIn('ada@example.com');
    useAuthStore.getState().welcomeShown();
    expect(stored()).toEqual({ isAuthenticated: true, email: 'ada@example.com', hasShownWelcome: true });
  });

  it('clears the flags and the email on sign-out (spec §4)', () => {
    useAuthStore.getState().signedIn('ada@example.com');
    useAuthStore.getState().welcomeShown();
    useAuthStore.getState().signedOut();
    expect(stored()).toEqual({ isAuthenticated: false, email: '', hasShownWelcome: false });
  });
});
