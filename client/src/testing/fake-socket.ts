import type { ServerToClientEvents } from '@mediagen/shared';
import { vi } from 'vitest';

type Handler = (payload: never) => void;

export type FakeSocketServer = ReturnType<typeof createFakeSocketServer>;

/**
 * Stands in for `socket.io-client`, the network boundary of live updates: the app's own code opens the
 * socket and listens; the test says what the server sends (`vi.mock('socket.io-client', …)` hands out `io`).
 */
export function createFakeSocketServer() {
  const handlers = new Map<string, Handler[]>();
  const socket = {
    active: true,
    connected: false,
    on(event: string, handler: Handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
      return socket;
    },
    connect: () => socket,
    disconnect: () => socket,
    emit: () => socket,
  };
  return {
    io: vi.fn(() => socket),
    /** The server sends `event` to the open socket. */
    send<Event extends keyof ServerToClientEvents>(event: Event, payload: Parameters<ServerToClientEvents[Event]>[0]) {
      for (const handler of handlers.get(event) ?? []) (handler as (sent: typeof payload) => void)(payload);
    },
    /** The connection opens (again): Socket.IO's own `connect`. */
    connected() {
      socket.connected = true;
      for (const handler of handlers.get('connect') ?? []) (handler as () => void)();
    },
    /** The connection drops, as when the network goes, and Socket.IO will reconnect by itself. */
    dropped() {
      socket.connected = false;
      for (const handler of handlers.get('disconnect') ?? []) (handler as (reason: string) => void)('transport close');
    },
    /** Whether the page listens for `event` yet (the client library loads on demand). */
    listening: (event: keyof ServerToClientEvents) => (handlers.get(event)?.length ?? 0) > 0,
  };
}
