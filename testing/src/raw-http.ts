import { connect } from 'node:net';

export interface RawHttpAnswer {
  status: number;
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte over a socket (fetch would normalise malformed paths and
 * headers away), read until the server closes. `encoding` is used both ways: latin1 for arbitrary bytes.
 */
export function rawHttpRequest(
  origin: string,
  request: string,
  encoding: 'utf8' | 'latin1' = 'utf8',
): Promise<RawHttpAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString(encoding);
      const [head = '', ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: rest.join('\r\n\r\n') });
    });
    // Not end(): a client that half-closes before the answer gets none from Node, whatever the route.
    socket.write(request, encoding);
  });
}
