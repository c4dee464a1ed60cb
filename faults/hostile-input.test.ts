import { rawHttpRequest, scaled } from '@mediagen/testing';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATION_KINDS } from '@mediagen/shared';
import { GenerationLifecycle } from '@mediagen/core';
import { createTestContext, type TestApp, type TestContext } from '@mediagen/server/testing';
import { createTestUser, type TestUser } from '@mediagen/server/testing';
import { io as connectSocket } from 'socket.io-client';

/**
 * Property-based fuzzing of everything a client controls: bodies, headers, query strings, path params
 * and the socket handshake. Whatever comes in: never a 5xx, always the one error shape, and a refused
 * request never enqueues a job or spends a token. The process stays up and its heap stays flat. A plain
 * run tries a fifth of the cases of `pnpm test:long`, which runs them all (the heap test always sends
 * its 1,500).
 */
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

/** Cases of a property: all of them in `pnpm test:long`, a fifth in a plain run. */
const cases = (all: number) => scaled(Math.ceil(all / 5), all);

let context: TestContext;
let server: TestApp;
let user: TestUser;
const stats = { cases: 0, accepted: 0, byStatus: new Map<number, number>() };

beforeAll(async () => {
  context = await createTestContext();
  // No workers: accepted jobs stay in their queue, where they are counted. The per-user request limit is
  // lifted so the fuzz reaches the handlers (the limit has its own test in security.test.ts).
  server = await context.start({ RATE_LIMIT_PER_MINUTE: '100000' });
  user = await createTestUser();
});

afterAll(async () => {
  await context?.cleanup();
  console.log(
    `hostile input: ${stats.cases} cases, ${stats.accepted} accepted, statuses ${JSON.stringify([...stats.byStatus])}`,
  );
});

interface Ledger {
  tokens: number;
  jobs: number;
  recorded: number;
}

async function ledger(): Promise<Ledger> {
  const { db } = server.app.database;
  const balance = await new GenerationLifecycle(db).balance(user.uid);
  const tokens = GENERATION_KINDS.reduce((sum, kind) => sum + balance.tokens[kind], 0);
  const counts = await Promise.all(GENERATION_KINDS.map((kind) => server.app.jobs.queue(kind).getJobCounts()));
  const jobs = counts.reduce((sum, count) => sum + Object.values(count).reduce((a, b) => a + b, 0), 0);
  const { recorded } = await db
    .selectFrom('generations')
    .select((eb) => eb.fn.countAll<string>().as('recorded'))
    .where('uid', '=', user.uid)
    .executeTakeFirstOrThrow();
  return { tokens, jobs, recorded: Number(recorded) };
}

/** Sends one request and checks the invariants; returns the status and the error code, if any. */
async function probe(options: InjectOptions): Promise<number> {
  return (await probeAnswer(options)).status;
}

async function probeAnswer(options: InjectOptions): Promise<{ status: number; code?: string }> {
  const before = await ledger();
  const response = await server.app.inject(options);
  const after = await ledger();
  stats.cases += 1;
  stats.byStatus.set(response.statusCode, (stats.byStatus.get(response.statusCode) ?? 0) + 1);
  const where = `${options.method} ${options.url} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, where).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(response.json(), where).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
  }
  if (response.statusCode === 202) {
    stats.accepted += 1;
    // Exactly one job and one token for an accepted request (a replayed Idempotency-Key: none).
    const replayed = response.headers['idempotent-replayed'] === 'true';
    expect(after.jobs - before.jobs, where).toBe(replayed ? 0 : 1);
    expect(before.tokens - after.tokens, where).toBe(replayed ? 0 : 1);
  } else {
    expect(after, where).toEqual(before);
  }
  const code = response.statusCode >= 400 ? (response.json() as { error: { code: string } }).error.code : undefined;
  return { status: response.statusCode, ...(code === undefined ? {} : { code }) };
}

// size 'max': lengths spread over the whole range up to maxLength. fast-check's default size keeps
// strings under about thirty characters, far from every limit that matters here.
const printable = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength,
    size: 'max',
  });
const anyText = (maxLength: number) => fc.string({ unit: 'grapheme', maxLength, size: 'max' });
/** C0, DEL and C1: the control characters no string a client sends may hold. */
const controlCharacter = fc
  .oneof(fc.integer({ min: 0x00, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((code) => String.fromCodePoint(code));
/** Text with control characters strewn through it. */
const controlledText = (maxLength: number) =>
  fc.string({ unit: fc.oneof(controlCharacter, fc.constantFrom('a', ' ', 'é', '\n')), maxLength, size: 'max' });

const fieldValue = fc.oneof(
  anyText(40),
  anyText(2500),
  controlledText(40),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);
const nearValidBody = fc.record(
  {
    kind: fc.oneof(fc.constantFrom('image', 'video', 'speech'), fc.string(), fc.integer()),
    prompt: fc.oneof(fc.constantFrom('a red fox', 'nude fox', ''), fieldValue),
    input: fc.oneof(fc.constant('Hello'), fieldValue),
    voice: fc.oneof(fc.constantFrom('nova', 'alloy', 'HAL'), fieldValue),
    language: fc.oneof(fc.constantFrom('en-US', 'fr-FR', 'xx'), fieldValue),
    speed: fc.oneof(fc.constantFrom(0.25, 1, 4, 0, 10), fieldValue),
    quality: fc.oneof(fc.constantFrom('standard', 'high', 'ultra'), fieldValue),
    duration: fc.oneof(fc.constantFrom(6, 10, 0, -1), fieldValue),
    style: fc.oneof(fc.constantFrom('realistic', 'anime', '???'), fieldValue),
    width: fc.oneof(fc.constantFrom(512, 1024, 1000, 4096), fieldValue),
    height: fc.oneof(fc.constantFrom(512, 1024, 7), fieldValue),
    seed: fc.oneof(fc.integer(), fc.constant(-1), fc.constant(2 ** 40), fieldValue),
    __proto__: fc.object({ maxDepth: 1 }),
    constructor: fieldValue,
  },
  { requiredKeys: [] },
);
const jsonBody = fc.oneof(nearValidBody, fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }));

const bearerHeader = () =>
  fc.oneof(
    fc.constant(`Bearer ${user.idToken}`),
    printable(200).map((value) => `Bearer ${value}`),
    printable(200),
    fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `bearer   ${user.idToken}`),
    printable(20).map((suffix) => `Bearer ${user.idToken}${suffix}`),
    fc.nat(user.idToken.length - 1).map((at) => `Bearer ${user.idToken.slice(0, at)}X${user.idToken.slice(at + 1)}`),
  );

describe('fuzzed requests', () => {
  it('JSON bodies of any shape: 4xx or one accepted job per token', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody, async (body) => {
        const payload = JSON.stringify(body) ?? 'undefined';
        await probe({
          method: 'POST',
          url: '/api/generations',
          headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
          payload,
        });
      }),
      { numRuns: cases(1500) },
    );
    // Nothing reached Object.prototype through a "__proto__" key.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const polluting =
      '{"kind":"image","prompt":"a cat","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    await probe({
      method: 'POST',
      url: '/api/generations',
      headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
      payload: polluting,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('raw bytes under any content type, and oversized bodies', async () => {
    const contentType = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=xyz',
        'application/octet-stream',
      ),
      printable(60),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 70_000, size: 'max' }),
        contentType,
        async (payload, type) => {
          await probe({
            method: 'POST',
            url: '/api/generations',
            headers: { authorization: `Bearer ${user.idToken}`, 'content-type': type },
            payload,
          });
        },
      ),
      { numRuns: cases(250) },
    );
    for (const size of [64 * 1024 + 1, 1024 * 1024, 8 * 1024 * 1024]) {
      const status = await probe({
        method: 'POST',
        url: '/api/generations',
        headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ kind: 'image', prompt: 'x'.repeat(size) }),
      });
      expect(status).toBe(413);
    }
  });

  it('headers: authorization, Idempotency-Key, content-type', async () => {
    await fc.assert(
      fc.asyncProperty(
        bearerHeader(),
        fc.option(printable(200), { nil: undefined }),
        fc.oneof(fc.constant({ kind: 'speech', input: 'Hi', voice: 'nova', language: 'en-US' }), nearValidBody),
        async (authorization, idempotencyKey, body) => {
          await probe({
            method: 'POST',
            url: '/api/generations',
            headers: {
              authorization,
              'content-type': 'application/json',
              ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
            },
            payload: JSON.stringify(body),
          });
        },
      ),
      { numRuns: cases(600) },
    );
  });

  it('query strings and path parameters', async () => {
    const query = fc.oneof(
      fc
        .dictionary(
          fc.oneof(printable(12), fc.constantFrom('q', 'cursor', 'kind', 'status', 'limit')),
          fc.oneof(printable(30), controlledText(30), fc.constantFrom('image', '0', '-1', '101', '1e3', 'NaN')),
        )
        .map((entries) => new URLSearchParams(entries).toString()),
      printable(80).map((raw) => encodeURI(raw)),
    );
    await fc.assert(
      fc.asyncProperty(query, async (search) => {
        await probe({
          method: 'GET',
          url: `/api/generations?${search}`,
          headers: { authorization: `Bearer ${user.idToken}` },
        });
      }),
      { numRuns: cases(500) },
    );
    const id = fc.oneof(
      anyText(300),
      fc
        .constantFrom('image', 'video', 'speech')
        .chain((kind) =>
          fc
            .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 })
            .map((hex) => `${kind}_${hex}`),
        ),
      fc.constantFrom('..', '../../etc/passwd', '%00', 'image_', '__proto__', 'constructor'),
    );
    await fc.assert(
      fc.asyncProperty(id, fc.constantFrom('GET', 'DELETE') as fc.Arbitrary<'GET' | 'DELETE'>, async (raw, method) => {
        await probe({
          method,
          url: `/api/generations/${encodeURIComponent(raw)}`,
          headers: { authorization: `Bearer ${user.idToken}` },
        });
      }),
      { numRuns: cases(500) },
    );
    await fc.assert(
      fc.asyncProperty(anyText(250), printable(30), printable(80), async (key, exp, sig) => {
        const search = new URLSearchParams({ exp, sig }).toString();
        await probe({ method: 'GET', url: `/artifacts/${encodeURIComponent(key)}?${search}` });
      }),
      { numRuns: cases(300) },
    );
  });

  describe('control characters, in every field and every query parameter', () => {
    /** A valid request of each kind, every field given, each a string where the API takes one. */
    const validBodies: Record<string, Record<string, unknown>> = {
      image: {
        kind: 'image',
        prompt: 'a lighthouse at dawn',
        width: 1024,
        height: 1024,
        steps: 30,
        cfgScale: 7,
        samples: 1,
        stylePreset: 'anime',
        seed: 7,
      },
      video: { kind: 'video', prompt: 'waves on a beach', quality: 'standard', duration: 6, style: 'cinematic' },
      speech: { kind: 'speech', input: 'Good morning', voice: 'nova', language: 'en-US', speed: 1, format: 'mp3' },
    };
    const validQuery: Record<string, string> = {
      q: 'lighthouse',
      cursor: Buffer.from(`${new Date().toISOString()}|image_${'0'.repeat(32)}`).toString('base64url'),
      kind: 'image',
      status: 'completed',
      limit: '5',
    };
    // Prompts and speech texts may hold tabs and line breaks (read as spaces or kept); nothing else may.
    const WRITTEN_FIELDS = new Set(['prompt', 'input']);
    const WHITESPACE_CONTROLS = new Set(['\t', '\n', '\u000b', '\f', '\r', '\u0085']);
    const refusedIn = (field: string) =>
      WRITTEN_FIELDS.has(field) ? controlCharacter.filter((c) => !WHITESPACE_CONTROLS.has(c)) : controlCharacter;
    const insertAt = (value: string, at: number, inserted: string) => {
      const place = at % (value.length + 1);
      return `${value.slice(0, place)}${inserted}${value.slice(place)}`;
    };

    it('a body with one anywhere in any field: 400 INVALID_REQUEST, no token moved, no job', async () => {
      const bodyField = fc.constantFrom(
        ...Object.entries(validBodies).flatMap(([kind, body]) => Object.keys(body).map((field) => [kind, field])),
      );
      const mutation = bodyField.chain(([kind, field]) =>
        fc.tuple(fc.constant(kind!), fc.constant(field!), refusedIn(field!), fc.nat()),
      );
      await fc.assert(
        fc.asyncProperty(mutation, async ([kind, field, control, at]) => {
          const body = { ...validBodies[kind] };
          body[field] = insertAt(String(body[field]), at, control);
          const answer = await probeAnswer({
            method: 'POST',
            url: '/api/generations',
            headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          expect(answer, `${kind}.${field} with U+${control.codePointAt(0)!.toString(16)}`).toEqual({
            status: 400,
            code: 'INVALID_REQUEST',
          });
        }),
        { numRuns: cases(400) },
      );
    });

    it('a history query with one anywhere in any parameter: 400 INVALID_REQUEST', async () => {
      const unchanged = await probeAnswer({
        method: 'GET',
        url: `/api/generations?${new URLSearchParams(validQuery).toString()}`,
        headers: { authorization: `Bearer ${user.idToken}` },
      });
      expect(unchanged.status).toBe(200);
      const mutation = fc.tuple(fc.constantFrom(...Object.keys(validQuery)), controlCharacter, fc.nat());
      await fc.assert(
        fc.asyncProperty(mutation, async ([name, control, at]) => {
          const query = { ...validQuery, [name]: insertAt(validQuery[name]!, at, control) };
          const answer = await probeAnswer({
            method: 'GET',
            url: `/api/generations?${new URLSearchParams(query).toString()}`,
            headers: { authorization: `Bearer ${user.idToken}` },
          });
          expect(answer, `${name} with U+${control.codePointAt(0)!.toString(16)}`).toEqual({
            status: 400,
            code: 'INVALID_REQUEST',
          });
        }),
        { numRuns: cases(200) },
      );
    });
  });

  it('the process is up and its heap flat: a second identical round of hostile requests keeps no memory', async () => {
    // The same 1,500 hostile requests twice; the first warms every cache and JIT path, so whatever the
    // second leaves on the heap is what each request leaks. (The test runner shares this heap, so the
    // comparison is between rounds rather than against a cold start.)
    const bodies = fc.sample(jsonBody, { numRuns: 1000, seed: 42 }).map((body) => JSON.stringify(body) ?? 'null');
    const tokens = fc.sample(bearerHeader(), { numRuns: 500, seed: 7 });
    const round = async () => {
      for (const payload of bodies) {
        const response = await server.app.inject({
          method: 'POST',
          url: '/api/generations',
          headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
          payload,
        });
        if (response.statusCode >= 500) throw new Error(`5xx for ${payload}`);
      }
      for (const authorization of tokens) {
        const response = await server.app.inject({
          method: 'GET',
          url: '/api/generations?limit=5',
          headers: { authorization },
        });
        if (response.statusCode >= 500) throw new Error(`5xx for ${authorization}`);
      }
    };
    const settledHeap = async () => {
      for (let index = 0; index < 3; index += 1) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return process.memoryUsage().heapUsed;
    };
    await round();
    const before = await settledHeap();
    await round();
    const after = await settledHeap();
    const growthMb = (after - before) / 1024 / 1024;

    console.log(
      `heap after round 1 ${(before / 1048576).toFixed(1)} MB, after round 2 ${(after / 1048576).toFixed(1)} MB`,
    );
    expect(growthMb).toBeLessThan(8);
    expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

/** One request over a raw socket, its bytes as written (fetch would normalise malformed paths away). */
const rawRequest = (request: string) => rawHttpRequest(server.origin, request, 'latin1');

const MARKER = 'zq7marker';

function expectErrorShape(answer: { status: number; body: string }, where: string) {
  expect(answer.status, where).toBeGreaterThanOrEqual(400);
  expect(answer.status, where).toBeLessThan(500);
  expect(JSON.parse(answer.body), where).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
  expect(answer.body, where).not.toContain(MARKER);
}

describe('raw HTTP near every limit', () => {
  const pathByte = fc.oneof(
    fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
    fc.constantFrom('%', '%E0%A4%A', '%ZZ', '%00', '%C0%AF', '%FF', '//', '/..', ';', '\\'),
    fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)),
  );
  const rawPath = fc
    .tuple(
      fc.constantFrom('/api/generations/', '/artifacts/', '/api/', '/', '/admin/queues/api/'),
      fc.array(pathByte, { maxLength: 400, size: 'max' }),
      fc.nat(300),
    )
    .map(([base, bytes, padding]) => `${base}${bytes.join('')}${'a'.repeat(padding)}${MARKER}`);

  it('malformed and long raw paths get the error shape, never a 5xx, never an echo', async () => {
    await fc.assert(
      fc.asyncProperty(rawPath, fc.constantFrom('GET', 'DELETE', 'POST'), async (path, method) => {
        const answer = await rawRequest(
          `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${user.idToken}\r\n` +
            'Content-Length: 0\r\nConnection: close\r\n\r\n',
        );
        if (answer.status === 200 && path.startsWith('/api/') === false) return; // e.g. a public page
        expectErrorShape(answer, `${method} ${path.slice(0, 120)}`);
      }),
      { numRuns: cases(300) },
    );
  });

  it('headers just under and just over the size limit', async () => {
    // Node refuses a request whose head passes 16 KiB; just under it the route answers as usual.
    for (const padding of [15_000, 16_500, 64_000]) {
      const answer = await rawRequest(
        `GET /api/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${user.idToken}\r\n` +
          `X-Padding: ${MARKER}${'p'.repeat(padding)}\r\nConnection: close\r\n\r\n`,
      );
      if (padding + user.idToken.length < 16_000) expect(answer.status).toBe(200);
      else {
        expect(answer.status).toBe(431);
        expectErrorShape(answer, `padding ${padding}`);
      }
    }
    const longToken = await rawRequest(
      `GET /api/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${MARKER}${'t'.repeat(12_000)}\r\n` +
        'Connection: close\r\n\r\n',
    );
    expect(longToken.status).toBe(401);
    expectErrorShape(longToken, 'long token');
  });

  it('bodies at and just past the body limit', async () => {
    const send = (payload: string) =>
      probe({
        method: 'POST',
        url: '/api/generations',
        headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
        payload,
      });
    const shell = JSON.stringify({ kind: 'image', prompt: '' });
    const limit = 64 * 1024;
    // Exactly at the limit the body is read, and refused for its prompt's length; one byte more is 413.
    expect(await send(JSON.stringify({ kind: 'image', prompt: 'x'.repeat(limit - shell.length) }))).toBe(400);
    expect(await send(JSON.stringify({ kind: 'image', prompt: 'x'.repeat(limit - shell.length + 1) }))).toBe(413);
    // A prompt of exactly the longest allowed length after normalisation, padded with invisible characters.
    expect(
      await send(
        JSON.stringify({
          kind: 'speech',
          input: `${'y'.repeat(4096)}${'\u200b'.repeat(2000)}`,
          voice: 'nova',
          language: 'en-US',
        }),
      ),
    ).toBeLessThan(500);
  });
});

describe('fuzzed socket handshakes', () => {
  it('any auth payload but a valid token is refused at connect', async () => {
    const auth = fc.oneof(
      fc.object({ maxDepth: 2 }),
      fc.record({ token: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.object({ maxDepth: 1 })) }),
      printable(300).map((token) => ({ token })),
      fc
        .nat(user.idToken.length - 1)
        .map((at) => ({ token: `${user.idToken.slice(0, at)}!${user.idToken.slice(at + 1)}` })),
    );
    await fc.assert(
      fc.asyncProperty(auth, async (payload) => {
        const socket = connectSocket(server.origin, {
          auth: payload as Record<string, unknown>,
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
        });
        try {
          const outcome = await new Promise<string>((done) => {
            socket.once('connect', () => done('connected'));
            socket.once('connect_error', (error: Error) => done(`refused:${error.message}`));
          });
          const valid =
            typeof (payload as { token?: unknown }).token === 'string' &&
            (payload as { token: string }).token === user.idToken;
          expect(outcome).toBe(valid ? 'connected' : 'refused:UNAUTHENTICATED');
        } finally {
          socket.disconnect();
        }
      }),
      { numRuns: cases(80) },
    );
  });

  it('raw Engine.IO handshakes with odd query strings and headers never get a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.oneof(fc.constantFrom('EIO', 'transport', 'sid', 't', 'b64', 'j'), printable(8)),
          printable(40),
        ),
        fc.option(printable(80), { nil: undefined }),
        async (params, origin) => {
          const url = `${server.origin}/socket.io/?${new URLSearchParams({ EIO: '4', transport: 'polling', ...params }).toString()}`;
          const response = await fetch(url, { headers: origin === undefined ? {} : { origin } }).catch(() => null);
          if (response === null) return; // a header fetch() itself refuses to send
          await response.arrayBuffer();
          expect(response.status, url).toBeLessThan(500);
        },
      ),
      { numRuns: cases(250) },
    );
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  });
});
