import { GENERATION_UPDATE_EVENT, type ClientToServerEvents, type ServerToClientEvents } from '@mediagen/shared';
import { useEffect } from 'react';
import { io, type Socket } from 'socket.io-client';
import { requireAppConfig } from '@/config/app-config';
import { getIdToken } from '@/lib/auth-client';
import { listRecentGenerations } from '../api/list-generations';
import { useGenerationsStore } from '../stores/generations-store';

/** After the server refuses a handshake (say, an expired token) the client does not retry by itself. */
const REFUSED_HANDSHAKE_RETRY_MS = 5000;

/**
 * Keeps the generations store live while signed in: every `generation:update` is applied, and the
 * list is fetched on load and again each time the socket (re)connects: the server only sends updates
 * to connected sockets, so whatever happened before the socket joined comes from the list.
 */
export function useGenerationSync(signedIn: boolean): void {
  useEffect(() => {
    const { received, resynced, cleared } = useGenerationsStore.getState();
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

    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(requireAppConfig().apiUrl, {
      // A callback, so every (re)connection presents a fresh ID token.
      auth: (send) => {
        getIdToken().then(
          (token) => send({ token }),
          () => send({ token: null }),
        );
      },
    });
    socket.on(GENERATION_UPDATE_EVENT, received);
    socket.on('connect', resync);
    let retry: ReturnType<typeof setTimeout> | undefined;
    socket.on('connect_error', () => {
      if (socket.active) return;
      retry = setTimeout(() => socket.connect(), REFUSED_HANDSHAKE_RETRY_MS);
    });
    resync();

    return () => {
      closed = true;
      clearTimeout(retry);
      socket.disconnect();
    };
  }, [signedIn]);
}
