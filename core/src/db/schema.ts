import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { GenerationKind, GenerationStatus, PlanId, TokenState } from '@mediagen/shared';

/**
 * The tables as Kysely sees them (kept in step with the migrations). PostgreSQL is the system of record
 * for generations, balances, the token ledger and idempotency keys; only the lifecycle module writes them.
 */
export interface Database {
  accounts: AccountsTable;
  generations: GenerationsTable;
  token_ledger: TokenLedgerTable;
  idempotency_keys: IdempotencyKeysTable;
  account_traces: AccountTracesTable;
  closed_accounts: ClosedAccountsTable;
  provider_spend_daily: ProviderSpendDailyTable;
  user_spend_daily: UserSpendDailyTable;
  spend_budgets: SpendBudgetsTable;
}

type Timestamp = ColumnType<Date, Date, Date>;

export interface AccountsTable {
  uid: string;
  /** When the current 30-day period began; balances refill to the allowance when it is over. */
  period_started_at: Timestamp;
  image_tokens: number;
  video_tokens: number;
  speech_tokens: number;
  /** Generations queued or active: the fair-use cap is checked against it in the same row as the charge. */
  in_flight: number;
  plan: ColumnType<PlanId, PlanId | undefined, PlanId>;
  created_at: Timestamp;
  /** The keyed hash of the owner's email (email-hash.ts) at their latest charge: the key of the trace closing leaves. */
  email_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface GenerationsTable {
  id: string;
  uid: string;
  kind: GenerationKind;
  status: GenerationStatus;
  /** Grows with every transition; clients keep the update with the highest. */
  version: number;
  /** The validated request without its kind, as the worker needs it (an image's seed already chosen). */
  request: ColumnType<Record<string, unknown>, string, string>;
  /** The prompt or the speech text, normalised. */
  prompt: string;
  token: TokenState;
  /** Provider calls that did, or may have done, paid work (a call answered with a refusal is taken back). */
  paid_calls: number;
  /** Times a worker took the generation (a retry or a takeover after a crash counts again). */
  attempts: number;
  provider_task_id: string | null;
  artifact_key: string | null;
  artifact_mime: string | null;
  artifact_bytes: ColumnType<number | null, number | null, number | null>;
  /** The original with the product mark, served while the owner's plan has the watermark. */
  marked_artifact_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** Estimated USD of the paid calls the providers accepted for it (numeric: read as a string). */
  cost_usd: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** When retention deleted the artifact of this completed generation (the record stays). */
  artifact_expired_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** What the creator reads of a failure. */
  error_code: string | null;
  error_message: string | null;
  /** The provider's exact answer behind a failure, keys masked: for operators only, never sent to the creator. */
  provider_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: ColumnType<Date | null, Date | null, Date | null>;
  provider_started_at: ColumnType<Date | null, Date | null, Date | null>;
  finished_at: ColumnType<Date | null, Date | null, Date | null>;
  /** A queued generation's place in its queue, as BullMQ orders it: its job's priority (lower runs first)… */
  queue_priority: ColumnType<number | null, number | null | undefined, number | null>;
  /** …then when it joined that level, from the `generations_queue_order` sequence (bigint: read as a string). */
  queue_order: ColumnType<string | null, string | null | undefined, string | null>;
}

export const LEDGER_MOVEMENTS = ['charge', 'refund', 'spend', 'period_reset', 'plan_change'] as const;
export type LedgerMovement = (typeof LEDGER_MOVEMENTS)[number];

export interface TokenLedgerTable {
  id: Generated<string>;
  uid: string;
  kind: GenerationKind;
  generation_id: string | null;
  movement: LedgerMovement;
  /** Tokens added to the balance: -1 for a charge, +1 for a refund, 0 for a spend, the refill for a reset. */
  amount: number;
  reason: string;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  uid: string;
  key: string;
  generation_id: string;
  body_hash: string;
  created_at: Timestamp;
}

export type GenerationRow = Selectable<GenerationsTable>;
export type NewGenerationRow = Insertable<GenerationsTable>;
export type AccountRow = Selectable<AccountsTable>;

/**
 * What a closed account leaves: the period it was in and what it had spent of each kind, under a keyed
 * hash of its email, so signing up again within the period does not bring the free tokens back.
 */
export interface AccountTracesTable {
  email_hash: string;
  period_started_at: Timestamp;
  image_spent: number;
  video_spent: number;
  speech_spent: number;
  closed_at: Timestamp;
}

/** The uid of every closed account: nothing of it is made again (checked where account rows are made). */
export interface ClosedAccountsTable {
  uid: string;
  closed_at: Timestamp;
}

/** Numeric columns come back from pg as strings (exact); they are written as numbers. */
type Usd = ColumnType<string, number | string, number | string>;

export interface ProviderSpendDailyTable {
  /** UTC day, as `YYYY-MM-DD`. */
  day: ColumnType<string, string, string>;
  provider: string;
  kind: GenerationKind;
  plan: PlanId;
  usd: Usd;
  calls: number;
}

export interface UserSpendDailyTable {
  uid: string;
  day: ColumnType<string, string, string>;
  usd: Usd;
}

export interface SpendBudgetsTable {
  /** `global` or a provider's name. */
  scope: string;
  daily_usd: Usd;
  updated_at: Timestamp;
}
