import type { IncomingMessage } from 'node:http';
import type OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type {
  RealtimeClientEvent,
  RealtimeResponseCreateParams,
  RealtimeServerEvent,
  RealtimeSessionCreateRequest,
} from 'openai/resources/realtime/realtime';
import { parseRetryAfter } from '../provider-calls';

/** How a Realtime connection is opened. */
export interface RealtimeConnection {
  client: OpenAI;
  model: string;
  /** A certificate pinned for this connection instead of the system's roots (the development simulator's). */
  ca?: string | undefined;
  /** Until the WebSocket is open and the session created. */
  connectTimeoutMs: number;
  /** Longest silence while a response is awaited: past it the connection counts as lost. */
  idleTimeoutMs: number;
  signal: AbortSignal;
}

/** One response's output: the audio as PCM16 (24 kHz mono) and what the model says it said. */
export interface RealtimeReading {
  pcm: Buffer;
  transcript: string;
  /** Output tokens the response used (audio and text), as `response.done` reports them. */
  outputTokens: number;
}

/** The connection ended or went silent; `opened` says whether a session was ever created on it. */
export class ConnectionLost extends Error {
  override readonly name = 'ConnectionLost';
  constructor(
    message: string,
    readonly opened: boolean,
  ) {
    super(message);
  }
}

/**
 * The API refused: at the handshake (an HTTP status), in an `error` event, or by ending a response other
 * than `completed`. `code` and `type` as the API names them; `retryAfterMs` when it said when to try again.
 */
export class RealtimeRefusal extends Error {
  override readonly name = 'RealtimeRefusal';
  constructor(
    message: string,
    readonly details: {
      status?: number;
      code?: string | undefined;
      type?: string | undefined;
      /** A response that ended `failed`, `incomplete` or `cancelled`; absent for the session's own errors. */
      responseStatus?: string | undefined;
      /** Why a response ended `incomplete` or `cancelled` (`max_output_tokens`, `content_filter`, …). */
      reason?: string | undefined;
      retryAfterMs?: number | undefined;
      /** OpenAI's own words, for the operators. */
      message?: string | undefined;
    },
  ) {
    super(message);
  }
}

/** "Please try again in 1.5s" / "in 644ms", as OpenAI's rate-limit messages say it. */
function retryAfterInMessage(message: string | undefined): number | undefined {
  const match = /try again in (\d+(?:\.\d+)?)(ms|s)\b/i.exec(message ?? '');
  if (match === null) return undefined;
  const value = Number(match[1]);
  return Math.ceil(match[2]!.toLowerCase() === 'ms' ? value : value * 1000);
}

interface Awaited {
  resolve(event: RealtimeServerEvent): void;
  reject(error: unknown): void;
  accepts(event: RealtimeServerEvent): boolean;
}

/**
 * A Realtime API session through the official client (`openai/realtime/ws`), reduced to what reading
 * needs: configure it once, then one response at a time. Every failure arrives as a ConnectionLost or a
 * RealtimeRefusal (or the abort signal's reason), never as an unhandled event.
 */
export class RealtimeSession {
  private waiter: Awaited | null = null;
  private idleTimer: NodeJS.Timeout | undefined;
  private ended: Error | null = null;
  private opened = false;
  private readonly listeners: ((event: RealtimeServerEvent) => void)[] = [];
  /** The latest `rate_limits.updated`: how long until a limit at zero frees up. */
  private exhaustedForMs: number | undefined;

  private constructor(
    private readonly socket: OpenAIRealtimeWS,
    private readonly connection: RealtimeConnection,
  ) {}

  /** Connects, waits for `session.created`, applies `session` and waits for `session.updated`. */
  static async open(connection: RealtimeConnection, session: RealtimeSessionCreateRequest): Promise<RealtimeSession> {
    connection.signal.throwIfAborted();
    const socket = new OpenAIRealtimeWS(
      {
        model: connection.model,
        options: {
          handshakeTimeout: connection.connectTimeoutMs,
          // Pinned: the stand-in's own certificate, made for localhost, is the only one trusted, whatever
          // address it is reached at.
          ...(connection.ca === undefined ? {} : { ca: connection.ca, servername: 'localhost' }),
        },
      },
      connection.client,
    );
    const opened = new RealtimeSession(socket, connection);
    opened.listen();
    try {
      await opened.next((event) => event.type === 'session.created', connection.connectTimeoutMs);
      opened.opened = true;
      opened.send({ type: 'session.update', session });
      await opened.next((event) => event.type === 'session.updated', connection.connectTimeoutMs);
      return opened;
    } catch (error) {
      opened.close();
      throw error;
    }
  }

  /** Reads one response to the end; refused unless it ends `completed`. */
  async respond(response: RealtimeResponseCreateParams): Promise<RealtimeReading> {
    const audio: Buffer[] = [];
    let transcript = '';
    let streamed = '';
    let responseId: string | undefined;
    const collect = (event: RealtimeServerEvent) => {
      if (event.type === 'response.created') responseId ??= event.response.id;
      else if (event.type === 'response.output_audio.delta' && event.response_id === responseId) {
        audio.push(Buffer.from(event.delta, 'base64'));
      } else if (event.type === 'response.output_audio_transcript.delta' && event.response_id === responseId) {
        streamed += event.delta;
      } else if (event.type === 'response.output_audio_transcript.done' && event.response_id === responseId) {
        transcript = event.transcript;
      }
    };
    this.listeners.push(collect);
    try {
      this.send({ type: 'response.create', response });
      const done = await this.next(
        (event) => event.type === 'response.done' && (responseId === undefined || event.response.id === responseId),
        this.connection.idleTimeoutMs,
      );
      if (done.type !== 'response.done') throw new Error(`unexpected ${done.type}`);
      const { status, status_details: details, usage } = done.response;
      if (status !== 'completed') {
        const error = details?.error;
        const message = (error as { message?: string } | undefined)?.message;
        throw new RealtimeRefusal(
          `response ${status ?? 'ended'}${details?.reason ? ` (${details.reason})` : ''}${error?.code ? `: ${error.code}` : ''}${message ? ` - ${message}` : ''}`,
          {
            code: error?.code,
            type: error?.type,
            responseStatus: status,
            reason: details?.reason,
            retryAfterMs: retryAfterInMessage(message) ?? this.exhaustedForMs,
            message,
          },
        );
      }
      return { pcm: Buffer.concat(audio), transcript: transcript || streamed, outputTokens: usage?.output_tokens ?? 0 };
    } finally {
      this.listeners.splice(this.listeners.indexOf(collect), 1);
    }
  }

  close(): void {
    clearTimeout(this.idleTimer);
    this.end(new ConnectionLost('closed by the worker', this.opened));
    try {
      this.socket.socket.terminate();
    } catch {
      // already closed
    }
  }

  private send(event: RealtimeClientEvent): void {
    if (this.ended !== null) throw this.ended;
    this.socket.send(event);
  }

  /** The next server event `accepts` takes, or the session's end, or `idleMs` of silence. */
  private next(accepts: (event: RealtimeServerEvent) => boolean, idleMs: number): Promise<RealtimeServerEvent> {
    if (this.ended !== null) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      const abort = () => reject(this.connection.signal.reason);
      this.connection.signal.addEventListener('abort', abort, { once: true });
      const settle =
        <T>(action: (value: T) => void) =>
        (value: T) => {
          this.waiter = null;
          clearTimeout(this.idleTimer);
          this.connection.signal.removeEventListener('abort', abort);
          action(value);
        };
      this.waiter = { accepts, resolve: settle(resolve), reject: settle(reject) };
      this.armIdleTimer(idleMs);
    });
  }

  private armIdleTimer(idleMs: number): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.end(new ConnectionLost(`no event from the Realtime API for ${idleMs} ms`, this.opened));
      this.socket.socket.terminate();
    }, idleMs);
  }

  private end(error: Error): void {
    this.ended ??= error;
    this.waiter?.reject(this.ended);
  }

  private listen(): void {
    const { socket } = this;
    socket.on('event', (event) => {
      if (this.waiter !== null) this.armIdleTimer(this.connection.idleTimeoutMs);
      if (event.type === 'rate_limits.updated') {
        const exhausted = event.rate_limits.filter((limit) => limit.remaining === 0);
        this.exhaustedForMs =
          exhausted.length === 0 ? undefined : Math.max(...exhausted.map((limit) => (limit.reset_seconds ?? 0) * 1000));
      }
      for (const listener of this.listeners) listener(event);
      if (event.type === 'error') {
        const { error } = event;
        this.waiter?.reject(
          new RealtimeRefusal(`${error.type}${error.code ? ` ${error.code}` : ''}: ${error.message}`, {
            code: error.code ?? undefined,
            type: error.type,
            retryAfterMs: retryAfterInMessage(error.message),
            message: error.message,
          }),
        );
        return;
      }
      if (this.waiter?.accepts(event)) this.waiter.resolve(event);
    });
    // Error events reach the listener above; this one hears the transport's errors (and must exist, or
    // the client rethrows them as unhandled rejections).
    socket.on('error', (error) => {
      if (error.error === undefined) this.end(new ConnectionLost(error.message, this.opened));
    });
    socket.socket.on('close', (code) => this.end(new ConnectionLost(`connection closed (${code})`, this.opened)));
    socket.socket.on('unexpected-response', (request, response) => {
      void refusalOfHandshake(response).then((refusal) => {
        this.end(refusal);
        request.destroy();
        socket.socket.terminate();
      });
    });
  }
}

/** A handshake the API answered with an HTTP error instead of switching protocols. */
async function refusalOfHandshake(response: IncomingMessage): Promise<RealtimeRefusal> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response) chunks.push(chunk as Buffer);
  } catch {
    // The status says enough.
  }
  let error: { code?: string; type?: string; message?: string } | undefined;
  try {
    error = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: typeof error }).error;
  } catch {
    error = undefined;
  }
  const status = response.statusCode ?? 0;
  return new RealtimeRefusal(`HTTP ${status}${error?.message ? ` - ${error.message}` : ''}`, {
    status,
    code: error?.code,
    type: error?.type,
    retryAfterMs: parseRetryAfter(response.headers['retry-after']) ?? retryAfterInMessage(error?.message),
    message: error?.message,
  });
}
