/** Spec §5 and §8: sign-in rules and the authentication error catalogue. */
export const MIN_PASSWORD_LENGTH = 6;
/** Spec §7 and §10: token sync sends only an ID token under 5 minutes old. */
export const TOKEN_SYNC_MAX_AGE_MS = 5 * 60 * 1000;
/**
 * Closing the account needs a sign-in (the ID token's auth_time) at most this old, as Firebase asks for
 * its own sensitive operations; an older one gets 401 REAUTHENTICATION_REQUIRED.
 */
export const RECENT_SIGN_IN_MAX_AGE_MS = 5 * 60 * 1000;

export const AUTH_MESSAGES = {
  fillAllFields: 'Please fill in all fields',
  passwordTooShort: 'Password must be at least 6 characters long',
  emailInUse: 'This email is already registered. Please sign in instead.',
  invalidEmail: 'Please enter a valid email address.',
  invalidCredentials: 'Invalid email or password.',
  tooManyRequests: 'Too many attempts. Please try again later.',
  fallback: 'Authentication failed',
  accountCreated: 'Account created successfully!',
  signedIn: 'Successfully signed in!',
  loggedOut: 'Successfully logged out',
} as const;

export function socialSignInSuccess(provider: string): string {
  return `Successfully signed in with ${provider}!`;
}

/** Validates the sign-in/sign-up modal; signing in to continue checks required fields only. */
export function validateCredentials(
  email: string,
  password: string,
  options: { enforceLength: boolean },
): string | null {
  if (email.trim() === '' || password === '') return AUTH_MESSAGES.fillAllFields;
  if (options.enforceLength && password.length < MIN_PASSWORD_LENGTH) return AUTH_MESSAGES.passwordTooShort;
  return null;
}

const AUTH_ERROR_BY_CODE: Record<string, string> = {
  'auth/email-already-in-use': AUTH_MESSAGES.emailInUse,
  'auth/invalid-email': AUTH_MESSAGES.invalidEmail,
  'auth/user-not-found': AUTH_MESSAGES.invalidCredentials,
  'auth/wrong-password': AUTH_MESSAGES.invalidCredentials,
  'auth/invalid-credential': AUTH_MESSAGES.invalidCredentials,
  'auth/invalid-login-credentials': AUTH_MESSAGES.invalidCredentials,
  'auth/too-many-requests': AUTH_MESSAGES.tooManyRequests,
  // Spec §8: the popup may be blocked.
  'auth/popup-blocked': 'The sign-in popup was blocked. Allow popups for this site and try again.',
  'auth/account-exists-with-different-credential':
    'An account already exists with this email. Sign in with the method you used before.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
  'auth/operation-not-allowed': 'This sign-in method is not available.',
  'auth/user-disabled': 'This account has been disabled.',
};

/** Firebase's own wording of a code it has no message for: 'Firebase: Error (auth/…).' says nothing to a person. */
const BARE_FIREBASE_MESSAGE = /^Firebase: Error \(auth\/[a-z-]+\)\.?$/;

/** Maps an identity-service error to the spec's message; other errors keep the provider's message. */
export function authErrorMessage(error: { code?: string; message?: string } | null | undefined): string {
  const mapped = error?.code === undefined ? undefined : AUTH_ERROR_BY_CODE[error.code];
  if (mapped !== undefined) return mapped;
  const message = error?.message?.trim();
  return message && !BARE_FIREBASE_MESSAGE.test(message) ? message : AUTH_MESSAGES.fallback;
}

export const TOAST_DURATION_MS = 3000;
export const LONG_TOAST_DURATION_MS = 5000;
