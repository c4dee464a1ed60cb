import autocannon from 'autocannon';

/** Concurrent clients of a load run, unless a run asks for more. */
export const CONNECTIONS = 20;
/**
 * Successful requests per second over a fixed-duration run (an `amount` run ends on autocannon's
 * one-second tick, which quantizes short runs). Refusals are left out of the rate and shown as non-2xx.
 */
export const DURATION_S = 3;
/** Each route runs this long before the first measured run, so no arm's figures include warming up. */
export const WARM_UP_S = 3;
export const rate = (result: autocannon.Result & { wallMs: number }) => (result['2xx'] * 1000) / result.wallMs;

export function cannon(options: autocannon.Options): Promise<autocannon.Result & { wallMs: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    autocannon(options, (error, result) =>
      error ? fail(error) : done({ ...result, wallMs: performance.now() - started }),
    );
  });
}

/** Requests that take the users' tokens in turn, as a pool of signed-in clients would. */
export function asUsers(
  origin: string,
  users: readonly { idToken: string }[],
  request: { method: 'GET' | 'POST'; path: string; body?: string },
  run: { duration: number } | { amount: number },
  connections = CONNECTIONS,
): Promise<autocannon.Result & { wallMs: number }> {
  let next = 0;
  const contentType: Record<string, string> = request.body === undefined ? {} : { 'content-type': 'application/json' };
  return cannon({
    url: origin,
    connections,
    ...run,
    requests: [
      {
        method: request.method,
        path: request.path,
        setupRequest: (sent) => ({
          ...sent,
          headers: { ...contentType, authorization: `Bearer ${users[next++ % users.length]!.idToken}` },
          ...(request.body === undefined ? {} : { body: request.body }),
        }),
      },
    ],
  });
}

/** One request per user, so every token has been verified once and the code is warm. */
export async function warmUp(origin: string, users: readonly { idToken: string }[]): Promise<void> {
  await asUsers(origin, users, { method: 'GET', path: '/api/me' }, { amount: users.length });
}
