import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a service, for tests of a network cut: `cut()` drops every connection through
 * it and refuses new ones (as a pulled cable or a dead route does, while the service behind keeps its
 * state), `restore()` listens again on the same port, so whoever holds its address gets through again.
 */
export interface NetworkLink {
  /** `http://127.0.0.1:PORT`: give this address instead of the service's own. */
  url: string;
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startNetworkLink(target: { host: string; port: number }): Promise<NetworkLink> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const relay = (client: Socket) => {
    track(client);
    const upstream = createConnection(target);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  };
  const listen = async (port: number): Promise<Server> => {
    const server = createServer(relay);
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return server;
  };
  let server: Server | null = await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const stop = async () => {
    if (server === null) return;
    const closing = once(server, 'close');
    server.close();
    for (const socket of sockets) socket.destroy();
    await closing;
    server = null;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    cut: stop,
    async restore() {
      if (server === null) server = await listen(port);
    },
    close: stop,
  };
}
