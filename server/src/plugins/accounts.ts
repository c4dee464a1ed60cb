import fp from 'fastify-plugin';
import { AccountClosure } from '@mediagen/core';
import { AccountService } from '../account/account-service';
import { adminRateLimitNamespace } from '../admin/admin-rate-limit';
import { SameEmailAccounts } from '../account/same-email-accounts';
import { rateLimitNamespace } from '../routes/api';

/**
 * Accounts: closing them (the record, then every file, job and key of the user, then the identity), as
 * their owner asks or once the identity service is found to have lost them; token sync's sessions.
 */
export const accountsPlugin = fp(
  async (app) => {
    const { config } = app;
    const closure = new AccountClosure(app.database.db, { plans: app.config.plans });
    const accounts = new AccountService({
      closure,
      identity: app.identity,
      sessions: app.appSessions,
      jobs: app.jobs,
      forgetUserKeys: async (uid) => {
        await Promise.all([
          app.adminSessions.endAll(uid),
          app.appSessions.endAll(uid),
          app.sockets.disconnectUser(uid),
          app.redis.del(
            `${rateLimitNamespace(config.queuePrefix)}uid:${uid}`,
            `${adminRateLimitNamespace(config.queuePrefix)}uid:${uid}`,
          ),
        ]);
      },
      cancelSubscriptions: () => app.billing.cancelClosedAccounts(),
      emailHash: app.emailHash,
      log: app.log,
      clock: app.clock,
    });
    app.decorate('accounts', accounts);

    app.identity.onAccountGone((uid) => {
      accounts.closeGone(uid).catch((error: unknown) => {
        // The next read that finds it gone tries again; until then its balances stay as they were.
        app.log.error({ err: error, uid }, 'could not close an account whose identity is gone');
      });
    });
    const sameEmail = new SameEmailAccounts({
      closure,
      identity: app.identity,
      closeGone: (uid) => accounts.closeGone(uid),
      emailHash: app.emailHash,
    });
    app.addHook('preHandler', async (request) => {
      if (request.user !== null) await sameEmail.settle(request.user);
    });
  },
  { name: 'accounts', dependencies: ['infrastructure', 'services', 'socket', 'billing'], fastify: '5.x' },
);
