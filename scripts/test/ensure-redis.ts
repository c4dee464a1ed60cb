/** Vitest global setup: the integration suites need a Redis; start one from PATH when none answers. */
import { ensureRedis } from '../lib/redis';

export default async function ensureTestRedis(): Promise<() => Promise<void>> {
  const redis = await ensureRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', '.data/test', () => undefined);
  return async () => {
    await redis?.stop();
  };
}
