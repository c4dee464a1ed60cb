import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GENERATION_REMOVED_EVENT, GENERATION_UPDATE_EVENT, isFinalStatus, type Generation } from '@mediagen/shared';
import type { AuthUser } from '../auth/identity-verifier';
import { notReady, ServiceError } from '../http/errors';
import { preferredWaitSeconds } from '../http/prefer-wait';

/**
 * A comment line this often keeps proxies and load balancers from closing a quiet stream (a video may
 * wait minutes between updates), and renews the stream's presence lease.
 */
export const HEARTBEAT_MS = 15_000;

/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

const updateEvent = (generation: Generation) =>
  `id: ${generation.version}\nevent: ${GENERATION_UPDATE_EVENT}\ndata: ${JSON.stringify(generation)}\n\n`;

/**
 * GET /api/generations/:id/events: the generation's `generation:update` events as server-sent events, from
 * its current state to its final one, then the stream ends. Each event's id is the state's version, so a
 * client that reconnects with `Last-Event-ID` at the final version is answered 204 (an EventSource stops
 * reconnecting on it). A user holds at most SOCKETS_PER_USER streams across every server; the stream ends
 * with the caller's sign-in, as a socket does.
 */
export async function streamGenerationEvents(
  app: FastifyInstance,
  reply: FastifyReply,
  user: AuthUser,
  id: string,
  lastEventId: number | undefined,
): Promise<FastifyReply> {
  const streamId = randomUUID();
  const admitted = await app.streamPresence.admit(user.uid, streamId).catch(() => null);
  if (admitted === null) throw notReady();
  if (!admitted) throw new ServiceError(429, 'TOO_MANY_CONNECTIONS');
  const leave = () => void app.streamPresence.leave(user.uid, streamId).catch(() => undefined);

  const body = new PassThrough();
  const following = app.watchers.follow(
    user.uid,
    id,
    () => app.generations.get(user, id),
    (generation) => body.write(updateEvent(generation)),
  );
  let first: Generation;
  try {
    first = await following.first;
  } catch (error) {
    leave();
    throw error;
  }
  if (lastEventId !== undefined && isFinalStatus(first.status) && first.version <= lastEventId) {
    following.stop();
    leave();
    return reply.status(204).send(null);
  }

  const heartbeat = setInterval(() => {
    body.write(': keep-alive\n\n');
    void app.streamPresence.renew([{ uid: user.uid, socketId: streamId }]).catch(() => undefined);
  }, HEARTBEAT_MS);
  // Node fires a timer longer than its longest at once; no generation runs anywhere near that long.
  const signedOut = setTimeout(
    () => following.stop(),
    Math.min(MAX_TIMER_MS, Math.max(0, user.tokenExpiresAtMs - app.clock())),
  );
  // The response's close, not the request's: a request without a body closes as soon as it is read.
  reply.raw.once('close', () => following.stop());
  void following.done.then((outcome) => {
    clearInterval(heartbeat);
    clearTimeout(signedOut);
    leave();
    if (outcome === 'removed') body.write(`event: ${GENERATION_REMOVED_EVENT}\ndata: ${JSON.stringify({ id })}\n\n`);
    body.end();
  });
  return (
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      // nginx would hold the events back to fill its buffer.
      .header('x-accel-buffering', 'no')
      .send(body)
  );
}

/**
 * `Prefer: wait=N` on a submission: how long the caller asked to wait, and the generation as it stands
 * when it ended or the wait ran out (its latest state, final or not). Null when no wait was asked for or the
 * generation had already ended.
 */
export async function waitForEnd(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: AuthUser,
  submitted: Generation,
): Promise<{ seconds: number; generation: Generation } | null> {
  const seconds = preferredWaitSeconds(request.headers.prefer);
  if (seconds === null || isFinalStatus(submitted.status)) return null;
  let latest = submitted;
  const following = app.watchers.follow(
    user.uid,
    submitted.id,
    () => app.generations.get(user, submitted.id),
    (generation) => (latest = generation),
  );
  const timer = setTimeout(() => following.stop(), seconds * 1000);
  const gone = () => following.stop();
  reply.raw.once('close', gone);
  await following.done;
  clearTimeout(timer);
  reply.raw.off('close', gone);
  return { seconds, generation: latest };
}
