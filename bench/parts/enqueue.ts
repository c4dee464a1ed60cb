import { REDIS_URL, freePort, median, spawnTs } from '../lib/env';
import type { Figure } from '../lib/report';
import { BenchStack } from '../lib/stack';
import { seedLargeBalances } from '../lib/users';
import type { BenchContext } from '../run';
import { CONNECTIONS, DURATION_S, WARM_UP_S, asUsers, rate, warmUp } from '../lib/submit-load';

/**
 * A second, busier load: the API gathers the submissions that arrive together into one rate-limit call,
 * one charge statement and one `addBulk`, which pays more the more clients there are at once.
 */
const BUSY_CONNECTIONS = 50;
const RUNS = 5;

/**
 * Authenticated POST /api/generations (token verification against the emulator, quota, idempotency,
 * enqueue) against a bare Fastify route doing one PostgreSQL insert and one queue.add, on the same
 * PostgreSQL and Redis, with the same connections and the same requests. Requests go round the user pool,
 * whose balances are seeded large.
 */
export async function enqueueBench(context: BenchContext): Promise<Figure[]> {
  const stack = new BenchStack();
  try {
    // No user hits the fair-use cap either: the figure is the server's throughput, not its refusals.
    const { origin } = await stack.server(context.emulatorHost, { MAX_IN_FLIGHT_PER_USER: '1000' });
    const barePort = await freePort();
    const bare = stack.track(
      spawnTs('bench/targets/bare-enqueue.ts', {
        DATABASE_URL: await stack.databaseUrl(),
        REDIS_URL,
        QUEUE_PREFIX: stack.prefix,
        PORT: String(barePort),
      }),
    );
    await bare.waitFor(/listening/);
    const bareOrigin = `http://127.0.0.1:${barePort}`;
    const users = context.users.slice(0, 1500);
    await seedLargeBalances(await stack.databaseUrl(), users);
    const bodies = [
      { kind: 'image', prompt: 'a lighthouse at dusk' },
      { kind: 'video', prompt: 'waves rolling onto a beach' },
      { kind: 'speech', input: 'Hello', voice: 'nova', language: 'en-US' },
    ];
    // Steady state is measured: a running server has seen its users' tokens before, and every route has
    // run for a while (its code compiled, every account touched once).
    await warmUp(origin, users);
    const warmBody = JSON.stringify(bodies[0]);
    await asUsers(bareOrigin, users, { method: 'POST', path: '/enqueue', body: warmBody }, { duration: WARM_UP_S });
    const warmSubmit = { method: 'POST', path: '/api/generations', body: warmBody } as const;
    await asUsers(origin, users, warmSubmit, { duration: WARM_UP_S });
    const api = { rps: [] as number[], p99: [] as number[], errors: 0 };
    const ceiling = { rps: [] as number[], p99: [] as number[], errors: 0 };
    const busyApi = { rps: [] as number[], p99: [] as number[] };
    const busyCeiling = { rps: [] as number[], p99: [] as number[] };
    const me = { rps: [] as number[], p99: [] as number[] };
    for (let run = 0; run < RUNS; run += 1) {
      const body = JSON.stringify(bodies[run % bodies.length]);
      const submit = { method: 'POST', path: '/api/generations', body } as const;
      const result = await asUsers(origin, users, submit, { duration: DURATION_S });
      api.rps.push(rate(result));
      api.p99.push(result.latency.p99);
      api.errors += result.non2xx + result.errors;

      // The very same requests, each with its user's ID token (which the bare route ignores), so the load
      // generator sharing these cores works alike for both.
      const bareResult = await asUsers(
        bareOrigin,
        users,
        { method: 'POST', path: '/enqueue', body },
        { duration: DURATION_S },
      );
      ceiling.rps.push(rate(bareResult));
      ceiling.p99.push(bareResult.latency.p99);
      ceiling.errors += bareResult.non2xx + bareResult.errors;

      const busy = { duration: DURATION_S };
      const busyResult = await asUsers(origin, users, submit, busy, BUSY_CONNECTIONS);
      busyApi.rps.push(rate(busyResult));
      busyApi.p99.push(busyResult.latency.p99);
      const busyBare = await asUsers(
        bareOrigin,
        users,
        { method: 'POST', path: '/enqueue', body },
        busy,
        BUSY_CONNECTIONS,
      );
      busyCeiling.rps.push(rate(busyBare));
      busyCeiling.p99.push(busyBare.latency.p99);

      // What token verification alone costs: GET /api/me is auth + one read of the account.
      const meResult = await asUsers(origin, users, { method: 'GET', path: '/api/me' }, { duration: DURATION_S });
      me.rps.push(rate(meResult));
      me.p99.push(meResult.latency.p99);
    }
    const rps = median(api.rps);
    const ceilingRps = median(ceiling.rps);
    return [
      {
        part: 'enqueue',
        name: `POST /api/generations req/s (${CONNECTIONS} conns, median of ${RUNS})`,
        value: rps,
        unit: 'req/s',
        ceiling: ceilingRps,
        ratio: rps / ceilingRps,
        target: '≥ 0.6 of ceiling',
        met: rps / ceilingRps >= 0.6,
        note: `runs ${api.rps.map((v) => v.toFixed(0)).join('/')} vs ${ceiling.rps.map((v) => v.toFixed(0)).join('/')}; non-2xx ${api.errors}/${ceiling.errors}`,
      },
      {
        part: 'enqueue',
        name: 'POST /api/generations p99',
        value: median(api.p99),
        unit: 'ms',
        ceiling: median(ceiling.p99),
        ratio: median(api.p99) / median(ceiling.p99),
      },
      {
        part: 'enqueue',
        name: `same POST, ${BUSY_CONNECTIONS} conns (median of ${RUNS})`,
        value: median(busyApi.rps),
        unit: 'req/s',
        ceiling: median(busyCeiling.rps),
        ratio: median(busyApi.rps) / median(busyCeiling.rps),
        note: `p99 ${median(busyApi.p99).toFixed(0)} vs ${median(busyCeiling.p99).toFixed(0)} ms; diagnostic: more clients at once, larger batches`,
      },
      {
        part: 'enqueue',
        name: 'GET /api/me req/s (token verification + 1 read)',
        value: median(me.rps),
        unit: 'req/s',
        ceiling: ceilingRps,
        ratio: median(me.rps) / ceilingRps,
        note: `p99 ${median(me.p99).toFixed(0)} ms: the share of the API's cost that is auth alone`,
      },
    ];
  } finally {
    await stack.stop();
  }
}
