export { buildApp, BODY_LIMIT_BYTES, type AppDeps } from './app';
export { ConfigError, DEV_ARTIFACT_URL_SECRET, loadConfig, type ServerConfig } from './config';
export type { AuthUser, IdentityVerifier } from './auth/identity-verifier';
export { ArtifactUrlSigner } from '@mediagen/core';
export { userRoom } from './socket/socket-gateway';
