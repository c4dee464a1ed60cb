import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import { hasBearerToken } from '../../bearerToken';
import { FAULT_HEADER, faultFromHeader } from '../../faults/providerGate';
import type { FaultRule } from '../../types';
import { billingRefusal, missingApiKeyError, openAiError, rateLimitReached, serverError } from '../openaiErrors';
import { serverEventFrame } from './eventFrames';
import { isRealtimeModel } from './realtimeModels';
import { RealtimeSession, type RealtimeSessionDeps } from './realtimeSession';

/** `wss://host/v1/realtime?model=…`, where the openai package's OpenAIRealtimeWS connects. */
export const REALTIME_PATH = '/v1/realtime';
// The API takes events of up to 15 MiB (input_audio_buffer.append's limit); a bigger frame closes the socket.
const MAX_EVENT_BYTES = 15 * 1024 * 1024;
const DEFAULT_RETRY_AFTER_SECONDS = 1;

export interface RealtimeServerDeps extends RealtimeSessionDeps {
  tls: { key: string; cert: string };
}

/**
 * The TLS server of the Realtime API: WebSocket upgrades at /v1/realtime become sessions, after the
 * handshake's faults and checks; any other request is answered 404 in OpenAI's error shape.
 */
export class RealtimeServer {
  private readonly server: Server;
  private readonly webSockets = new WebSocketServer({ noServer: true, maxPayload: MAX_EVENT_BYTES });
  // Every connection, open sessions and hung handshakes alike, so close() ends them all at once.
  private readonly sockets = new Set<Socket>();

  constructor(private readonly deps: RealtimeServerDeps) {
    this.server = createServer({ key: deps.tls.key, cert: deps.tls.cert }, answerNotFound);
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.upgrade(request, socket, head);
    });
  }

  /** Starts listening; resolves with the address it listens on. */
  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        if (address === null || typeof address === 'string') reject(new Error(`unexpected address ${address}`));
        else resolve(address);
      });
    });
  }

  async close(): Promise<void> {
    for (const webSocket of this.webSockets.clients) webSocket.terminate();
    for (const socket of this.sockets) socket.destroy();
    this.webSockets.close();
    if (!this.server.listening) return;
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client that goes away mid-handshake must not take the process with it.
    const ignoreSocketError = () => undefined;
    socket.on('error', ignoreSocketError);
    const url = new URL(request.url ?? '/', 'https://simulator.invalid');
    if (url.pathname !== REALTIME_PATH) return refuseHandshake(socket, 404, notFound(request));

    this.deps.stats.countRequest('realtime.connect');
    if (this.deps.latencyMs > 0) await sleep(this.deps.latencyMs);
    const header = request.headers[FAULT_HEADER];
    // As on the HTTP routes, a per-request header wins over the configured rules and leaves them unconsumed.
    const fault =
      header === undefined ? this.deps.faults.take('realtime.connect') : faultFromHeader('realtime.connect', header);
    if (typeof fault === 'string') return refuseHandshake(socket, 400, { error: fault });
    if (fault) return applyHandshakeFault(fault, socket);
    if (!hasBearerToken(request)) return refuseHandshake(socket, 401, missingApiKeyError());

    socket.off('error', ignoreSocketError);
    this.webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      this.open(webSocket, url.searchParams.get('model'), request.headers.authorization ?? '');
    });
  }

  /** A session for a known model; for another, the API's `error` event, then the socket closes. */
  private open(webSocket: WebSocket, model: string | null, apiKey: string): void {
    if (model === null || !isRealtimeModel(model)) {
      webSocket.on('error', () => undefined);
      const message =
        model === null
          ? "Missing required parameter: 'model'."
          : `The model \`${model}\` does not exist or you do not have access to it.`;
      const code = model === null ? 'missing_required_parameter' : 'model_not_found';
      webSocket.send(
        serverEventFrame({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code,
            message,
            param: model === null ? 'model' : null,
            event_id: null,
          },
        }),
      );
      webSocket.close();
      return;
    }
    new RealtimeSession(webSocket, model, apiKey, this.deps).start();
  }
}

/** The handshake's faults: refused as OpenAI refuses it over HTTP, cut off, or left hanging. */
function applyHandshakeFault(fault: FaultRule, socket: Duplex): void {
  switch (fault.fault) {
    case 'http429':
      return refuseHandshake(socket, 429, rateLimitReached(), {
        'retry-after': String(fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS),
      });
    case 'insufficient-quota': {
      const { status, body } = billingRefusal(fault.billingCode);
      return refuseHandshake(socket, status, body);
    }
    case 'http500':
      return refuseHandshake(socket, 500, serverError());
    case 'drop':
      socket.destroy();
      return;
    case 'hang':
      // Nothing is answered; close() destroys the socket with the others.
      return;
    case 'malformed':
    case 'fail-status':
    case 'unknown-status':
    case 'minimax-code':
    case 'content-filtered':
    case 'untyped-video':
    case 'insufficient-balance':
    case 'rate-limit':
    case 'stray':
    case 'answer':
      throw new Error(`fault ${fault.fault} does not apply to route ${fault.route}`);
  }
}

/** An HTTP answer instead of the 101 Switching Protocols, the way `ws` refuses a handshake. */
function refuseHandshake(socket: Duplex, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(json)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${json}`);
}

function notFound(request: IncomingMessage) {
  return openAiError(`Invalid URL (${request.method ?? 'GET'} ${request.url ?? '/'})`, 'invalid_request_error');
}

function answerNotFound(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(notFound(request)));
}
