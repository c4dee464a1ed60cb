import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest, speechRequest, videoRequest } from './support/requests';
import { createTestUser } from './support/users';

/**
 * What the API takes as text, through the real API: control characters are refused in every field and
 * query parameter, and every kind's prompt or text is moderated. A refusal charges and records nothing.
 */

let context: TestContext;
let server: TestApp;

beforeAll(async () => {
  context = await createTestContext();
  server = await context.start();
});
afterAll(async () => {
  await context.cleanup();
});

async function newClient() {
  const user = await createTestUser();
  return apiClient(server.origin, user);
}

const FRESH_BALANCE = { image: 1, video: 1, speech: 2 };

describe('control characters in a request body', () => {
  const refused: [string, Record<string, unknown>][] = [
    ['a NUL in a video style', { ...videoRequest(), style: 'cinematic\u0000' }],
    ['a NUL in an image prompt', imageRequest('a lighthouse\u0000 at dawn')],
    ['an escape in a video prompt', videoRequest('waves\u001b[31m on a beach')],
    ['a DEL in a speech text', speechRequest('Hello\u007f there')],
    ['a C1 control in a speech text', speechRequest('Hello\u009b there')],
    ['a bell in a speech text', speechRequest('Good morning\u0007')],
    ['a NUL in a voice', { ...speechRequest(), voice: 'nova\u0000' }],
    ['a NUL in a language', { ...speechRequest(), language: 'en-US\u0000' }],
    ['a NUL in a format', { ...speechRequest(), format: 'mp3\u0000' }],
    ['a NUL in a video quality', { ...videoRequest(), quality: 'standard\u0000' }],
    ['a NUL in an image style preset', { ...imageRequest(), stylePreset: 'anime\u0000' }],
  ];

  it.each(refused)('refuses %s with 400 INVALID_REQUEST, charging and recording nothing', async (_name, body) => {
    const api = await newClient();
    const response = await api.submit(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('must not contain control characters') },
    });
    expect((await api.me()).body.tokens).toEqual(FRESH_BALANCE);
    expect((await api.list()).body.items).toEqual([]);
  });

  it('keeps the line breaks of a speech text, and reads tabs and line breaks in a prompt as spaces', async () => {
    const api = await newClient();
    const speech = await api.submit(speechRequest('First line.\r\nSecond line.\n\nA new paragraph.'));
    expect(speech.status).toBe(202);
    expect(speech.body.prompt).toBe('First line.\nSecond line.\n\nA new paragraph.');
    const image = await api.submit(imageRequest('a lighthouse\tat dawn,\nwith gulls'));
    expect(image.status).toBe(202);
    expect(image.body.prompt).toBe('a lighthouse at dawn, with gulls');
  });
});

describe('control characters in the history query', () => {
  it('says which parameter holds one, never what it holds', async () => {
    const api = await newClient();
    const response = await api.list('?q=cat%00');
    expect(response.body).toEqual({
      error: { code: 'INVALID_REQUEST', message: 'Invalid request: querystring/q must not contain control characters' },
    });
  });

  it.each([
    ['q', '?q=cat%00'],
    ['q', '?q=%1B%5B2J'],
    ['cursor', '?cursor=abc%00'],
    ['kind', '?kind=image%00'],
    ['status', '?status=queued%7F'],
  ])('refuses one in %s with 400 INVALID_REQUEST', async (_name, query) => {
    const api = await newClient();
    const response = await api.list(query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.any(String) } });
  });

  it('refuses a cursor that decodes to a control character instead of a generation id', async () => {
    const api = await newClient();
    const forged = Buffer.from('2026-01-01T00:00:00.000Z|\u0000').toString('base64url');
    const response = await api.list(`?cursor=${forged}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'INVALID_REQUEST', message: 'cursor must be the nextCursor of a previous page' },
    });
  });
});

describe('moderation of every kind', () => {
  it.each([
    ['an image prompt in small capitals', imageRequest('a ɴᴜᴅᴇ statue'), 'nude'],
    ['a video prompt in leetspeak', videoRequest('g0re in the streets'), 'gore'],
    ['a video prompt in spaced letters', videoRequest('a b l o o d bath'), 'blood'],
    ['a speech text with Cyrillic letters', speechRequest('Read this: \u0435xplicit lyrics'), 'explicit'],
    ['a speech text over two lines', speechRequest('Once upon a time.\nThere was violence.'), 'violence'],
  ])('refuses %s with 400 PROMPT_BLOCKED, spending no token', async (_name, body, word) => {
    const api = await newClient();
    const response = await api.submit(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'PROMPT_BLOCKED', message: `Prompt contains inappropriate content: ${word}` },
    });
    expect((await api.me()).body.tokens).toEqual(FRESH_BALANCE);
  });

  it('lets words that only contain a blocked word through, for every kind', async () => {
    const api = await newClient();
    expect((await api.submit(imageRequest('a bloodhound puppy in the snow'))).status).toBe(202);
    expect((await api.submit(videoRequest('a drone flight over Scunthorpe'))).status).toBe(202);
    expect((await api.submit(speechRequest('The gorge was unexplored.'))).status).toBe(202);
    expect((await api.me()).body.tokens).toEqual({ image: 0, video: 0, speech: 1 });
  });
});
