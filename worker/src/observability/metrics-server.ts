import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
function hasToken(request: IncomingMessage, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The worker has no HTTP API, so it serves its own scrape endpoint: `/metrics` (Prometheus text; with a
 * token, only for `Authorization: Bearer <token>`) and `/healthz` (200 while the workers run, 503 once
 * they stop or while shutting down).
 */
export async function startMetricsServer(options: {
  registry: Registry;
  port: number;
  host?: string;
  token?: string | null;
  isHealthy: () => boolean;
}): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/metrics') {
      if (options.token && !hasToken(request, options.token)) {
        response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
        response.end(
          JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'A valid metrics token is required.' } }),
        );
        return;
      }
      options.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
        (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
      );
      return;
    }
    if (path === '/healthz') {
      const healthy = options.isHealthy();
      response
        .writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: healthy ? 'ok' : 'stopping' }));
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
