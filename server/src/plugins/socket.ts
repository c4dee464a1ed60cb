import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { connectRedis, parseProgressEvent, progressChannel } from '@mediagen/core';
import { GenerationWatchers } from '../generations/generation-watchers';
import { QueuePositions } from '../generations/queue-positions';
import { GenerationRelay } from '../socket/generation-relay';
import { RecordRelaySource } from '../socket/record-relay-source';
import { trustFunction } from '../http/client-address';
import { createSocketGateway } from '../socket/socket-gateway';
import { SocketPresence } from '../socket/socket-presence';
import { UpdateStream } from '../socket/update-stream';
import { publicOrigin } from './services';

/** A server that stops without removing its sockets' presence frees their slots after this long. */
const PRESENCE_LEASE_MS = 60_000;

interface Options {
  clock?: (() => number) | undefined;
}

/**
 * Socket.IO on the API's HTTP server, and what it tells: every lifecycle transition (heard on the
 * record's update channel) and the workers' progress (a Redis channel), relayed to owners connected here.
 */
export const socketPlugin = fp<Options>(
  async (app, options) => {
    const { metrics, config } = app;
    const presence = new SocketPresence(
      app.redis,
      config.queuePrefix,
      randomUUID(),
      config.limits.socketsPerUser,
      PRESENCE_LEASE_MS,
      options.clock,
    );
    const gateway = createSocketGateway(app.server, {
      corsOrigins: config.corsOrigins,
      verifier: app.identity,
      presence,
      revalidateMs: config.firebase.revalidateSeconds * 1000,
      pending: { perAddress: config.limits.pendingSocketsPerAddress, max: config.limits.pendingSocketsMax },
      trust: trustFunction(config.trustProxy),
      clock: options.clock,
    });
    app.decorate('sockets', gateway);
    metrics.countSocketsWith(() => gateway.connectedSockets());
    // Event streams and submissions waiting for their end hear the same updates as the sockets.
    const watchers = new GenerationWatchers();
    app.decorate('watchers', watchers);
    // Open streams are counted across servers like sockets, under a key of their own, with the same cap.
    app.decorate(
      'streamPresence',
      new SocketPresence(
        app.redis,
        `${config.queuePrefix}:streams`,
        randomUUID(),
        config.limits.socketsPerUser,
        PRESENCE_LEASE_MS,
        options.clock,
      ),
    );

    const relay = new GenerationRelay({
      audience: {
        has: (uid) => gateway.has(uid) || watchers.has(uid),
        uids: () => [...new Set([...gateway.uids(), ...watchers.uids()])],
      },
      source: new RecordRelaySource(app.reads, new QueuePositions(app.reads, app.inspector)),
      artifactUrl: (key) => `${publicOrigin(app)}${app.artifactUrls.signedPath(key)}`,
      emit: (uid, generation, lagFromMs) => {
        gateway.emitToUser(uid, generation);
        watchers.deliver(uid, generation);
        metrics.observeDeliveryLag(generation.kind, generation.status, lagFromMs);
      },
      emitRemoved: (uid, id) => {
        gateway.emitRemoved(uid, id);
        watchers.removed(uid, id);
      },
      log: app.log,
    });

    const updates = new UpdateStream({
      databaseUrl: config.databaseUrl,
      onEvent: (event) => relay.transition(event),
      onAccountClosed: (uid) => {
        app.identity.forget(uid);
        watchers.endUser(uid);
        gateway
          .disconnectUser(uid)
          .catch((error: unknown) => app.log.warn({ err: error }, 'could not forget a presence'));
      },
      onAccountUpdated: (uid) => {
        if (!gateway.has(uid)) return;
        app.plans.get(uid).then(
          ({ plan, tokens, allowance, resetsAt }) =>
            gateway.emitAccountUpdate(uid, { plan, tokens, allowance, resetsAt }),
          (error: unknown) => app.log.warn({ err: error }, 'could not read an account to tell its owner'),
        );
      },
      onResumed: (since) => {
        relay.replay(since).catch((error: unknown) => app.log.warn({ err: error }, 'could not replay missed updates'));
      },
      log: app.log,
    });
    await updates.start();
    app.decorate('updates', updates);

    const subscriber = await connectRedis(config.redis, 'blocking', `${config.queuePrefix}:server:progress`);
    subscriber.on('message', (channel: string, message: string) => {
      const event = parseProgressEvent(message);
      if (event !== null) relay.progress(event);
    });
    await subscriber.subscribe(progressChannel(config.queuePrefix));

    // Open sockets would keep the HTTP server from closing, so they go first.
    app.addHook('preClose', async () => {
      await Promise.all([updates.stop(), subscriber.quit().catch(() => subscriber.disconnect())]);
      await relay.stop();
      watchers.endAll();
      gateway.disconnectAll();
    });
    app.addHook('onClose', () => gateway.close());
  },
  { name: 'socket', dependencies: ['infrastructure', 'services', 'metrics'], fastify: '5.x' },
);
