import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authEmulatorHost } from '@mediagen/testing/vitest';

/** The Auth emulator behind a gateway the test steers, at the HTTP boundary. */
export interface IdentityGateway {
  /** host:port, for the server's FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  close(): Promise<void>;
}

/**
 * Every request to the identity service goes through `steer`, which answers it itself or calls `pass` to
 * send it on to the emulator (at once or later); `incoming` says what was asked.
 */
export async function startIdentityGateway(
  steer: (outgoing: ServerResponse, pass: () => void, incoming: IncomingMessage) => void,
): Promise<IdentityGateway> {
  const [emulatorHost, emulatorPort] = authEmulatorHost().split(':');
  const gateway = createServer((incoming, outgoing) =>
    steer(
      outgoing,
      () => {
        const upstream = forward(
          {
            host: emulatorHost,
            port: Number(emulatorPort),
            path: incoming.url,
            method: incoming.method,
            headers: incoming.headers,
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        upstream.on('error', () => outgoing.destroy());
        incoming.pipe(upstream);
      },
      incoming,
    ),
  );
  await new Promise<void>((listening) => gateway.listen(0, '127.0.0.1', listening));
  return {
    host: `127.0.0.1:${(gateway.address() as AddressInfo).port}`,
    close: () => new Promise<void>((closed) => gateway.close(() => closed())),
  };
}
