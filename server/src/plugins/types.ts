import type { AuthUser, IdentityVerifier } from '../auth/identity-verifier';
import type { ArtifactReader } from '../artifacts/artifact-reader';
import type { ArtifactUrlSigner } from '../artifacts/artifact-urls';
import type { ServerConfig } from '../config';
import type { GenerationService } from '../generations/generation-service';
import type { BullGenerationQueues } from '../queue/generation-queues';
import type { SocketGateway } from '../socket/socket-gateway';

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    identity: IdentityVerifier;
    generationQueues: BullGenerationQueues;
    generations: GenerationService;
    artifactUrls: ArtifactUrlSigner;
    artifacts: ArtifactReader;
    sockets: SocketGateway;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every /api route; null elsewhere. */
    user: AuthUser | null;
  }
}
