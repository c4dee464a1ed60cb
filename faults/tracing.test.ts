import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import { GenerationLifecycle, openDatabase, traceIdOf } from '@mediagen/core';
import { createSimulator, type Simulator } from '@mediagen/simulator';
import type { Generation } from '@mediagen/shared';
import { createTestContext, createTestUser, REDIS_URL, type TestContext } from '@mediagen/server/testing';
import { authEmulatorHost } from '@mediagen/testing/vitest';
import { freePort } from '@mediagen/scripts/processes';
import { REQUESTS, submit } from './support/api';
import { spawnServer, spawnWorker, type ChildHandle, type WorkerProcess } from './support/processes';

/**
 * Tracing across processes: the API and a worker, each its own built process, export OTLP/HTTP (JSON) to a
 * receiver of the test's. One video generation, whose task start fails once with a 5xx (a job retry) and
 * whose task is polled twice, must read as one trace: one root (the submission's request), every hop
 * under it across the queue and both processes, and nothing in any span that is a secret or personal.
 */
const MINIMAX_KEY = 'minimax-tracing-0123456789abcdef';
const PROMPT = 'a lantern-lit harbour, traced end to end';

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'service' | 'attributes'> & { attributes?: OtlpAttribute[] })[];
    }[];
  }[];
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
}

/** An OTLP/HTTP receiver of traces in JSON: keeps every export whole (to search) and every span decoded. */
function otlpReceiver(): { server: Server; bodies: string[]; spans: ReceivedSpan[] } {
  const bodies: string[] = [];
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      for (const resource of (JSON.parse(body) as OtlpExport).resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              ...span,
              service,
              parentSpanId: span.parentSpanId ?? '',
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, bodies, spans };
}

let context: TestContext;
let simulator: Simulator;
let api: ChildHandle;
let origin: string;
let worker: WorkerProcess;
const receiver = otlpReceiver();

beforeAll(async () => {
  // The task renders at once: the polls are the first (told "Processing" by a fault) and the one after.
  simulator = createSimulator({ latencyMs: 0, videoQueueingMs: 0, videoProcessingMs: 0 });
  await simulator.listen();
  await new Promise<void>((done) => receiver.server.listen(0, '127.0.0.1', done));
  const address = receiver.server.address();
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  context = await createTestContext();
  const tracing = {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Spans leave every 100 ms rather than every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  const stores = {
    REDIS_URL,
    DATABASE_URL: context.database.url,
    QUEUE_PREFIX: context.prefix,
    DATA_DIR: context.dataDir,
    JOB_BACKOFF_MS: '100',
    ...tracing,
  };
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  api = await spawnServer(
    {
      ...stores,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      FIREBASE_AUTH_EMULATOR_HOST: authEmulatorHost(),
      LOG_LEVEL: 'info',
    },
    origin,
  );
  worker = spawnWorker({
    ...stores,
    SIMULATOR_URL: simulator.url,
    MINIMAX_API_KEY: MINIMAX_KEY,
    MINIMAX_API_BASE: `${simulator.url}/v1`,
    VIDEO_POLL_INTERVAL_MS: '100',
    WORKER_KINDS: 'video',
  });
  await worker.ready;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([api?.stop(), worker?.stop()]);
  await context?.cleanup();
  await simulator?.close();
  await new Promise((done) => receiver.server.close(done));
});

/** The generation's final state, as its owner's socket hears it (the emit the trace ends with). */
async function finalUpdate(origin: string, idToken: string, submitted: () => Promise<string>): Promise<Generation> {
  const socket = connectSocket(origin, { auth: { token: idToken }, transports: ['websocket'], forceNew: true });
  try {
    await new Promise<void>((done, fail) => {
      socket.once('connect', done);
      socket.once('connect_error', fail);
    });
    const ended = new Promise<Generation>((done) => {
      socket.on('generation:update', (generation: Generation) => {
        if (['completed', 'failed', 'canceled'].includes(generation.status)) done(generation);
      });
    });
    const id = await submitted();
    const generation = await ended;
    expect(generation.id).toBe(id);
    return generation;
  } finally {
    socket.disconnect();
  }
}

it('one video generation, retried once and polled twice, is one trace across the API, the queue and the worker', async () => {
  simulator.injectFault({ route: 'video.create', fault: 'http500', times: 1 });
  simulator.injectFault({ route: 'video.query', fault: 'unknown-status', status: 'Processing', times: 1 });
  const user = await createTestUser();
  let id = '';
  const generation = await finalUpdate(origin, user.idToken, async () => {
    const accepted = await submit(origin, user, { ...REQUESTS.video, prompt: PROMPT });
    expect(accepted.status, accepted.text).toBe(202);
    id = accepted.body.id;
    return id;
  });
  expect(generation.status, JSON.stringify(generation.error)).toBe('completed');

  // The trace is whole once the final emit's span is in and no span waits for its parent (a run's span is
  // sent when it ends, after its children).
  const traceOf = () => {
    const traceIds = new Set(
      receiver.spans.filter((span) => span.attributes['mediagen.generation.id'] === id).map((span) => span.traceId),
    );
    const spans = receiver.spans.filter((span) => traceIds.has(span.traceId));
    const ids = new Set(spans.map((span) => span.spanId));
    return { traceIds, spans, roots: spans.filter((span) => !ids.has(span.parentSpanId)) };
  };
  await expect
    .poll(
      () => {
        const { spans, roots } = traceOf();
        return spans.some((span) => span.name === 'emit generation:update') && roots.length === 1;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  const { traceIds, spans: trace, roots } = traceOf();
  expect(traceIds.size, 'one trace').toBe(1);
  const [traceId] = traceIds;
  const byId = new Map(trace.map((span) => [span.spanId, span]));
  const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
    const parent = byId.get(span.parentSpanId);
    return parent === undefined ? [] : [parent, ...ancestors(parent)];
  };
  const named = (name: string) => trace.filter((span) => span.name === name);
  const one = (name: string) => {
    const found = named(name);
    expect(
      found.map((span) => span.name),
      name,
    ).toEqual([name]);
    return found[0]!;
  };

  // One root, the submission's request, in the API; every other span hangs under it (no orphan).
  expect(roots.map((span) => `${span.service}: ${span.name}`)).toEqual(['mediagen-api: POST /api/generations']);
  const root = roots[0]!;
  for (const span of trace) if (span !== root) expect(ancestors(span), span.name).toContain(root);

  // Submit → charge → queue add, in the API.
  const submitted = one('generation submit');
  expect(ancestors(one('token charge'))).toContain(submitted);
  const added = one('queue add generation-video');
  expect(added.service).toBe('mediagen-api');
  expect(ancestors(added)).toContain(submitted);

  // The worker's runs: the first (its task start refused with a 500), the retry that starts the task, and a
  // run per poll; each continues the trace from the job (across the queue and the processes).
  const runs = named('process generation-video');
  expect(runs.length).toBeGreaterThanOrEqual(3);
  for (const run of runs) {
    expect(run.service).toBe('mediagen-worker');
    expect(ancestors(run)).toContain(added);
  }
  const starts = named('provider minimax video_start');
  expect(
    starts.map((span) => [span.attributes['mediagen.job.attempt'], span.attributes['http.response.status_code']]),
  ).toEqual([
    [1, 500],
    [2, 200],
  ]);
  const polls = named('provider minimax video_query');
  expect(polls).toHaveLength(2);
  for (const poll of polls) {
    expect(poll.attributes).toMatchObject({
      'mediagen.provider': 'minimax',
      'http.response.status_code': 200,
      'mediagen.job.attempt': 2,
    });
    expect(poll.attributes['mediagen.provider.model']).toEqual(expect.any(String));
    // The HTTP request itself is a child of the call's span (undici's instrumentation).
    expect(
      trace.some((span) => span.parentSpanId === poll.spanId && span.attributes['http.request.method'] === 'GET'),
    ).toBe(true);
  }
  // Then the file, its marking and storing, the completion, in the worker; the final emit back in the API.
  for (const name of [
    'provider minimax file_retrieve',
    'provider minimax file_download',
    'marking',
    'artifact store',
    'generation complete',
  ]) {
    expect(one(name).service, name).toBe('mediagen-worker');
  }
  const emitted = one('emit generation:update');
  expect(emitted.service).toBe('mediagen-api');
  expect(emitted.parentSpanId).toBe(submitted.spanId);
  // The stores' own spans are in it, on both sides, and carry the generation's id like every other span.
  for (const system of ['postgresql', 'redis']) {
    const services = new Set(
      trace
        .filter((span) => span.attributes['db.system'] === system || span.attributes['db.system.name'] === system)
        .map((span) => span.service),
    );
    expect([...services].sort(), system).toEqual(['mediagen-api', 'mediagen-worker']);
  }
  // Every span from the submission on carries the generation's id (the request's authentication came before it had one).
  const fromSubmission = trace.filter(
    (span) => span.service === 'mediagen-worker' || span === submitted || ancestors(span).includes(submitted),
  );
  expect(
    fromSubmission.filter((span) => span.attributes['mediagen.generation.id'] !== id).map((span) => span.name),
  ).toEqual([]);

  // The record keeps the submission's context: its trace id is what the admin page and `pnpm queues find` show.
  const record = openDatabase(context.database.url, { maxConnections: 1 });
  try {
    expect(traceIdOf((await new GenerationLifecycle(record.db).find(id))?.traceParent)).toBe(traceId);
  } finally {
    await record.close();
  }

  // The result is fetched by its signed link; that request's span must not keep the link either.
  const download = await fetch(generation.result!.url);
  expect(download.status).toBe(200);
  await download.arrayBuffer();
  await expect
    .poll(() => receiver.spans.some((span) => span.name === 'GET /artifacts/:key'), { timeout: 15_000 })
    .toBe(true);

  // Nothing secret or personal in any span: not the prompt, the provider key, the signed result URL or its
  // signature, the owner's email.
  const exported = receiver.bodies.join('\n');
  const resultUrl = new URL(generation.result!.url);
  for (const secret of [PROMPT, MINIMAX_KEY, generation.result!.url, resultUrl.search.slice(1), user.email]) {
    expect(exported).not.toContain(secret);
  }

  // Logs: the API's line that ends the submission's request and the worker's line of the retried attempt
  // carry the trace id.
  const apiLines = api.output
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { reqId?: string; trace_id?: string; msg: string; req?: { url: string } });
  const submission = apiLines.find((line) => line.msg === 'incoming request' && line.req?.url === '/api/generations');
  expect(apiLines.find((line) => line.reqId === submission?.reqId && line.msg === 'request completed')?.trace_id).toBe(
    traceId,
  );
  const workerLines = worker.output
    .join('')
    .split('\n')
    .filter((line) => line.includes(`trace_id=${traceId}`));
  expect(workerLines.some((line) => line.includes(`${id}: attempt 1 failed`))).toBe(true);
}, 90_000);
