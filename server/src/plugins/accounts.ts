import fp from 'fastify-plugin';
import { AccountClosure, forgetProgress, signalCancel } from '@mediagen/core';
import { AccountService } from '../account/account-service';
import { rateLimitNamespace } from '../routes/api';

/**
 * Accounts: closing them (the record, then every file, job and key of the user, then the identity);
 * token sync's sessions.
 */
export const accountsPlugin = fp(
  async (app) => {
    const { config } = app;
    const closure = new AccountClosure(app.database.db, { plans: app.config.plans });
    const accounts = new AccountService({
      closure,
      identity: app.identity,
      artifacts: app.artifactStore,
      sessions: app.appSessions,
      forgetJob: (kind, id) => app.producer.forget(kind, id),
      signalCancel: (id) => signalCancel(app.redis, config.queuePrefix, id),
      forgetProgress: (ids) => forgetProgress(app.redis, config.queuePrefix, ids),
      forgetUserKeys: async (uid) => {
        await Promise.all([
          app.adminSessions.endAll(uid),
          app.appSessions.endAll(uid),
          app.sockets.disconnectUser(uid),
          app.redis.del(`${rateLimitNamespace(config.queuePrefix)}uid:${uid}`),
        ]);
      },
      emailHash: app.emailHash,
      log: app.log,
    });
    app.decorate('accounts', accounts);
  },
  { name: 'accounts', dependencies: ['infrastructure', 'services', 'socket'], fastify: '5.x' },
);
