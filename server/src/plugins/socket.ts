import fp from 'fastify-plugin';
import { GenerationRelay } from '../socket/generation-relay';
import { createSocketGateway } from '../socket/socket-gateway';

/** Socket.IO on the API's HTTP server, fed by the queue events of this instance. */
export const socketPlugin = fp(
  async (app) => {
    const { metrics } = app;
    const gateway = createSocketGateway(app.server, { corsOrigins: app.config.corsOrigins, verifier: app.identity });
    app.decorate('sockets', gateway);
    metrics.countSocketsWith(() => gateway.io.engine.clientsCount);

    const relay = new GenerationRelay({
      source: app.generationQueues,
      load: (kind, id) => app.generations.snapshot(kind, id),
      ownerOf: (kind, id) => app.generationQueues.ownerOf(kind, id),
      audience: gateway,
      emit: (uid, generation, origin) => {
        gateway.emitToUser(uid, generation);
        if (origin !== undefined && origin.event !== 'position') {
          metrics.observeDeliveryLag(origin.kind, origin.event, origin.eventId);
        }
      },
      waitingHead: (kind, count) => app.generationQueues.waitingHead(kind, count),
      log: app.log,
    });
    relay.start();
    const stopObserving = app.generations.observeSubmissions(relay);

    // Open sockets would keep the HTTP server from closing, so they go first.
    app.addHook('preClose', async () => {
      stopObserving();
      await relay.stop();
      gateway.disconnectAll();
    });
    app.addHook('onClose', () => gateway.close());
  },
  { name: 'socket', dependencies: ['infrastructure', 'services', 'metrics'], fastify: '5.x' },
);
