/**
 * Whether this browser has signed in before, so a first visit is offered the sign-up form and a returning
 * creator the sign-in form. Kept apart from auth-storage, which the spec limits to the session and clears
 * on sign-out: someone who signed out is still a returning creator.
 */
const KEY = 'signed-in-before';

export function hasSignedInHere(): boolean {
  try {
    return localStorage.getItem(KEY) !== null;
  } catch {
    // Storage blocked: treat the visit as a first one, the sign-in form is one click away.
    return false;
  }
}

export function rememberSignedInHere(): void {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Storage blocked or full: the next visit offers the sign-up form first, nothing worse.
  }
}
