import {
  ACCOUNT_UPDATE_EVENT,
  GENERATION_REMOVED_EVENT,
  type AccountUpdate,
  GENERATION_UPDATE_EVENT,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@mediagen/shared';
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { requireAppConfig } from '@/config/app-config';
import { getIdToken } from '@/lib/auth-client';
import { listRecentGenerations } from '../api/list-generations';
import { keepSocketAuthenticated } from '../api/socket-auth';
import { useGenerationsStore } from '../stores/generations-store';
import { useLiveConnectionStore } from '../stores/live-connection-store';

/** After the server refuses a handshake or ends a socket, the client does not retry by itself. */
const REFUSED_HANDSHAKE_RETRY_MS = 5000;
/** A resync that failed after a reconnect is tried again this often while the socket stays up. */
const RESYNC_RETRY_MS = 5000;

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface LiveAccountOptions {
  /** The account's plan or balance changed (a payment, a renewal, an operator): the page shows it now. */
  onAccountUpdate?: (update: AccountUpdate) => void;
  /** The socket is back after a drop: an `account:update` sent meanwhile was missed, so read the account again. */
  onReconnect?: () => void;
}

/**
 * Keeps the generations store live while signed in: every `generation:update` is applied, and the
 * list is fetched on load and again each time the socket (re)connects: the server only sends updates
 * to connected sockets, so whatever happened before the socket joined comes from the list. The
 * Socket.IO client (15 KB gzip) is fetched only then: a visitor never needs it. The same socket carries
 * `account:update`, handed to `onAccountUpdate`.
 */
export function useGenerationSync(signedIn: boolean, { onAccountUpdate, onReconnect }: LiveAccountOptions = {}): void {
  // Read at each event: a new callback from the page must not reopen the socket.
  const accountUpdated = useRef(onAccountUpdate);
  accountUpdated.current = onAccountUpdate;
  const reconnected = useRef(onReconnect);
  reconnected.current = onReconnect;

  useEffect(() => {
    const { resynced, cleared } = useGenerationsStore.getState();
    if (!signedIn) {
      cleared();
      return;
    }

    let closed = false;
    const resync = () =>
      listRecentGenerations().then(
        (list) => {
          if (closed) return false;
          resynced(list.items);
          return true;
        },
        (error: unknown) => {
          console.warn('Could not resync generations', error);
          return false;
        },
      );
    void resync();

    let disconnect: (() => void) | undefined;
    import('socket.io-client').then(
      ({ io }) => {
        if (closed) return;
        let handshakeToken: string | null = null;
        const socket: LiveSocket = io(requireAppConfig().apiUrl, {
          // WebSocket first, HTTP long-polling only where a WebSocket cannot open: one connection with
          // nothing to upgrade, and no poll left in flight (answered "Session ID unknown") when the
          // server or a logout closes the session.
          transports: ['websocket', 'polling'],
          tryAllTransports: true,
          // A callback, so every (re)connection presents a fresh ID token.
          auth: (send) => {
            getIdToken().then(
              (token) => {
                handshakeToken = token;
                send({ token });
              },
              () => send({ token: null }),
            );
          },
        });
        socket.on(ACCOUNT_UPDATE_EVENT, (update) => accountUpdated.current?.(update));
        // The page read the account just before the first connect; only later ones follow a gap.
        let connects = 0;
        socket.on('connect', () => {
          connects += 1;
          if (connects > 1) reconnected.current?.();
        });
        disconnect = followLiveUpdates(
          socket,
          () => handshakeToken,
          resync,
          () => closed,
        );
      },
      (error: unknown) => console.warn('Could not load live updates', error),
    );

    return () => {
      closed = true;
      disconnect?.();
      useLiveConnectionStore.getState().set('off');
    };
  }, [signedIn]);
}

/**
 * Applies what the socket hears to the store, resyncs on each connect, retries refused handshakes, and
 * says when live updates dropped until the resync after them is in.
 */
function followLiveUpdates(
  socket: LiveSocket,
  handshakeToken: () => string | null,
  resync: () => Promise<boolean>,
  isClosed: () => boolean,
): () => void {
  const { received, removed } = useGenerationsStore.getState();
  const { set: setConnection } = useLiveConnectionStore.getState();
  const session = keepSocketAuthenticated(socket, () => getIdToken(true));
  socket.on(GENERATION_UPDATE_EVENT, received);
  socket.on(GENERATION_REMOVED_EVENT, ({ id }) => removed(id));
  let resyncRetry: ReturnType<typeof setTimeout> | undefined;
  // Live only once the list is read again: until then the page may lack what happened while it was away.
  const resyncAfterConnect = () => {
    clearTimeout(resyncRetry);
    void resync().then((done) => {
      if (done) setConnection('live');
      else if (socket.connected && !isClosed()) resyncRetry = setTimeout(resyncAfterConnect, RESYNC_RETRY_MS);
    });
  };
  socket.on('connect', () => {
    const token = handshakeToken();
    if (token !== null) session.connected(token);
    resyncAfterConnect();
  });
  let retry: ReturnType<typeof setTimeout> | undefined;
  const retryLater = () => {
    clearTimeout(retry);
    retry = setTimeout(() => socket.connect(), REFUSED_HANDSHAKE_RETRY_MS);
  };
  socket.on('connect_error', () => {
    if (!socket.active) retryLater();
  });
  // The server ends a socket whose token ran out or whose account changed; Socket.IO won't reconnect
  // by itself after that, and the next handshake tells which it was.
  socket.on('disconnect', (reason) => {
    session.stop();
    clearTimeout(resyncRetry);
    // The client's own disconnect is either leaving the page or the token refresh's instant reconnect.
    if (reason !== 'io client disconnect' && !isClosed()) setConnection('reconnecting');
    if (reason === 'io server disconnect' && !isClosed()) retryLater();
  });
  return () => {
    clearTimeout(retry);
    clearTimeout(resyncRetry);
    session.stop();
    socket.disconnect();
  };
}
