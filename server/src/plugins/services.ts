import type { Server } from 'node:http';
import fp from 'fastify-plugin';
import { FileArtifactReader } from '../artifacts/artifact-reader';
import { ArtifactUrlSigner } from '../artifacts/artifact-urls';
import { GenerationService } from '../generations/generation-service';
import { QueuePositionEstimator } from '../generations/queue-positions';

interface Options {
  clock?: (() => number) | undefined;
}

/** The services routes call: generations (quotas, fair use, ownership, cancel) and artifact links. */
export const servicesPlugin = fp<Options>(
  async (app, options) => {
    const { config, metrics } = app;
    const clock = options.clock ?? Date.now;
    const signer = new ArtifactUrlSigner(config.artifactUrls.secret, config.artifactUrls.ttlSeconds, clock);
    app.decorate('artifactUrls', signer);
    app.decorate('artifacts', new FileArtifactReader(config.artifactsDir));
    app.decorate(
      'generations',
      new GenerationService({
        redis: app.generationQueues.producer,
        queues: app.generationQueues,
        prefix: config.queuePrefix,
        artifactUrl: (key) => `${publicOrigin(app)}${signer.signedPath(key)}`,
        log: app.log,
        clock,
        maxInFlightPerUser: config.limits.maxInFlightPerUser,
        positions: new QueuePositionEstimator(app.generationQueues),
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
function publicOrigin(app: { config: { publicUrl: string | null; host: string }; server: Server }): string {
  if (app.config.publicUrl !== null) return app.config.publicUrl;
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return `http://${app.config.host}:${port}`;
}
