import type { FastifyReply } from 'fastify';

/**
 * The limit a program can read, as draft-ietf-httpapi-ratelimit-headers-11 (May 2026) writes it:
 * `RateLimit-Policy: "default";q=120;w=60` (the quota and its window in seconds) and
 * `RateLimit: "default";r=119;t=42` (what is left, and the seconds until the window ends).
 *
 * @fastify/rate-limit writes the older draft's three numeric fields (`enableDraftSpec`: RateLimit-Limit,
 * -Remaining, -Reset) and Retry-After on a 429; this onSend hook turns the three into the current two,
 * so the counting stays the plugin's.
 */
export const RATE_LIMIT_POLICY_NAME = 'default';

const OLD_FIELDS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const;

export function currentRateLimitFields(windowSeconds: number) {
  return async (_request: unknown, reply: FastifyReply, payload: unknown) => {
    const [limit, remaining, reset] = OLD_FIELDS.map((name) => reply.getHeader(name));
    if (limit === undefined || remaining === undefined || reset === undefined) return payload;
    for (const name of OLD_FIELDS) reply.removeHeader(name);
    reply.header('ratelimit-policy', `"${RATE_LIMIT_POLICY_NAME}";q=${String(limit)};w=${windowSeconds}`);
    reply.header('ratelimit', `"${RATE_LIMIT_POLICY_NAME}";r=${String(remaining)};t=${String(reset)}`);
    return payload;
  };
}
