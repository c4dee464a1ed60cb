import type { Server } from 'node:http';
import { FileArtifactReader } from '../artifacts/artifact-reader';
import { ArtifactUrlSigner } from '../artifacts/artifact-urls';
import { GenerationService } from '../generations/generation-service';
import { defineAppPlugin } from './define-plugin';

interface Options extends Record<string, unknown> {
  clock?: (() => number) | undefined;
}

/** The services routes call: generations (quotas, ownership, cancel) and artifact links. */
export const servicesPlugin = defineAppPlugin<Options>('services', ['infrastructure'], async (app, options) => {
  const { config } = app;
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
    }),
  );
});

/** PUBLIC_URL, or (when it is unset and the port was 0) the address the server actually listens on. */
function publicOrigin(app: { config: { publicUrl: string | null; host: string }; server: Server }): string {
  if (app.config.publicUrl !== null) return app.config.publicUrl;
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return `http://${app.config.host}:${port}`;
}
