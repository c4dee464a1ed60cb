import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * An HTTP server that answers each path with the replies queued for it (a documented example), and
 * records what the client sent: the provider's side of the HTTP boundary, reduced to its documents.
 */
export class ReplayServer {
  readonly requests: RecordedRequest[] = [];
  private readonly replies = new Map<string, Reply[]>();
  private server: Server | undefined;
  url = '';

  reply(path: string, reply: Reply): this {
    this.replies.set(path, [...(this.replies.get(path) ?? []), reply]);
    return this;
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://replay');
        const raw = Buffer.concat(chunks);
        // JSON bodies parsed; any other (a multipart form) kept as its bytes.
        const json = !(request.headers['content-type'] ?? 'application/json').includes('multipart');
        this.requests.push({
          method: request.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          body: raw.length === 0 ? undefined : json ? (JSON.parse(raw.toString()) as unknown) : raw,
        });
        const reply = this.replies.get(url.pathname)?.shift();
        if (reply === undefined) {
          response.writeHead(599).end(`no reply queued for ${url.pathname}`);
          return;
        }
        const payload = Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
        response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(payload);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
