import { AUTH_REFRESH_EVENT, type AuthRefreshResult } from '@mediagen/shared';

/** How long before a token expires the next one is sent: clock skew and a sleeping tab both fit in it. */
export const REFRESH_LEAD_MS = 2 * 60_000;

/** The parts of a Socket.IO client this needs. */
export interface RefreshableSocket {
  emit(event: typeof AUTH_REFRESH_EVENT, token: string, ack: (result: AuthRefreshResult) => void): unknown;
  disconnect(): unknown;
  connect(): unknown;
}

/** When an ID token expires (ms), read from its payload; a token that cannot be read counts as expired. */
export function tokenExpiresAtMs(token: string): number {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}

/**
 * The server closes a socket when the token it holds expires, so shortly before that the next token is
 * sent over the socket; the user never sees the connection drop. A refused refresh (signed out, account
 * gone) reconnects, which presents a fresh token at the handshake or is refused there.
 */
export function keepSocketAuthenticated(
  socket: RefreshableSocket,
  freshToken: () => Promise<string | null>,
  clock: () => number = Date.now,
) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reconnect = () => {
    socket.disconnect();
    socket.connect();
  };
  const refresh = async () => {
    const token = await freshToken().catch(() => null);
    if (token === null) return reconnect();
    socket.emit(AUTH_REFRESH_EVENT, token, (result) => {
      if (result.ok) schedule(Date.parse(result.expiresAt));
      else reconnect();
    });
  };
  const schedule = (expiresAtMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), Math.max(0, expiresAtMs - REFRESH_LEAD_MS - clock()));
  };
  return {
    /** The socket (re)connected with this token. */
    connected(token: string) {
      schedule(tokenExpiresAtMs(token));
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
