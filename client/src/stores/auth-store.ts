import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface AuthSession {
  isAuthenticated: boolean;
  email: string;
  hasShownWelcome: boolean;
}

interface AuthState extends AuthSession {
  signedIn: (email: string) => void;
  /** Spec §4: signing out clears the flags and the email. */
  signedOut: () => void;
  welcomeShown: () => void;
}

const SIGNED_OUT: AuthSession = { isAuthenticated: false, email: '', hasShownWelcome: false };

/**
 * The session as the spec persists it (auth-storage). Firebase's auth-state changes drive it; it is
 * kept locally so the first paint knows whether to show signed-in navigation before Firebase loads.
 */
export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      ...SIGNED_OUT,
      signedIn: (email) => set({ isAuthenticated: true, email }),
      signedOut: () => set(SIGNED_OUT),
      welcomeShown: () => set({ hasShownWelcome: true }),
    }),
    {
      name: 'auth-storage',
      partialize: ({ isAuthenticated, email, hasShownWelcome }): AuthSession => ({
        isAuthenticated,
        email,
        hasShownWelcome,
      }),
    },
  ),
);
