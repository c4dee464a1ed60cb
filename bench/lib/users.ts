import pg from 'pg';
import { ensureAuthEmulator, type RunningEmulator } from '@mediagen/testing';

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
 * The bench owns its database and opens each account with a large balance, as an operator grant would.
 */
export async function seedLargeBalances(databaseUrl: string, users: readonly BenchUser[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into accounts (uid, period_started_at, image_tokens, video_tokens, speech_tokens, in_flight)
       select uid, now(), 1000000, 1000000, 1000000, 0 from unnest($1::text[]) as uid
       on conflict (uid) do update set image_tokens = 1000000, video_tokens = 1000000, speech_tokens = 1000000`,
      [users.map((user) => user.uid)],
    );
  } finally {
    await client.end();
  }
}
