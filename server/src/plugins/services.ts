import type { Server } from 'node:http';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import {
  GenerationLifecycle,
  SupportRequests,
  WebhookEndpoints,
  createSupportMailer,
  emailHash,
  ArtifactUrlSigner,
} from '@mediagen/core';
import { PlanService } from '../account/plan-service';
import { CookieSessions } from '../auth/cookie-sessions';
import { endSessionsOnAccountRead } from '../auth/session-guard';
import { ArtifactVariants } from '../artifacts/artifact-variants';
import { GenerationHistory } from '../generations/generation-history';
import { GenerationService } from '../generations/generation-service';
import { GenerationViews } from '../generations/generation-views';
import { QueuePositions } from '../generations/queue-positions';

/** As many as the identity verifier keeps accounts. */
const EMAIL_HASH_CACHE_SIZE = 50_000;

interface Options {
  clock?: (() => number) | undefined;
}

/**
 * The services routes call: generations (through the lifecycle), artifact links, and the cookie sessions,
 * which end as soon as the identity verifier reads an account that no longer allows them.
 */
export const servicesPlugin = fp<Options>(
  async (app, options) => {
    const { config, metrics, database } = app;
    const clock = options.clock ?? Date.now;
    app.decorate('clock', clock);
    const signer = new ArtifactUrlSigner(config.artifactUrls.secret, config.artifactUrls.ttlSeconds, clock);
    app.decorate('artifactUrls', signer);
    app.decorate('artifactVariants', new ArtifactVariants(app.reads, config.plans));
    const sessions = {
      admin: new CookieSessions(app.redis, config.queuePrefix, 'admin', config.admin.sessionTtlSeconds, clock),
      app: new CookieSessions(app.redis, config.queuePrefix, 'app', config.sessionTtlSeconds, clock),
    };
    app.decorate('adminSessions', sessions.admin);
    app.decorate('appSessions', sessions.app);
    const endSessions = endSessionsOnAccountRead(sessions, config.admin.emails);
    app.identity.onAccountRead((account) => {
      endSessions(account).catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not end the sessions of an account that changed'),
      );
    });
    // Every submission and balance read asks for it; an HMAC costs more than finding one already made.
    const emailHashes = new LRUCache<string, string>({
      max: EMAIL_HASH_CACHE_SIZE,
      memoMethod: (email) => emailHash(config.accountTraceSecret, email),
    });
    app.decorate('emailHash', (email: string | null) => (email === null ? null : emailHashes.memo(email)));
    app.decorate('support', {
      requests: new SupportRequests(database.db, clock),
      mailer: createSupportMailer(config.supportMail, app.log),
    });
    app.decorate('webhooks', new WebhookEndpoints(database.db, config.plans, config.webhookSecretKey, clock));
    const positions = new QueuePositions(app.reads, app.inspector);
    const artifactUrl = (key: string) => `${publicOrigin(app)}${signer.signedPath(key)}`;
    const lifecycle = new GenerationLifecycle(database.db, { clock, plans: config.plans });
    app.decorate('plans', new PlanService({ lifecycle, jobs: app.jobs, plans: config.plans }));
    app.decorate(
      'generations',
      new GenerationService({
        lifecycle,
        history: new GenerationHistory(app.reads),
        views: new GenerationViews(app.redis, config.queuePrefix, positions, artifactUrl),
        plans: config.plans,
        speechModel: config.speechModel,
        jobs: app.jobs,
        emailHash: app.emailHash,
        log: app.log,
        clock,
        maxInFlightPerUser: config.limits.maxInFlightPerUser,
        events: {
          quotaRefused: (kind) => metrics.quotaRefusals.inc({ kind }),
          inFlightRefused: (kind) => metrics.inFlightRefusals.inc({ kind }),
          refunded: (kind) => metrics.refunds.inc({ kind }),
        },
      }),
    );
  },
  { name: 'services', dependencies: ['infrastructure', 'metrics'], fastify: '5.x' },
);

/** PUBLIC_URL, or (when it is unset and the port was 0) the address the server actually listens on. */
export function publicOrigin(app: { config: { publicUrl: string | null; host: string }; server: Server }): string {
  if (app.config.publicUrl !== null) return app.config.publicUrl;
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return `http://${app.config.host}:${port}`;
}
