import { Redis } from 'ioredis';
import { userKeys } from '../../core/src/redis-keys';
import { ensureAuthEmulator, type RunningEmulator } from '../../server/test/support/auth-emulator';
import { REDIS_URL } from './env';

export interface BenchUser {
  uid: string;
  idToken: string;
}

let emulator: RunningEmulator | undefined;

export async function startEmulator(): Promise<string> {
  emulator ??= await ensureAuthEmulator();
  return emulator.host;
}

export async function stopEmulator(): Promise<void> {
  await emulator?.stop();
}

/** Accounts in the Auth emulator, `parallel` sign-ups at a time. */
export async function createUsers(host: string, count: number, parallel = 16): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  const run = Date.now().toString(36);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const index = next++;
        const response = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: `bench-${run}-${index}@example.test`,
            password: 'password-123',
            returnSecureToken: true,
          }),
        });
        if (!response.ok) throw new Error(`signUp: ${response.status} ${await response.text()}`);
        const body = (await response.json()) as { localId: string; idToken: string };
        users.push({ uid: body.localId, idToken: body.idToken });
      }
    }),
  );
  return users;
}

/**
 * A user holds 1 image, 1 video and 2 speech tokens, so a throughput run would mostly measure 402s.
 * The bench owns its key prefix and writes large balances straight into the quota ledger's hashes.
 */
export async function seedLargeBalances(prefix: string, users: readonly BenchUser[]): Promise<void> {
  const redis = new Redis(REDIS_URL);
  const pipeline = redis.pipeline();
  for (const user of users) {
    pipeline.hset(userKeys(prefix, user.uid).quota, {
      image: 1_000_000,
      video: 1_000_000,
      speech: 1_000_000,
      lastReset: Date.now(),
    });
  }
  await pipeline.exec();
  await redis.quit();
}
