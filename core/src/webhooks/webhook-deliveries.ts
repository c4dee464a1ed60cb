import { sql, type Kysely } from 'kysely';
import { WEBHOOK_TEST_EVENT_TYPE, type Generation } from '@mediagen/shared';
import type { Database } from '../db/schema';
import { toRecord } from '../lifecycle/generation-record';
import { generationView, stateOfRecord } from '../views/generation-view';
import { submissionOf } from '../views/submission';
import { SecretSealer } from './webhook-secrets';

/** The Standard Webhooks envelope: `data` is the generation as the API returns it, with its `version`. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Generation | { endpointId: string; message: string };
}

/** An event ready to send: what to send, where, and the secret to sign it with. */
export interface PendingDelivery {
  eventId: string;
  endpointId: string;
  url: string;
  secret: string;
  payload: WebhookPayload;
}

export interface AttemptRecord {
  attemptedAt: Date;
  ok: boolean;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * How an attempt leaves its event: `retry` (another attempt will come), `delivered`, `exhausted` (its last
 * attempt failed), `gone` (410: the receiver asked us to stop, and the endpoint is disabled at once).
 */
export type AttemptOutcome = 'retry' | 'delivered' | 'exhausted' | 'gone';

export interface DisableRules {
  /** Deliveries in a row that used up every attempt before the endpoint is disabled. */
  exhaustedInRow: number;
  /** How long an endpoint may fail every delivery before it is disabled. */
  failingForMs: number;
}

const MAX_ERROR_LENGTH = 300;

/**
 * The worker's side of webhooks: the dispatcher takes events from the outbox, the delivery processor
 * reads one to send, records each attempt and what it means for the endpoint.
 */
export class WebhookDeliveries {
  private readonly sealer: SecretSealer;

  constructor(
    private readonly db: Kysely<Database>,
    secretKey: string,
    private readonly rules: DisableRules,
    private readonly clock: () => number = Date.now,
  ) {
    this.sealer = new SecretSealer(secretKey);
  }

  /**
   * Hands up to `limit` events not yet handed over to `handOver` (which queues them under their own ids), then
   * marks them handed over, in one transaction whose rows are locked (other dispatchers skip them). A crash
   * after `handOver` and before the commit hands them over again: the queue ignores a job id it already has.
   */
  async dispatch(limit: number, handOver: (eventIds: string[]) => Promise<void>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('webhook_events')
        .select('id')
        .where('enqueued_at', 'is', null)
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return 0;
      const ids = rows.map((row) => row.id);
      await handOver(ids);
      await trx
        .updateTable('webhook_events')
        .set({ enqueued_at: new Date(this.clock()) })
        .where('id', 'in', ids)
        .execute();
      return ids.length;
    });
  }

  /**
   * The event to send now, or why not: `finished` (delivered or given up on already: a job handed over twice),
   * `gone` (the event or its endpoint was deleted), `disabled` (the endpoint was disabled meanwhile).
   */
  async pending(
    eventId: string,
    artifactUrl: (key: string) => string,
  ): Promise<{ ok: true; delivery: PendingDelivery } | { ok: false; reason: 'finished' | 'gone' | 'disabled' }> {
    const row = await this.db
      .selectFrom('webhook_events as e')
      .innerJoin('webhook_endpoints as p', 'p.id', 'e.endpoint_id')
      .select(['e.id', 'e.type', 'e.generation', 'e.created_at', 'e.state', 'p.id as endpoint_id', 'p.url'])
      .select(['p.secret_sealed', 'p.disabled_at'])
      .where('e.id', '=', eventId)
      .executeTakeFirst();
    if (row === undefined) return { ok: false, reason: 'gone' };
    if (row.state !== 'pending') return { ok: false, reason: 'finished' };
    if (row.disabled_at !== null) return { ok: false, reason: 'disabled' };
    const data =
      row.generation === null
        ? { endpointId: row.endpoint_id, message: 'A test event from MediaGen: this endpoint receives webhooks.' }
        : generationData(row.generation, artifactUrl);
    return {
      ok: true,
      delivery: {
        eventId: row.id,
        endpointId: row.endpoint_id,
        url: row.url,
        secret: this.sealer.open(row.endpoint_id, row.secret_sealed),
        payload: { type: row.type, timestamp: row.created_at.toISOString(), data },
      },
    };
  }

  /**
   * Records an attempt and what it means: the event's state, and the endpoint's health. A delivery clears the
   * endpoint's failing streak; a delivery whose attempts ran out adds to it, and the streak disables the
   * endpoint once it is `exhaustedInRow` long or older than `failingForMs`; a 410 disables it at once. The
   * reason and time are what the owner sees on the endpoint list. Returns the reason when it disabled it.
   */
  async record(eventId: string, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const event =
        outcome === 'retry'
          ? await trx
              .selectFrom('webhook_events')
              .select(['endpoint_id', 'type', 'created_at'])
              .where('id', '=', eventId)
              .executeTakeFirst()
          : await trx
              .updateTable('webhook_events')
              .set({ state: outcome === 'delivered' ? 'delivered' : 'failed', finished_at: attempt.attemptedAt })
              .where('id', '=', eventId)
              .returning(['endpoint_id', 'type', 'created_at'])
              .executeTakeFirst();
      if (event === undefined) return null;
      await trx
        .insertInto('webhook_attempts')
        .values({
          event_id: eventId,
          attempted_at: attempt.attemptedAt,
          ok: attempt.ok,
          response_code: attempt.responseCode,
          error: attempt.error === null ? null : attempt.error.slice(0, MAX_ERROR_LENGTH),
          duration_ms: attempt.durationMs,
        })
        .execute();
      // A test event says whether the receiver works; it does not count towards disabling it.
      if (outcome === 'retry' || event.type === WEBHOOK_TEST_EVENT_TYPE) return null;
      if (outcome === 'delivered') {
        await trx
          .updateTable('webhook_endpoints')
          .set({ exhausted_in_row: 0, failing_since: null })
          .where('id', '=', event.endpoint_id)
          .execute();
        return null;
      }
      const now = new Date(this.clock());
      const failingSince = new Date(now.getTime() - this.rules.failingForMs);
      const reason =
        outcome === 'gone'
          ? sql<string>`'The endpoint answered 410 Gone.'`
          : sql<string>`case when exhausted_in_row + 1 >= ${this.rules.exhaustedInRow}
              then ${`${this.rules.exhaustedInRow} deliveries in a row failed every attempt.`}
              when coalesce(failing_since, ${event.created_at}) <= ${failingSince}
              then 'Every delivery failed for more than a day.' end`;
      const updated = await trx
        .updateTable('webhook_endpoints')
        .set({
          exhausted_in_row: sql`exhausted_in_row + 1`,
          failing_since: sql`coalesce(failing_since, ${event.created_at})`,
          disabled_reason: sql`coalesce(disabled_reason, ${reason})`,
          disabled_at: sql`case when disabled_at is null and ${reason} is not null then ${now} else disabled_at end`,
        })
        .where('id', '=', event.endpoint_id)
        .returning(['disabled_at', 'disabled_reason'])
        .executeTakeFirst();
      return updated?.disabled_at?.getTime() === now.getTime() ? updated.disabled_reason : null;
    });
  }

  /** An event that will not be sent (its endpoint disabled meanwhile): failed, with no attempt. */
  async abandon(eventId: string): Promise<void> {
    await this.db
      .updateTable('webhook_events')
      .set({ state: 'failed', finished_at: new Date(this.clock()) })
      .where('id', '=', eventId)
      .where('state', '=', 'pending')
      .execute();
  }
}

/** The generation row an ending left, as the API shows it (GET /api/generations/:id). */
function generationData(row: Record<string, unknown>, artifactUrl: (key: string) => string): Generation {
  const record = toRecord(row);
  return generationView(stateOfRecord(record), submissionOf(record.kind, record.prompt, record.request), artifactUrl);
}
