import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import {
  DAY_MS,
  DEFAULT_PLAN_RULES,
  MAX_API_KEYS_PER_ACCOUNT,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
  type PlanCatalogue,
  type PlanId,
} from '@mediagen/shared';
import type { ApiKeysTable, Database } from '../db/schema';
import { withAccountLock } from '../lifecycle/account-lock';
import { hasValidChecksum, newApiKeySecret } from './api-key-format';

/** last_used_at moves at most this often: using a key is a read, and a write once a minute at most. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface NewApiKey {
  name: string;
  scopes: ApiKeyScope[];
  expiresInDays?: number | undefined;
}

export type ApiKeyCreation =
  | { outcome: 'created'; key: CreatedApiKey }
  /** The owner's plan has no API access (plan rule `apiAccess`). */
  | { outcome: 'no-api-access' }
  /** MAX_API_KEYS_PER_ACCOUNT live keys already. */
  | { outcome: 'too-many' }
  /** The account was closed: nothing of it is made again. */
  | { outcome: 'closed' };

/** A key that may act now, and whether its owner's plan allows the API at this moment. */
export interface VerifiedApiKey {
  id: string;
  uid: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  expiresAt: Date | null;
  /**
   * False once the owner's plan has no API access: the key is kept (an upgrade brings it back) and the
   * caller refuses what it asks.
   */
  planAllowsApi: boolean;
}

export interface ApiKeysOptions {
  /** API_KEY_HMAC_SECRET: the same on every server. */
  hmacSecret: string;
  plans?: PlanCatalogue;
  clock?: () => number;
}

/** An account without a row yet is on the default plan, as everywhere. */
const DEFAULT_PLAN: PlanId = 'free';

const toView = (row: Selectable<ApiKeysTable>): ApiKey => ({
  id: row.id,
  name: row.name,
  lastFour: row.last_four,
  scopes: row.scopes,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  expiresAt: row.expires_at?.toISOString() ?? null,
});

/**
 * Personal API keys, the only code that reads or writes `api_keys`. A key is stored as its
 * HMAC-SHA-256 under the server's secret (fast enough to check on every request, unlike a password
 * hash, and useless to whoever reads the table without the secret); the key itself is answered once, at
 * creation. Revocation, expiry and account closure take effect on the next request on every server,
 * because every request reads the key's row (see `verify`).
 */
export class ApiKeys {
  private readonly plans: PlanCatalogue;
  private readonly clock: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: ApiKeysOptions,
  ) {
    this.plans = options.plans ?? DEFAULT_PLAN_RULES;
    this.clock = options.clock ?? Date.now;
  }

  private hash(key: string): string {
    return createHmac('sha256', this.options.hmacSecret).update(key).digest('hex');
  }

  private allowsApi(plan: PlanId | null | undefined): boolean {
    return this.plans[plan ?? DEFAULT_PLAN].apiAccess;
  }

  /**
   * Under the uid's account lock, which closing the account takes too: the cap cannot be overrun by two
   * creations at once, and no key is made for an account closed meanwhile.
   */
  async create(uid: string, request: NewApiKey): Promise<ApiKeyCreation> {
    const now = new Date(this.clock());
    const secret = newApiKeySecret();
    return withAccountLock(this.db, uid, async (trx) => {
      const closed = await trx.selectFrom('closed_accounts').select('uid').where('uid', '=', uid).executeTakeFirst();
      if (closed !== undefined) return { outcome: 'closed' };
      const account = await trx.selectFrom('accounts').select('plan').where('uid', '=', uid).executeTakeFirst();
      if (!this.allowsApi(account?.plan)) return { outcome: 'no-api-access' };
      const { live } = await trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string>().as('live'))
        .where('uid', '=', uid)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirstOrThrow();
      if (Number(live) >= MAX_API_KEYS_PER_ACCOUNT) return { outcome: 'too-many' };
      const row = await trx
        .insertInto('api_keys')
        .values({
          id: randomUUID(),
          uid,
          name: request.name,
          secret_hash: this.hash(secret),
          last_four: secret.slice(-4),
          scopes: request.scopes,
          expires_at:
            request.expiresInDays === undefined ? null : new Date(now.getTime() + request.expiresInDays * DAY_MS),
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { outcome: 'created', key: { ...toView(row), secret } };
    });
  }

  /**
   * The account's keys not revoked (expired ones too, until revoked), newest first, and whether its plan
   * allows the API now: keys kept from a plan that did can still be listed and revoked.
   */
  async list(uid: string): Promise<{ apiAccess: boolean; keys: ApiKey[] }> {
    const account = await this.db.selectFrom('accounts').select('plan').where('uid', '=', uid).executeTakeFirst();
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('uid', '=', uid)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return { apiAccess: this.allowsApi(account?.plan), keys: rows.map(toView) };
  }

  /** Whether a key of the account was revoked now; false for an unknown one, another's, or one revoked before. */
  async revoke(uid: string, id: string): Promise<boolean> {
    const row = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date(this.clock()) })
      .where('id', '=', id)
      .where('uid', '=', uid)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The key, if it may act now; null for a malformed, unknown, revoked or expired one, alike. A key whose
   * checksum fails is refused before any read. Otherwise one indexed read by hash, on every request, with
   * no cache: revocation then needs no message between servers, and the read is a unique-index lookup
   * joined to the owner's account row by its primary key, well under a millisecond beside the ID token
   * check it replaces.
   */
  async verify(key: string): Promise<VerifiedApiKey | null> {
    if (!hasValidChecksum(key)) return null;
    const hash = this.hash(key);
    const row = await this.db
      .selectFrom('api_keys')
      .leftJoin('accounts', 'accounts.uid', 'api_keys.uid')
      .select([
        'api_keys.id',
        'api_keys.uid',
        'api_keys.secret_hash',
        'api_keys.scopes',
        'api_keys.created_at',
        'api_keys.expires_at',
        'api_keys.revoked_at',
        'api_keys.last_used_at',
        'accounts.plan',
      ])
      .where('api_keys.secret_hash', '=', hash)
      .executeTakeFirst();
    const now = this.clock();
    if (row === undefined) return null;
    // The index found it by equality; the comparison that decides is constant-time all the same.
    if (!timingSafeEqual(Buffer.from(row.secret_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at.getTime() <= now)) return null;
    if (row.last_used_at === null || now - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.db
        .updateTable('api_keys')
        .set({ last_used_at: new Date(now) })
        .where('id', '=', row.id)
        .where((eb) =>
          eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', new Date(now - LAST_USED_RESOLUTION_MS))]),
        )
        .execute();
    }
    return {
      id: row.id,
      uid: row.uid,
      scopes: row.scopes,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      planAllowsApi: this.allowsApi(row.plan),
    };
  }
}
