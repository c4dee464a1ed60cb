import Stripe from 'stripe';

export interface WebhookEndpoint {
  url: string;
  /** The endpoint's signing secret (`whsec_…`), as the receiver's `constructEvent` is given it. */
  secret: string;
}

/** The retry schedule, compressed from Stripe's (up to three days) to fit development and tests. */
export interface WebhookRetry {
  /** Wait before the first retry; each later wait doubles. */
  initialMs: number;
  /** The longest wait between two attempts. */
  maxMs: number;
}

/** How events go out: each twice (both at once), or held until released. */
export interface WebhookDeliveryMode {
  duplicates: boolean;
  hold: boolean;
}

export const RELEASE_ORDERS = ['sent', 'reversed', 'shuffled'] as const;
export type ReleaseOrder = (typeof RELEASE_ORDERS)[number];

export interface DeliveryAttempt {
  /** Which copy of the event this attempt carried: 1, or 2 for a duplicate, and up for each re-send. */
  copy: number;
  /** 1 for the first try of a copy, then 2, 3… for its retries. */
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when it never answered. */
  status: number | null;
  /** Why there was no answer (refused, timed out). */
  error?: string;
}

export interface EventDeliveries {
  event: Stripe.Event;
  /** Waiting for a release. */
  held: boolean;
  /** At least one copy was answered with a 2xx. */
  delivered: boolean;
  attempts: DeliveryAttempt[];
}

interface WebhookDispatcherDeps {
  endpoint: WebhookEndpoint | undefined;
  retry: WebhookRetry;
  timeoutMs: number;
  log(message: string): void;
}

/**
 * Sends each event to the endpoint as Stripe does: a JSON POST signed in `Stripe-Signature`, retried
 * with backoff after any non-2xx or no answer for as long as the simulator runs (at least once, so
 * sometimes more). Deliveries run in the background and never hold up the API answer that caused them.
 */
export class WebhookDispatcher {
  private readonly log: EventDeliveries[] = [];
  private readonly byId = new Map<string, EventDeliveries>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private endpoint: WebhookEndpoint | undefined;
  private mode: WebhookDeliveryMode = { duplicates: false, hold: false };
  private closed = false;

  constructor(private readonly deps: WebhookDispatcherDeps) {
    this.endpoint = deps.endpoint;
  }

  get currentEndpoint(): WebhookEndpoint | undefined {
    return this.endpoint;
  }

  /** Events already sent keep their copies going to the old endpoint; new ones go to this. */
  setEndpoint(endpoint: WebhookEndpoint | undefined): void {
    this.endpoint = endpoint;
  }

  get currentMode(): WebhookDeliveryMode {
    return { ...this.mode };
  }

  setMode(mode: Partial<WebhookDeliveryMode>): void {
    this.mode = { ...this.mode, ...mode };
  }

  publish(event: Stripe.Event): void {
    const record: EventDeliveries = { event, held: this.mode.hold, delivered: false, attempts: [] };
    this.log.push(record);
    this.byId.set(event.id, record);
    if (!record.held) this.send(record, this.mode.duplicates ? 2 : 1);
  }

  /** Sends every held event, in the order asked for; returns their ids in that order. */
  release(order: ReleaseOrder): string[] {
    const held = this.log.filter((record) => record.held);
    const ordered = order === 'sent' ? held : order === 'reversed' ? held.reverse() : shuffle(held);
    for (const record of ordered) {
      record.held = false;
      this.send(record, this.mode.duplicates ? 2 : 1);
    }
    return ordered.map((record) => record.event.id);
  }

  /** Sends the event once more, as the Dashboard's "Resend" does; false for an unknown id. */
  resend(eventId: string): boolean {
    const record = this.byId.get(eventId);
    if (record === undefined) return false;
    record.held = false;
    this.send(record, 1);
    return true;
  }

  deliveries(): EventDeliveries[] {
    return this.log.map((record) => ({ ...record, attempts: [...record.attempts] }));
  }

  find(eventId: string): Stripe.Event | undefined {
    return this.byId.get(eventId)?.event;
  }

  /** Stops retrying and abandons requests under way: the events' state dies with the simulator. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
  }

  private send(record: EventDeliveries, copies: number): void {
    const endpoint = this.endpoint;
    if (endpoint === undefined || this.closed) return;
    const firstCopy = Math.max(0, ...record.attempts.map((attempt) => attempt.copy)) + 1;
    for (let copy = firstCopy; copy < firstCopy + copies; copy += 1) {
      void this.attempt(record, endpoint, copy, 1);
    }
  }

  private async attempt(record: EventDeliveries, endpoint: WebhookEndpoint, copy: number, attempt: number) {
    if (this.closed) return;
    const outcome = await this.post(record.event, endpoint);
    if (this.closed) return;
    record.attempts.push({ copy, attempt, at: new Date().toISOString(), ...outcome });
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
      record.delivered = true;
      return;
    }
    const waitMs = Math.min(this.deps.retry.initialMs * 2 ** (attempt - 1), this.deps.retry.maxMs);
    this.deps.log(
      `stripe: ${record.event.type} ${record.event.id} to ${endpoint.url}: ${outcome.error ?? `HTTP ${outcome.status}`}; retrying in ${waitMs} ms`,
    );
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(record, endpoint, copy, attempt + 1);
    }, waitMs);
    this.timers.add(timer);
  }

  private async post(
    event: Stripe.Event,
    endpoint: WebhookEndpoint,
  ): Promise<Pick<DeliveryAttempt, 'status' | 'error'>> {
    // Stripe signs every attempt anew, so a retry carries a fresh timestamp within the receiver's tolerance.
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: endpoint.secret });
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(this.deps.timeoutMs)]),
      });
      await response.body?.cancel();
      return { status: response.status };
    } catch (error) {
      return { status: null, error: describeFailure(error) };
    } finally {
      this.inFlight.delete(controller);
    }
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code ?? (error instanceof Error ? error.message : String(error));
}

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
