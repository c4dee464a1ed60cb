import { io as connectUntyped } from 'socket.io-client';

/** The part of a socket.io-client socket used here (its full types do not resolve from this folder). */
export interface Socket {
  on(event: string, listener: (...args: never[]) => void): unknown;
  once(event: string, listener: (...args: never[]) => void): unknown;
  disconnect(): unknown;
}
type Connect = (origin: string, options: Record<string, unknown>) => Socket;
const connectSocket = connectUntyped as unknown as Connect;
import { now } from './env';

export interface Update {
  id: string;
  status?: string;
  progress: number;
  at: number;
}

/** Connects `auth` payloads as websocket clients, `parallel` at a time; each records every update. */
export async function connectMany(
  origin: string,
  auths: readonly Record<string, string>[],
  onUpdate: (update: Update, index: number) => void,
  parallel = 50,
): Promise<Socket[]> {
  const sockets: Socket[] = new Array(auths.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < auths.length) {
        const index = next++;
        const socket = connectSocket(origin, {
          auth: auths[index]!,
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
        });
        socket.on('generation:update', (update: { id: string; status?: string; progress: number }) =>
          onUpdate({ id: update.id, status: update.status, progress: update.progress, at: now() }, index),
        );
        await new Promise<void>((done, fail) => {
          socket.once('connect', () => done());
          socket.once('connect_error', (error: Error) => fail(error));
        });
        sockets[index] = socket;
      }
    }),
  );
  return sockets;
}

export function closeAll(sockets: readonly (Socket | undefined)[]): void {
  for (const socket of sockets) socket?.disconnect();
}
