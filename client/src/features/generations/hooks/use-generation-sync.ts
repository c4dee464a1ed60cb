import {
  GENERATION_REMOVED_EVENT,
  GENERATION_UPDATE_EVENT,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@mediagen/shared';
import { useEffect } from 'react';
import type { Socket } from 'socket.io-client';
import { requireAppConfig } from '@/config/app-config';
import { getIdToken } from '@/lib/auth-client';
import { listRecentGenerations } from '../api/list-generations';
import { keepSocketAuthenticated } from '../api/socket-auth';
import { useGenerationsStore } from '../stores/generations-store';

/** After the server refuses a handshake or ends a socket, the client does not retry by itself. */
const REFUSED_HANDSHAKE_RETRY_MS = 5000;

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Keeps the generations store live while signed in: every `generation:update` is applied, and the
 * list is fetched on load and again each time the socket (re)connects: the server only sends updates
 * to connected sockets, so whatever happened before the socket joined comes from the list. The
 * Socket.IO client (15 KB gzip) is fetched only then: a visitor never needs it.
 */
export function useGenerationSync(signedIn: boolean): void {
  useEffect(() => {
    const { resynced, cleared } = useGenerationsStore.getState();
    if (!signedIn) {
      cleared();
      return;
    }

    let closed = false;
    const resync = () => {
      listRecentGenerations().then(
        (list) => {
          if (!closed) resynced(list.items);
        },
        (error: unknown) => console.warn('Could not resync generations', error),
      );
    };
    resync();

    let disconnect: (() => void) | undefined;
    import('socket.io-client').then(
      ({ io }) => {
        if (closed) return;
        let handshakeToken: string | null = null;
        const socket: LiveSocket = io(requireAppConfig().apiUrl, {
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
    };
  }, [signedIn]);
}

/** Applies what the socket hears to the store, resyncs on each connect, and retries refused handshakes. */
function followLiveUpdates(
  socket: LiveSocket,
  handshakeToken: () => string | null,
  resync: () => void,
  isClosed: () => boolean,
): () => void {
  const { received, removed } = useGenerationsStore.getState();
  const session = keepSocketAuthenticated(socket, () => getIdToken(true));
  socket.on(GENERATION_UPDATE_EVENT, received);
  socket.on(GENERATION_REMOVED_EVENT, ({ id }) => removed(id));
  socket.on('connect', () => {
    const token = handshakeToken();
    if (token !== null) session.connected(token);
    resync();
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
    if (reason === 'io server disconnect' && !isClosed()) retryLater();
  });
  return () => {
    clearTimeout(retry);
    session.stop();
    socket.disconnect();
  };
}
