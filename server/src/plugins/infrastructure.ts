import fp from 'fastify-plugin';
import type { IdentityVerifier } from '../auth/identity-verifier';
import { createFirebaseVerifier } from '../auth/identity-verifier';
import { BullGenerationQueues } from '../queue/generation-queues';

interface Options {
  identity?: IdentityVerifier | undefined;
}

/** Redis connections, the queues and their event readers, and the identity verifier. */
export const infrastructurePlugin = fp<Options>(
  async (app, options) => {
    const { config } = app;
    const identity = options.identity ?? createFirebaseVerifier(config.firebase);
    app.decorate('identity', identity);
    app.addHook('onClose', () => identity.close());

    const queues = await BullGenerationQueues.open({
      redisUrl: config.redisUrl,
      prefix: config.queuePrefix,
      retry: config.jobs,
      log: app.log,
    });
    app.decorate('generationQueues', queues);
    app.addHook('onClose', () => queues.close());
  },
  { name: 'infrastructure', fastify: '5.x' },
);
