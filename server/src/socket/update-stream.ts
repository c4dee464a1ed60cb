import pg from 'pg';
import {
  ACCOUNT_EVENTS_CHANNEL,
  ACCOUNT_UPDATES_CHANNEL,
  GENERATION_EVENTS_CHANNEL,
  parseAccountUpdate,
  parseGenerationEvent,
  type GenerationEvent,
} from '@mediagen/core';

export interface UpdateStreamLogger {
  warn(details: object, message: string): void;
}

interface Options {
  databaseUrl: string;
  onEvent(event: GenerationEvent): void;
  /** An account was closed, on whichever server: its sockets and tokens end here too. */
  onAccountClosed(uid: string): void;
  /** An account's plan or balance was changed by billing, an operator or a renewal. */
  onAccountUpdated(uid: string): void;
  /**
   * The connection was lost and is back: announcements made meanwhile never reached this process.
   * `since` is when the last one was heard (minus a margin), to replay the record from.
   */
  onResumed(since: Date): void;
  log: UpdateStreamLogger;
}

const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5000;
/** Announcements of transactions that committed just before the connection dropped may still be in flight. */
const REPLAY_MARGIN_MS = 5000;

/**
 * The lifecycle's announcements, heard on a PostgreSQL connection of its own (LISTEN). A lost connection
 * is made again with backoff, and what may have been missed meanwhile is replayed from the record.
 */
export class UpdateStream {
  private client: pg.Client | null = null;
  private listening = false;
  private stopped = false;
  private lastHeardAt = Date.now();
  private reconnectDelayMs = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: Options) {}

  /** Resolves once the first LISTEN is in place (rejects if the database cannot be reached). */
  async start(): Promise<void> {
    await this.connect();
  }

  isListening(): boolean {
    return this.listening;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl, application_name: 'mediagen-updates' });
    client.on('notification', (message) => {
      if (message.channel === ACCOUNT_EVENTS_CHANNEL) {
        const uid = closedAccountOf(message.payload);
        if (uid !== null) this.options.onAccountClosed(uid);
        return;
      }
      if (message.channel === ACCOUNT_UPDATES_CHANNEL) {
        const uid = parseAccountUpdate(message.payload);
        if (uid !== null) this.options.onAccountUpdated(uid);
        return;
      }
      if (message.channel !== GENERATION_EVENTS_CHANNEL) return;
      this.lastHeardAt = Date.now();
      const event = parseGenerationEvent(message.payload);
      if (event !== null) this.options.onEvent(event);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    this.client = client;
    await client.connect();
    await client.query(
      `listen ${GENERATION_EVENTS_CHANNEL}; listen ${ACCOUNT_EVENTS_CHANNEL}; listen ${ACCOUNT_UPDATES_CHANNEL}`,
    );
    this.listening = true;
    this.reconnectDelayMs = RECONNECT_MIN_MS;
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client || this.stopped) return;
    this.client = null;
    this.listening = false;
    void client.end().catch(() => undefined);
    this.options.log.warn({ err: error }, 'lost the update stream; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const since = new Date(this.lastHeardAt - REPLAY_MARGIN_MS);
    this.reconnectTimer = setTimeout(() => {
      this.connect().then(
        () => this.options.onResumed(since),
        (error: unknown) => {
          this.client?.removeAllListeners();
          void this.client?.end().catch(() => undefined);
          this.client = null;
          this.options.log.warn({ err: error }, 'update stream still unreachable');
          this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
          this.scheduleReconnect();
        },
      );
    }, this.reconnectDelayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.listening = false;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

function closedAccountOf(payload: string | undefined): string | null {
  try {
    const event = JSON.parse(payload ?? '') as { uid?: unknown; closed?: unknown };
    return typeof event.uid === 'string' && event.closed === true ? event.uid : null;
  } catch {
    return null;
  }
}
