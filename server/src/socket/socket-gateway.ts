import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  ACCOUNT_UPDATE_EVENT,
  AUTH_REFRESH_EVENT,
  ERROR_MESSAGES,
  GENERATION_REMOVED_EVENT,
  GENERATION_UPDATE_EVENT,
  type AccountUpdate,
  type AuthRefreshResult,
  type ClientToServerEvents,
  type ErrorCode,
  type Generation,
  type ServerToClientEvents,
} from '@mediagen/shared';
import { IdentityRefused, refusalOf, type AuthUser, type IdentityVerifier } from '../auth/identity-verifier';
import { clientAddress, type TrustFunction } from '../http/client-address';
import type { RelayAudience } from './generation-relay';
import { PendingConnections } from './pending-connections';
import type { SocketPresence } from './socket-presence';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no server-to-server events
interface InterServerEvents {}
interface SocketData {
  user: AuthUser;
  /** Closes the socket when its token expires; replaced on every refresh. */
  expiry: NodeJS.Timeout;
}

export type GatewayServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type GatewaySocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

const USER_ROOM = 'user:';
export const userRoom = (uid: string) => `${USER_ROOM}${uid}`;

/** How often open sockets are checked against their accounts and their presence leases renewed. */
const MAX_SWEEP_MS = 20_000;
/**
 * A connection not signed in this long after it opened (its token refused, or never sent) is closed; a
 * client with a good token signs in within one round trip and a token check. socket.io's default is 45 s.
 */
const SIGN_IN_TIMEOUT_MS = 10_000;

/** What the engine.io server hands over for each new connection (engine.io is no dependency of ours). */
interface EngineConnection {
  request: IncomingMessage;
  once(event: 'close', listener: () => void): void;
}

export interface SocketGateway extends RelayAudience {
  readonly io: GatewayServer;
  /** Signed-in sockets connected to this server instance (connections still signing in are not sockets yet). */
  connectedSockets(): number;
  /** Sends one update to every socket of this user connected to this server instance. */
  emitToUser(uid: string, generation: Generation): void;
  /** Tells the user's sockets here that one of their generations was deleted. */
  emitRemoved(uid: string, id: string): void;
  /** Tells the user's sockets here their plan or balance now (`account:update`). */
  emitAccountUpdate(uid: string, update: AccountUpdate): void;
  /** The user's account was closed: their sockets here end now, and their presence is forgotten. */
  disconnectUser(uid: string): Promise<void>;
  /** Drops every connection; must run before the HTTP server closes, which waits for open connections. */
  disconnectAll(): void;
  close(): Promise<void>;
}

interface Options {
  corsOrigins: readonly string[];
  verifier: IdentityVerifier;
  presence: SocketPresence;
  /** How long an account's state may be trusted (AUTH_REVALIDATE_SECONDS). */
  revalidateMs: number;
  /** Connections not signed in (yet) one client address may hold, and this server in all. */
  pending: { perAddress: number; max: number };
  /** TRUST_PROXY's rule: whose X-Forwarded-For names a client's address. */
  trust: TrustFunction;
  clock?: () => number;
}

/** A handshake refusal: `connect_error` on the client, with the reason as its message and in `data`. */
function refusal(code: ErrorCode): Error {
  return Object.assign(new Error(code), { data: { code, message: ERROR_MESSAGES[code] } });
}

/**
 * Socket.IO on the API's own HTTP server and default path. The handshake carries the Firebase ID token
 * (`io(origin, { auth: { token } })`); a missing or bad one, or a user already holding SOCKETS_PER_USER
 * sockets across every server, is refused before the connection opens, and every socket joins its
 * user's room. A socket lives as long as its token: it is closed when the token expires unless the client
 * sends a fresh one (`auth:refresh`), and when the account is deleted, disabled or revoked (checked every
 * sweep against the identity service's answer of at most `revalidateMs` ago). No adapter: each server
 * instance only talks to its own sockets.
 *
 * The token comes after the connection: engine.io opens a session first, and the client signs in on it.
 * Sessions not signed in (yet, or ever) are bounded per client address and in all (a new one past either
 * bound is refused at its handshake), are closed after SIGN_IN_TIMEOUT_MS, and are not sockets: only
 * signed-in ones count. A socket that leaves takes its session with it.
 */
export function createSocketGateway(httpServer: HttpServer, options: Options): SocketGateway {
  const { verifier, presence } = options;
  const clock = options.clock ?? Date.now;
  const pending = new PendingConnections(options.pending.perAddress, options.pending.max);
  const addressOf = (request: IncomingMessage) => clientAddress(request, options.trust);
  const io: GatewayServer = new Server(httpServer, {
    cors: { origin: [...options.corsOrigins], credentials: true },
    serveClient: false,
    connectTimeout: SIGN_IN_TIMEOUT_MS,
    allowRequest: (request, decide) => {
      const allowed = pending.mayOpen(addressOf(request));
      decide(allowed ? null : 'RATE_LIMITED', allowed);
    },
  });
  io.engine.on('connection', (connection: EngineConnection) => {
    pending.opened(connection, addressOf(connection.request));
    connection.once('close', () => pending.settled(connection));
  });

  const expireAt = (socket: GatewaySocket, user: AuthUser) => {
    clearTimeout(socket.data.expiry);
    socket.data.user = user;
    socket.data.expiry = setTimeout(() => socket.disconnect(true), Math.max(0, user.tokenExpiresAtMs - clock()));
  };

  io.use((socket, next) => {
    void admit(socket).then((refused) => next(refused ?? undefined));
  });

  /** Null when the socket may connect, else why not. */
  async function admit(socket: GatewaySocket): Promise<Error | null> {
    const token: unknown = socket.handshake.auth?.token;
    if (typeof token !== 'string' || token === '') return refusal('UNAUTHENTICATED');
    const verified = await verifier.verify(token).then(
      (user) => ({ user }),
      (error: unknown) => ({ error }),
    );
    // As over HTTP: a token the identity service could not check right now is not a bad token.
    if ('error' in verified)
      return refusal(verified.error instanceof IdentityRefused ? 'UNAUTHENTICATED' : 'NOT_READY');
    const { user } = verified;
    const admitted = await presence.admit(user.uid, socket.id).catch(() => null);
    if (admitted === null) return refusal('NOT_READY');
    if (!admitted) return refusal('TOO_MANY_CONNECTIONS');
    socket.data.user = user;
    return null;
  }

  async function refresh(socket: GatewaySocket, token: unknown): Promise<AuthRefreshResult> {
    const fresh = typeof token === 'string' ? await verifier.verify(token).catch(() => null) : null;
    // A socket belongs to one user for its whole life.
    if (fresh === null || fresh.uid !== socket.data.user.uid) {
      return { ok: false, error: { code: 'UNAUTHENTICATED', message: ERROR_MESSAGES.UNAUTHENTICATED } };
    }
    expireAt(socket, fresh);
    return { ok: true, expiresAt: new Date(fresh.tokenExpiresAtMs).toISOString() };
  }

  io.on('connection', (socket) => {
    pending.settled(socket.conn);
    const { user } = socket.data;
    expireAt(socket, user);
    void socket.join(userRoom(user.uid));
    socket.on(AUTH_REFRESH_EVENT, (token, ack) => {
      if (typeof ack === 'function') void refresh(socket, token).then(ack);
    });
    socket.on('disconnect', () => {
      clearTimeout(socket.data.expiry);
      void presence.leave(socket.data.user.uid, socket.id).catch(() => undefined);
      // Its session would otherwise stay open, signed in to nothing and bounded by nothing.
      socket.conn.close();
    });
  });

  /** Ends sockets whose account has gone, and keeps the presence of the others alive. */
  async function sweep(): Promise<void> {
    const sockets = [...io.of('/').sockets.values()];
    await presence.renew(sockets.map((socket) => ({ uid: socket.data.user.uid, socketId: socket.id })));
    const uids = new Set(sockets.map((socket) => socket.data.user.uid));
    const refused = new Set<string>();
    await Promise.all(
      [...uids].map(async (uid) => {
        const account = await verifier.account(uid).catch(() => null);
        if (account === null) return;
        for (const socket of sockets) {
          if (socket.data.user.uid === uid && refusalOf(account, socket.data.user.authTimeSeconds) !== null) {
            refused.add(socket.id);
          }
        }
      }),
    );
    for (const socket of sockets) if (refused.has(socket.id)) socket.disconnect(true);
  }
  const sweeper = setInterval(
    () => void sweep().catch(() => undefined),
    Math.min(MAX_SWEEP_MS, Math.max(250, options.revalidateMs / 2)),
  );
  sweeper.unref();

  return {
    io,
    connectedSockets: () => io.of('/').sockets.size,
    uids() {
      const uids: string[] = [];
      for (const room of io.of('/').adapter.rooms.keys())
        if (room.startsWith(USER_ROOM)) uids.push(room.slice(USER_ROOM.length));
      return uids;
    },
    has(uid) {
      return (io.of('/').adapter.rooms.get(userRoom(uid))?.size ?? 0) > 0;
    },
    emitToUser(uid, generation) {
      io.to(userRoom(uid)).emit(GENERATION_UPDATE_EVENT, generation);
    },
    emitRemoved(uid, id) {
      io.to(userRoom(uid)).emit(GENERATION_REMOVED_EVENT, { id });
    },
    emitAccountUpdate(uid, update) {
      io.to(userRoom(uid)).emit(ACCOUNT_UPDATE_EVENT, update);
    },
    async disconnectUser(uid) {
      io.in(userRoom(uid)).disconnectSockets(true);
      await presence.forget(uid);
    },
    disconnectAll() {
      clearInterval(sweeper);
      io.disconnectSockets(true);
      io.engine.close();
    },
    async close() {
      clearInterval(sweeper);
      // The HTTP server is Fastify's to close; socket.io's close() would try too and report it not running.
      await io.close(() => undefined);
    },
  };
}
