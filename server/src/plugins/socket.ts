import { GenerationRelay } from '../socket/generation-relay';
import { createSocketGateway } from '../socket/socket-gateway';
import { defineAppPlugin } from './define-plugin';

/** Socket.IO on the API's HTTP server, fed by the queue events of this instance. */
export const socketPlugin = defineAppPlugin('socket', ['infrastructure', 'services'], async (app) => {
  const gateway = createSocketGateway(app.server, { corsOrigins: app.config.corsOrigins, verifier: app.identity });
  app.decorate('sockets', gateway);

  const relay = new GenerationRelay({
    source: app.generationQueues,
    load: (kind, id) => app.generations.snapshot(kind, id),
    emit: (uid, generation) => gateway.emitToUser(uid, generation),
    log: app.log,
  });
  relay.start();

  // Open sockets would keep the HTTP server from closing, so they go first.
  app.addHook('preClose', async () => {
    await relay.stop();
    gateway.disconnectAll();
  });
  app.addHook('onClose', () => gateway.close());
});
