import fp from 'fastify-plugin';
import {
  GenerationJobOwner,
  GenerationReads,
  RecentRunTimes,
  SpendControls,
  SpendLedger,
  connectRedis,
  createArtifactStore,
  migrateToLatest,
  openDatabase,
} from '@mediagen/core';
import type { IdentityVerifier } from '../auth/identity-verifier';
import { createFirebaseVerifier } from '../auth/identity-verifier';
import { QueueInspector } from '../queue/queue-inspector';

interface Options {
  identity?: IdentityVerifier | undefined;
}

/** This server's share of PostgreSQL's connections (it allows 100 in all, for every process). */
const DATABASE_CONNECTIONS = 10;

/**
 * The outside world: the record (PostgreSQL, migrated at start), Redis (one producer connection that
 * fails fast, for requests), where results are kept, generations' jobs, the spend controls, and the
 * identity verifier.
 */
export const infrastructurePlugin = fp<Options>(
  async (app, options) => {
    const { config } = app;
    const identity = options.identity ?? createFirebaseVerifier(config.firebase);
    app.decorate('identity', identity);
    app.addHook('onClose', () => identity.close());

    const database = openDatabase(config.databaseUrl, {
      maxConnections: DATABASE_CONNECTIONS,
      applicationName: `${config.queuePrefix}:server`,
    });
    app.addHook('onClose', () => database.close());
    await migrateToLatest(database.db);
    app.decorate('database', database);
    app.decorate('reads', new GenerationReads(database.db));

    const redis = await connectRedis(config.redis, 'producer', `${config.queuePrefix}:server:producer`);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    app.decorate('redis', redis);

    const artifacts = await createArtifactStore(config.artifactStore);
    app.decorate('artifactStore', artifacts);
    const jobs = new GenerationJobOwner({
      connection: redis,
      prefix: config.queuePrefix,
      retry: config.jobs,
      retention: config.jobRetention,
      artifacts,
      log: app.log,
    });
    app.addHook('onClose', () => jobs.close());
    app.decorate('jobs', jobs);
    const ledger = new SpendLedger(database.db);
    const spend = { ledger, controls: new SpendControls(database.db, redis, config.queuePrefix, ledger) };
    app.decorate('spend', spend);
    app.decorate('inspector', new QueueInspector(jobs, new RecentRunTimes(redis, config.queuePrefix), spend.controls));
  },
  { name: 'infrastructure', fastify: '5.x' },
);
