import pg from 'pg';
import { GENERATION_EVENTS_CHANNEL, parseGenerationEvent } from '@mediagen/core';

const ENDINGS = new Set(['completed', 'failed', 'canceled']);

/**
 * Rings when a generation ends, from the lifecycle's own announcements (LISTEN): the statement that ends
 * one writes its webhook events in the same transaction, and the announcement comes at its commit, so
 * they are there to dispatch. Best effort: while the connection is down nothing rings, and the
 * dispatcher's regular pass finds the events anyway; `ensure()` (called from that pass) connects again.
 */
export class EndingAlarm {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly ring: () => void,
    private readonly log: (message: string) => void,
  ) {}

  /** Connects and listens, unless already listening or on its way there; never throws. */
  ensure(): Promise<void> {
    if (this.stopped || this.client !== null) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'mediagen-webhook-alarm' });
    client.on('notification', (message) => {
      if (message.channel !== GENERATION_EVENTS_CHANNEL) return;
      const event = parseGenerationEvent(message.payload);
      if (event !== null && ENDINGS.has(event.status)) this.ring();
    });
    const drop = () => {
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    try {
      await client.connect();
      await client.query(`listen ${GENERATION_EVENTS_CHANNEL}`);
      if (this.stopped) {
        drop();
        return;
      }
      this.client = client;
    } catch (error) {
      drop();
      this.log(`webhook alarm not listening: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
