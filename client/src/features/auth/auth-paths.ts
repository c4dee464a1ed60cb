/** The Login page opens on its sign-up form at this address, so any page can send a newcomer straight there. */
export const SIGN_UP_PATH = '/login?mode=sign-up';
