import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import {
  GENERATION_UPDATE_EVENT,
  type ClientToServerEvents,
  type Generation,
  type ServerToClientEvents,
} from '@mediagen/shared';
import type { AuthUser, IdentityVerifier } from '../auth/identity-verifier';
import type { RelayAudience } from './generation-relay';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no server-to-server events
interface InterServerEvents {}
interface SocketData {
  user: AuthUser;
}

export type GatewayServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export const userRoom = (uid: string) => `user:${uid}`;

export interface SocketGateway extends RelayAudience {
  readonly io: GatewayServer;
  /** Sends one update to every socket of this user connected to this server instance. */
  emitToUser(uid: string, generation: Generation): void;
  /** Drops every connection; must run before the HTTP server closes, which waits for open connections. */
  disconnectAll(): void;
  close(): Promise<void>;
}

interface Options {
  corsOrigins: readonly string[];
  verifier: IdentityVerifier;
}

/**
 * Socket.IO on the API's own HTTP server and default path. The handshake carries the Firebase ID token
 * (`io(origin, { auth: { token } })`); a missing or bad one is refused before the connection opens, and
 * every socket joins its user's room. No adapter: each server instance only talks to its own sockets.
 */
export function createSocketGateway(httpServer: HttpServer, { corsOrigins, verifier }: Options): SocketGateway {
  const io: GatewayServer = new Server(httpServer, {
    cors: { origin: [...corsOrigins], credentials: true },
    serveClient: false,
  });

  io.use((socket, next) => {
    const token: unknown = socket.handshake.auth?.token;
    if (typeof token !== 'string' || token === '') {
      next(new Error('UNAUTHENTICATED'));
      return;
    }
    verifier.verify(token).then(
      (user) => {
        socket.data.user = user;
        next();
      },
      () => next(new Error('UNAUTHENTICATED')),
    );
  });

  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.user.uid));
  });

  return {
    io,
    any() {
      return io.of('/').sockets.size > 0;
    },
    has(uid) {
      return (io.of('/').adapter.rooms.get(userRoom(uid))?.size ?? 0) > 0;
    },
    emitToUser(uid, generation) {
      io.to(userRoom(uid)).emit(GENERATION_UPDATE_EVENT, generation);
    },
    disconnectAll() {
      io.disconnectSockets(true);
      io.engine.close();
    },
    async close() {
      // The HTTP server is Fastify's to close; socket.io's close() would try too and report it not running.
      await io.close(() => undefined);
    },
  };
}
