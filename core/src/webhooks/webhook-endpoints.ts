import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_DELIVERIES_LISTED,
  WEBHOOK_TEST_EVENT_TYPE,
  type PlanCatalogue,
  type WebhookDeliveryView,
  type WebhookEndpointBody,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
  type WebhookEventType,
} from '@mediagen/shared';
import type { Database, WebhookEndpointsTable } from '../db/schema';
import { NEW_EVENT_ID } from './webhook-outbox';
import { SecretSealer, newSigningSecret } from './webhook-secrets';

export type EndpointRefusal = 'no-api-access' | 'too-many' | 'not-found' | 'disabled';
export type EndpointOutcome<T> = { ok: true; value: T } | { ok: false; reason: EndpointRefusal };

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function endpointView(row: Selectable<WebhookEndpointsTable>): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    createdAt: row.created_at.toISOString(),
    status: row.disabled_at === null ? 'active' : 'disabled',
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
  };
}

/**
 * A user's webhook endpoints, as the API manages them: registered (secret shown once), listed, deleted,
 * re-enabled, sent a test event, and their recent deliveries. Registering, re-enabling and testing need a
 * plan with API access (`apiAccess`); listing and deleting never do, so a user who left Enterprise can
 * still clean up.
 */
export class WebhookEndpoints {
  private readonly sealer: SecretSealer;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly plans: PlanCatalogue,
    secretKey: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.sealer = new SecretSealer(secretKey);
  }

  async hasApiAccess(uid: string): Promise<boolean> {
    const account = await this.db.selectFrom('accounts').select('plan').where('uid', '=', uid).executeTakeFirst();
    return account !== undefined && this.plans[account.plan].apiAccess;
  }

  /**
   * Registers an endpoint; the answer is the only time its secret is seen. The account row is locked while
   * counting, so two registrations at once cannot both take the last place.
   */
  async create(uid: string, body: Required<WebhookEndpointBody>): Promise<EndpointOutcome<WebhookEndpointCreated>> {
    return this.db.transaction().execute(async (trx) => {
      const account = await trx
        .selectFrom('accounts')
        .select('plan')
        .where('uid', '=', uid)
        .forUpdate()
        .executeTakeFirst();
      if (account === undefined || !this.plans[account.plan].apiAccess) return { ok: false, reason: 'no-api-access' };
      const { count } = await trx
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('uid', '=', uid)
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_WEBHOOK_ENDPOINTS) return { ok: false, reason: 'too-many' };
      const id = `ep_${randomBytes(16).toString('hex')}`;
      const secret = newSigningSecret();
      const row = await trx
        .insertInto('webhook_endpoints')
        .values({
          id,
          uid,
          url: body.url,
          description: body.description,
          events: body.events,
          secret_sealed: this.sealer.seal(id, secret),
          created_at: new Date(this.clock()),
          disabled_at: null,
          disabled_reason: null,
          failing_since: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ok: true, value: { ...endpointView(row), secret } };
    });
  }

  async list(uid: string): Promise<WebhookEndpointView[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('uid', '=', uid)
      .orderBy('created_at')
      .execute();
    return rows.map(endpointView);
  }

  /** Deletes the endpoint with its deliveries; those still queued find it gone and are dropped. */
  async remove(uid: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webhook_endpoints')
      .where('id', '=', id)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** A disabled endpoint back in service with a clean slate; what failed while it was disabled is not resent. */
  async reenable(uid: string, id: string): Promise<EndpointOutcome<WebhookEndpointView>> {
    if (!(await this.hasApiAccess(uid))) return { ok: false, reason: 'no-api-access' };
    const row = await this.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: null, disabled_reason: null, exhausted_in_row: 0, failing_since: null })
      .where('id', '=', id)
      .where('uid', '=', uid)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? { ok: false, reason: 'not-found' } : { ok: true, value: endpointView(row) };
  }

  /** Puts a test event in the outbox for the dispatcher, like an ending's: its id is the `webhook-id` sent. */
  async sendTest(uid: string, id: string): Promise<EndpointOutcome<{ id: string }>> {
    if (!(await this.hasApiAccess(uid))) return { ok: false, reason: 'no-api-access' };
    const endpoint = await this.db
      .selectFrom('webhook_endpoints')
      .select(['id', 'disabled_at'])
      .where('id', '=', id)
      .where('uid', '=', uid)
      .executeTakeFirst();
    if (endpoint === undefined) return { ok: false, reason: 'not-found' };
    if (endpoint.disabled_at !== null) return { ok: false, reason: 'disabled' };
    const event = await this.db
      .insertInto('webhook_events')
      .values({
        id: NEW_EVENT_ID,
        endpoint_id: id,
        type: WEBHOOK_TEST_EVENT_TYPE,
        generation: null,
        created_at: new Date(this.clock()),
        enqueued_at: null,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ok: true, value: { id: event.id } };
  }

  /** The endpoint's most recent deliveries, newest first, each with its attempts in order. */
  async deliveries(uid: string, id: string): Promise<WebhookDeliveryView[] | null> {
    const owned = await this.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('id', '=', id)
      .where('uid', '=', uid)
      .executeTakeFirst();
    if (owned === undefined) return null;
    const result = await sql<{
      id: string;
      type: string;
      generation_id: string | null;
      created_at: Date;
      state: WebhookDeliveryView['state'];
      attempts: {
        attemptedAt: string;
        ok: boolean;
        responseCode: number | null;
        error: string | null;
        durationMs: number;
      }[];
    }>`
      select e.id, e.type, e.generation->>'id' as generation_id, e.created_at, e.state,
        coalesce((select json_agg(json_build_object('attemptedAt', a.attempted_at, 'ok', a.ok,
            'responseCode', a.response_code, 'error', a.error, 'durationMs', a.duration_ms) order by a.id)
          from webhook_attempts a where a.event_id = e.id), '[]') as attempts
      from webhook_events e
      where e.endpoint_id = ${id}
      order by e.created_at desc, e.id
      limit ${WEBHOOK_DELIVERIES_LISTED}`.execute(this.db);
    return result.rows.map((row) => ({
      id: row.id,
      type: row.type,
      generationId: row.generation_id,
      createdAt: row.created_at.toISOString(),
      state: row.state,
      attempts: row.attempts.map((attempt) => ({
        ...attempt,
        attemptedAt: new Date(attempt.attemptedAt).toISOString(),
      })),
    }));
  }
}
