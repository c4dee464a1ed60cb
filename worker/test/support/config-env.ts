import { expect } from 'vitest';
import { WorkerConfigError, loadWorkerConfig } from '../../src/config';

/** The settings of the worker's configuration tests: a development worker, and a complete production one. */
export const development = { MEDIAGEN_MODE: 'development' };
/** What a worker shares with the servers outside development: webhook payloads' result links and secrets. */
export const sharedSecrets = {
  ARTIFACT_URL_SECRET: 's'.repeat(48),
  PUBLIC_URL: 'https://api.mediagen.example',
  WEBHOOK_SECRET_KEY: 'w'.repeat(48),
};
export const production = {
  ...sharedSecrets,
  DATABASE_URL: 'postgres://mediagen@db.internal:5432/mediagen',
  REDIS_URL: 'redis://redis.internal:6379',
  DATA_DIR: '/srv/mediagen',
  STABILITY_API_KEY: 'sk-stability-key',
  MINIMAX_API_KEY: 'minimax-key',
  MINIMAX_GROUP_ID: '1234567890',
  OPENAI_API_KEY: 'sk-openai-key',
};

/** The problems a configuration refuses to start with, one per line. */
export function problemsOf(env: Record<string, string>): string {
  try {
    loadWorkerConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkerConfigError);
    return (error as WorkerConfigError).problems.join('\n');
  }
  throw new Error('expected a configuration error');
}
