import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type {
  ApiKeyScope,
  BillingPeriod,
  ContentCredentialsSummary,
  GenerationKind,
  PaidPlanId,
  PlanSource,
  SalesVolume,
  GenerationStatus,
  PlanId,
  SupportStatus,
  SupportTopic,
  TokenState,
} from '@mediagen/shared';

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
  support_requests: SupportRequestsTable;
  billing_customers: BillingCustomersTable;
  billing_subscriptions: BillingSubscriptionsTable;
  billing_events: BillingEventsTable;
  billing_trials: BillingTrialsTable;
  billing_cancellations: BillingCancellationsTable;
  billing_closed_customers: BillingClosedCustomersTable;
  sales_requests: SalesRequestsTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
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
  /** Who set the plan last (a billing event, an operator, or nobody yet), and why: the event id or the reason. */
  plan_source: ColumnType<PlanSource, PlanSource | undefined, PlanSource>;
  plan_reason: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Tokens charged together at submit: one per image of an image set, else 1. */
  token_count: ColumnType<number, number | undefined, number>;
  /** How many of them the ending gave back (an image not made's, filtered or failed, or all of them); 0 while held. */
  tokens_returned: ColumnType<number, number | undefined, number>;
  /** Every output in order (RecordedOutput[]); null for a generation of one file, which `artifact_key` holds. */
  outputs: ColumnType<unknown[] | null, string | null | undefined, string | null>;
  /** What the first file's C2PA manifests say (ContentCredentialsSummary); null when stored unsigned. */
  content_credentials: ColumnType<ContentCredentialsSummary | null, string | null | undefined, string | null>;
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
  /** The submission's W3C traceparent when it was traced and sampled (tracing/spans.ts), else null. */
  trace_parent: ColumnType<string | null, string | null | undefined, string | null>;
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

/** What the support form received, and how an operator answered it (core/src/support/). */
export interface SupportRequestsTable {
  id: Generated<number>;
  created_at: Timestamp;
  /** The sender's account when signed in; null for a visitor. */
  uid: string | null;
  email: string;
  topic: SupportTopic;
  /** Plain text, as sent; never rendered as HTML. */
  message: string;
  status: ColumnType<SupportStatus, SupportStatus | undefined, SupportStatus>;
  answered_at: Timestamp | null;
  /** The admin's uid, or the operator the queue CLI names. */
  answered_by: string | null;
  /** What was emailed back; null when marked answered without a reply. */
  reply: string | null;
}

/** Each account's one Stripe customer (core/src/billing/), made once at its first checkout. */
export interface BillingCustomersTable {
  uid: string;
  customer_id: string;
  /** The owner's email hash at checkout: the trial mark is kept under it. */
  email_hash: string | null;
  created_at: Timestamp;
}

/** A subscription as last read from Stripe (never from an event's payload). */
export interface BillingSubscriptionsTable {
  subscription_id: string;
  uid: string;
  customer_id: string;
  price_id: string;
  plan: PaidPlanId;
  period: BillingPeriod;
  /** Stripe's status, as Stripe spells it. */
  status: string;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  cancel_at_period_end: boolean;
  /** The plan it becomes at `current_period_end` (canceled: free); null when it renews as it is. */
  pending_plan: PlanId | null;
  /** When it was first seen past due: the grace period counts from here. */
  past_due_since: Timestamp | null;
  /** The billing period whose fresh allowance was given: a renewal counts once per period. */
  renewed_period_start: Timestamp;
  recorded_at: Timestamp;
  updated_at: Timestamp;
}

/** Webhook events already applied, each recorded in the transaction of its effect. */
export interface BillingEventsTable {
  event_id: string;
  type: string;
  uid: string | null;
  processed_at: Timestamp;
}

/** A trial given, under the person's email hash: kept when the account closes, like its trace. */
export interface BillingTrialsTable {
  email_hash: string;
  subscription_id: string;
  started_at: Timestamp;
}

/** A closed account's live subscriptions, canceled at Stripe after the closure's commit (until done). */
export interface BillingCancellationsTable {
  subscription_id: string;
  customer_id: string;
  requested_at: Timestamp;
  canceled_at: Timestamp | null;
}

/** The Stripe customers of closed accounts: a late event of theirs cancels, never changes a plan. */
export interface BillingClosedCustomersTable {
  customer_id: string;
  closed_at: Timestamp;
}

/** Enterprise's Contact Sales requests (core/src/billing/sales-requests.ts). */
export interface SalesRequestsTable {
  id: Generated<number>;
  created_at: Timestamp;
  uid: string | null;
  email: string;
  company: string;
  volume: SalesVolume;
  /** Plain text, as sent; never rendered as HTML. */
  message: string;
}

/** Personal API keys (core/src/api-keys/): the keyed hash of each, never the key itself. */
export interface ApiKeysTable {
  id: string;
  uid: string;
  name: string;
  /** HMAC-SHA-256 of the whole key under API_KEY_HMAC_SECRET, hex. */
  secret_hash: string;
  last_four: string;
  scopes: ApiKeyScope[];
  expires_at: Timestamp | null;
  created_at: Timestamp;
  /** Written at most once a minute per key, so using a key is not a write per request. */
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A user's webhook endpoint (core/src/webhooks/): the secret sealed with WEBHOOK_SECRET_KEY. */
export interface WebhookEndpointsTable {
  id: string;
  uid: string;
  url: string;
  description: string;
  events: string[];
  secret_sealed: string;
  created_at: Timestamp;
  disabled_at: Timestamp | null;
  disabled_reason: string | null;
  exhausted_in_row: ColumnType<number, number | undefined, number>;
  failing_since: Timestamp | null;
}

/** One event for one endpoint: the outbox row and its delivery's state. */
export interface WebhookEventsTable {
  id: string;
  endpoint_id: string;
  type: string;
  generation: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: Timestamp;
  enqueued_at: Timestamp | null;
  state: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | undefined, 'pending' | 'delivered' | 'failed'>;
  finished_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  event_id: string;
  attempted_at: Timestamp;
  ok: boolean;
  response_code: number | null;
  error: string | null;
  duration_ms: number;
}
