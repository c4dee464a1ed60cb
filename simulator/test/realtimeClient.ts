import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { createDevelopmentCertificate, type Simulator, type SimulatorOptions } from '../src/index';
import { startSimulator } from './helpers';

/** One certificate for the whole file: making one per test would only slow the tests down. */
const certificate = createDevelopmentCertificate();

export function testCertificate() {
  return certificate;
}

export const REALTIME_MODEL = 'gpt-realtime-2.1-mini';
export const AUTHORIZATION = { Authorization: 'Bearer test-key' };

/** A simulator with the Realtime API on a random TLS port, closed after the test. */
export async function startRealtimeSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ ...options, tls: await certificate });
}

export function realtimeUrl(simulator: Simulator, model: string | null = REALTIME_MODEL): string {
  const url = new URL('/v1/realtime', simulator.secureUrl.replace(/^https/, 'wss'));
  if (model !== null) url.searchParams.set('model', model);
  return url.toString();
}

/** The options the worker passes the openai package's OpenAIRealtimeWS: trust the simulator's certificate. */
export async function clientOptions(headers: Record<string, string> = AUTHORIZATION): Promise<WebSocket.ClientOptions> {
  return { ca: (await certificate).cert, headers };
}

export interface ServerEvent {
  type: string;
  event_id: string;
  [field: string]: unknown;
}

const open = new Set<WebSocket>();

afterEach(() => {
  for (const socket of open) socket.terminate();
  open.clear();
});

/**
 * A Realtime client for tests: keeps every event the server sent, in order, and hands them out by
 * type, each event once (`next`), so a test reads a session like a transcript.
 */
export class RealtimeTestClient {
  readonly events: ServerEvent[] = [];
  /** Text frames that were not JSON. */
  readonly unparsable: string[] = [];
  readonly closed: Promise<number>;
  private readonly taken = new Set<ServerEvent>();
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    open.add(socket);
    socket.on('message', (data) => {
      const text = String(data);
      try {
        this.events.push(JSON.parse(text) as ServerEvent);
      } catch {
        this.unparsable.push(text);
      }
      for (const wake of this.waiters) wake();
    });
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
    socket.on('error', () => undefined);
  }

  /** Connects and waits for session.created. */
  static async connect(simulator: Simulator, model: string = REALTIME_MODEL): Promise<RealtimeTestClient> {
    const client = await RealtimeTestClient.open(simulator, model);
    await client.next('session.created');
    return client;
  }

  /** Connects without waiting for any event. */
  static async open(simulator: Simulator, model: string | null = REALTIME_MODEL): Promise<RealtimeTestClient> {
    const socket = new WebSocket(realtimeUrl(simulator, model), await clientOptions());
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new RealtimeTestClient(socket);
  }

  send(event: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(event));
  }

  /**
   * The first event of this type not handed out yet, waiting for it if need be. The default is a hang guard:
   * a 4,000-character reading took over 5 s on a loaded 2-core host.
   */
  async next(type: string, timeoutMs = 30_000): Promise<ServerEvent> {
    const found = await this.waitUntil(
      () => this.events.find((event) => event.type === type && !this.taken.has(event)),
      timeoutMs,
      type,
    );
    this.taken.add(found);
    return found;
  }

  /** Resolves with the value once `probe` finds one; rejects after the timeout, naming what it waited for. */
  waitUntil<T>(probe: () => T | undefined, timeoutMs: number, waitingFor: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (value === undefined) return;
        cleanUp();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanUp();
        reject(
          new Error(
            `no ${waitingFor} within ${timeoutMs} ms; got ${this.events.map((event) => event.type).join(', ')}`,
          ),
        );
      }, timeoutMs);
      const cleanUp = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Sends a session.update and answers the session.updated that confirms it. */
  async updateSession(session: Record<string, unknown>): Promise<ServerEvent> {
    this.send({ type: 'session.update', session: { type: 'realtime', ...session } });
    return this.next('session.updated');
  }

  /** Sends a response.create and collects the response to its response.done. */
  async respond(response?: Record<string, unknown>): Promise<CollectedResponse> {
    this.send(response === undefined ? { type: 'response.create' } : { type: 'response.create', response });
    const created = await this.next('response.created');
    const done = await this.next('response.done');
    return collect(this.events, created, done);
  }

  close(): void {
    this.socket.close();
  }
}

export interface CollectedResponse {
  id: string;
  /** Every event from response.created to response.done, in order. */
  events: ServerEvent[];
  audio: Buffer;
  transcriptFromDeltas: string;
  transcript: string | undefined;
  done: { response: Record<string, unknown> & { status: string; usage: Usage | null } };
}

export interface Usage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  output_token_details: { text_tokens: number; audio_tokens: number };
}

function collect(all: ServerEvent[], created: ServerEvent, done: ServerEvent): CollectedResponse {
  const id = (created.response as { id: string }).id;
  const events = all.slice(all.indexOf(created), all.indexOf(done) + 1);
  const ofResponse = (type: string) => events.filter((event) => event.type === type && event.response_id === id);
  const transcriptDone = ofResponse('response.output_audio_transcript.done')[0];
  return {
    id,
    events,
    audio: Buffer.concat(
      ofResponse('response.output_audio.delta').map((event) => Buffer.from(String(event.delta), 'base64')),
    ),
    transcriptFromDeltas: ofResponse('response.output_audio_transcript.delta')
      .map((event) => String(event.delta))
      .join(''),
    transcript: transcriptDone === undefined ? undefined : String(transcriptDone.transcript),
    done: done as unknown as CollectedResponse['done'],
  };
}

/** The worker's out-of-band reading of one part: its own input, kept out of the conversation. */
export function readingRequest(text: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    conversation: 'none',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `<text>\n${text}\n</text>` }] }],
    output_modalities: ['audio'],
    instructions: 'Read the text between <text> and </text> aloud, word for word.',
    metadata: { part: '1' },
    ...overrides,
  };
}

/** The handshake refused over HTTP: its status, headers and JSON body. */
export async function refusedHandshake(
  simulator: Simulator,
  headers: Record<string, string> = AUTHORIZATION,
  url = realtimeUrl(simulator),
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: unknown }> {
  const socket = new WebSocket(url, await clientOptions(headers));
  open.add(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => reject(new Error('the handshake was accepted')));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(body) as unknown }),
      );
    });
  });
}
