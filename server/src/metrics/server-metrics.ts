import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { GENERATION_KINDS, type GenerationKind } from '@mediagen/shared';
import { COUNTED_JOB_STATES } from '../queue/queue-inspector';

/** Delivery lag is a NOTIFY or a Redis message plus, at most, one read of the record; seconds mean trouble. */
const LAG_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsSources {
  /** BullMQ's job counts of one kind, read at each scrape. */
  jobCounts(kind: GenerationKind): Promise<Record<string, number>>;
  isPaused(kind: GenerationKind): Promise<boolean>;
}

/**
 * The server's Prometheus series, in a registry of its own (tests build several apps in one process).
 * Queue depth is read from Redis at scrape time; the rest is counted as it happens on this instance.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly quotaRefusals: Counter<'kind'>;
  readonly inFlightRefusals: Counter<'kind'>;
  readonly refunds: Counter<'kind'>;
  readonly billingWebhookRejections: Counter<'reason'>;
  readonly billingEvents: Counter<'type' | 'outcome'>;
  readonly deliveryLag: Histogram<'kind' | 'event'>;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private socketCount: () => number = () => 0;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });

    new Gauge({
      name: 'mediagen_queue_jobs',
      help: 'Jobs in each queue by state, read from Redis at scrape time',
      labelNames: ['kind', 'state'] as const,
      registers,
      async collect() {
        const counts = await Promise.all(GENERATION_KINDS.map((kind) => sources.jobCounts(kind)));
        GENERATION_KINDS.forEach((kind, index) => {
          for (const state of COUNTED_JOB_STATES) this.set({ kind, state }, counts[index]![state] ?? 0);
        });
      },
    });
    new Gauge({
      name: 'mediagen_queue_paused',
      help: '1 while a queue is paused (from the admin UI or the CLI): its waiting jobs do not start',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        const paused = await Promise.all(GENERATION_KINDS.map((kind) => sources.isPaused(kind)));
        GENERATION_KINDS.forEach((kind, index) => this.set({ kind }, paused[index] ? 1 : 0));
      },
    });
    this.quotaRefusals = new Counter({
      name: 'mediagen_quota_refusals_total',
      help: 'Submissions refused with 402 because the user has no token left of that kind',
      labelNames: ['kind'] as const,
      registers,
    });
    this.inFlightRefusals = new Counter({
      name: 'mediagen_in_flight_refusals_total',
      help: 'Submissions refused with 429 because the user already has MAX_IN_FLIGHT_PER_USER generations running',
      labelNames: ['kind'] as const,
      registers,
    });
    this.refunds = new Counter({
      name: 'mediagen_server_refunds_total',
      help: 'Tokens given back by the server (cancels); refunds for failures are counted by the worker',
      labelNames: ['kind'] as const,
      registers,
    });
    this.billingWebhookRejections = new Counter({
      name: 'mediagen_billing_webhook_rejections_total',
      help: 'Stripe webhook deliveries refused with 400 (bad or stale signature, unknown price, unknown customer)',
      labelNames: ['reason'] as const,
      registers,
    });
    this.billingEvents = new Counter({
      name: 'mediagen_billing_events_total',
      help: 'Stripe webhook events received, by type and what they did (applied, replayed, closed_account, ignored)',
      labelNames: ['type', 'outcome'] as const,
      registers,
    });
    const connectedSockets = () => this.socketCount();
    new Gauge({
      name: 'mediagen_sockets_connected',
      help: 'Socket.IO connections open on this server instance',
      registers,
      collect() {
        this.set(connectedSockets());
      },
    });
    this.deliveryLag = new Histogram({
      name: 'mediagen_event_delivery_lag_seconds',
      help: 'Time from a change (a transition committed, progress reported) to its generation:update being emitted',
      labelNames: ['kind', 'event'] as const,
      buckets: LAG_BUCKETS_SECONDS,
      registers,
    });
    this.httpRequests = new Counter({
      name: 'mediagen_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    });
  }

  countSocketsWith(count: () => number): void {
    this.socketCount = count;
  }

  /** Lag from when a change happened (a transition's commit, a progress report) to now. */
  observeDeliveryLag(kind: GenerationKind, status: string, happenedAtMs: number, now = Date.now()): void {
    if (!Number.isFinite(happenedAtMs) || happenedAtMs <= 0) return;
    this.deliveryLag.observe({ kind, event: status }, Math.max(0, now - happenedAtMs) / 1000);
  }
}
