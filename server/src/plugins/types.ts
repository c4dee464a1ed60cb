import type { Redis } from 'ioredis';
import type {
  ArtifactStore,
  GenerationJobOwner,
  GenerationReads,
  RecordDatabase,
  SalesRequests,
  SpendControls,
  SpendLedger,
  SupportMailer,
  SupportRequests,
  ArtifactUrlSigner,
  WebhookEndpoints,
} from '@mediagen/core';
import type { AccountService } from '../account/account-service';
import type { BillingService } from '../billing/billing-service';
import type { PlanService } from '../account/plan-service';
import type { CookieSessions } from '../auth/cookie-sessions';
import type { AuthUser, IdentityVerifier } from '../auth/identity-verifier';
import type { ArtifactVariants } from '../artifacts/artifact-variants';
import type { ServerConfig } from '../config';
import type { GenerationService } from '../generations/generation-service';
import type { GenerationWatchers } from '../generations/generation-watchers';
import type { QueueInspector } from '../queue/queue-inspector';
import type { SocketGateway } from '../socket/socket-gateway';
import type { SocketPresence } from '../socket/socket-presence';
import type { UpdateStream } from '../socket/update-stream';

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    /** The time source (ms since the epoch) of quotas, sessions and sign-in ages; tests move it. */
    clock(): number;
    identity: IdentityVerifier;
    database: RecordDatabase;
    /** Every read of the record's tables: nothing in the server queries them itself. */
    reads: GenerationReads;
    /** The producer connection: fails fast while Redis is down. */
    redis: Redis;
    /** Adds, moves, withdraws and forgets generations' jobs and files: nothing else changes them. */
    jobs: GenerationJobOwner;
    inspector: QueueInspector;
    generations: GenerationService;
    plans: PlanService;
    spend: { ledger: SpendLedger; controls: SpendControls };
    artifactUrls: ArtifactUrlSigner;
    /** Where results are kept: served at their signed links (deleted only through `jobs`). */
    artifactStore: ArtifactStore;
    artifactVariants: ArtifactVariants;
    adminSessions: CookieSessions;
    /** The app's sessions opened by token sync (POST /api/session). */
    appSessions: CookieSessions;
    /** The keyed hash of an email a closed account's trace is kept under (core's emailHash). */
    emailHash(email: string | null): string | null;
    accounts: AccountService;
    sockets: SocketGateway;
    /** Event streams and `Prefer: wait` submissions following a generation on this instance. */
    watchers: GenerationWatchers;
    /** How many event streams each user holds across every server (capped like sockets). */
    streamPresence: SocketPresence;
    /** The support form's requests, and how operators' replies leave. */
    support: { requests: SupportRequests; mailer: SupportMailer };
    /** Checkout, the portal and Stripe's webhook events (server/src/billing). */
    billing: BillingService;
    /** Enterprise's Contact Sales requests. */
    sales: SalesRequests;
    updates: UpdateStream;
    /** Users' webhook endpoints and their deliveries (the workers send them). */
    webhooks: WebhookEndpoints;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every /api route; null elsewhere. */
    user: AuthUser | null;
    /** The identity service could not say whether the bearer token is good (it was down, not the token). */
    identityUnavailable: boolean;
    /** The admin behind an /admin/api request, once the admin check let it in; null elsewhere. */
    adminUid: string | null;
  }
}
