import { rawHttpRequest, type RawHttpAnswer } from '@mediagen/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { createTestUser, type TestUser } from './support/users';

/**
 * Every refusal, Fastify's and Node's own included, comes as `{ error: { code, message } }` and never
 * echoes what the client sent. Requests go over a raw socket, as an attacker's would: fetch would
 * normalise the malformed paths away.
 */
let context: TestContext;
let server: TestApp;
let user: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
  user = await createTestUser();
});
afterAll(() => context.cleanup());

const raw = (request: string) => rawHttpRequest(server.origin, request);

const get = (path: string, headers = '') =>
  raw(
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${user.idToken}\r\n${headers}Connection: close\r\n\r\n`,
  );

function expectShape(answer: RawHttpAnswer, status: number, code: string, ...unechoed: string[]) {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body) as unknown;
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  for (const fragment of unechoed) expect(answer.body).not.toContain(fragment);
}

describe('one error shape, never echoing the request', () => {
  it('a malformed %-encoding in the path', async () => {
    expectShape(await get('/api/generations/%E0%A4%A'), 400, 'INVALID_REQUEST', '%E0%A4%A');
    expectShape(await get('/artifacts/%ZZmarker'), 400, 'INVALID_REQUEST', 'marker');
  });

  it('a path parameter over the length limit', async () => {
    const long = `image_${'a'.repeat(300)}marker`;
    expectShape(await get(`/api/generations/${long}`), 414, 'INVALID_REQUEST', 'marker');
  });

  it('an unknown route', async () => {
    expectShape(await get('/nowhere/%3Cscript%3Emarker'), 404, 'NOT_FOUND', 'marker', 'script');
  });

  it('headers over the size limit, and malformed HTTP', async () => {
    expectShape(await get('/api/me', `X-Padding: ${'m'.repeat(20_000)}\r\n`), 431, 'INVALID_REQUEST', 'mmmm');
    expectShape(await raw('GARBAGE\r\n\r\n'), 400, 'INVALID_REQUEST', 'GARBAGE');
  });

  it('a body of another media type, bad JSON, and unknown fields', async () => {
    const post = (contentType: string, body: string) =>
      raw(
        `POST /api/generations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${user.idToken}\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    expectShape(await post('text/marker', 'x'), 415, 'INVALID_REQUEST', 'marker');
    expectShape(await post('application/json', '{"kind": marker'), 400, 'INVALID_REQUEST', 'marker');
    expectShape(
      await post('application/json', JSON.stringify({ kind: 'image', prompt: 'a fox', '<img src=x>marker': 1 })),
      400,
      'INVALID_REQUEST',
      'marker',
      '<img',
    );
  });
});
