import { NEGATIVE_PROMPT_TERMS } from '@mediagen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPipeline, type TestPipeline } from './support/pipeline';
import { apiClient, imageRequest, submitCompleted } from './support/requests';
import { createTestUser } from './support/users';

/**
 * The Prompt Guide's syntax through the whole pipeline: what the API accepts reaches the provider (the
 * simulator) as weighted text_prompts; what it cannot read, or a blocked word in any part, is refused at
 * submit and charges nothing.
 */
let pipeline: TestPipeline;

beforeAll(async () => {
  pipeline = await startTestPipeline();
});
afterAll(() => pipeline.close(), 60_000);

const FRESH_BALANCE = { image: 1, video: 1, speech: 2 };

async function newClient() {
  return apiClient(pipeline.server.origin, await createTestUser());
}

describe('an image prompt with weights, AND and [negatives]', () => {
  it('reaches Stability as one weighted text_prompt per part, the standard negative terms last', async () => {
    const user = await createTestUser();
    const prompt = 'mountain lake::2 AND cabin::0.5 [blurry, extra fingers] [fog::3]';
    const completed = await submitCompleted(pipeline.server.origin, user, imageRequest(prompt));
    expect(completed.prompt).toBe(prompt);

    // The only image this file makes; every attempt sends the same parts.
    const received = pipeline.simulator.imageRequests();
    expect(received.length).toBeGreaterThan(0);
    expect(received.at(-1)!.textPrompts).toEqual([
      { text: expect.stringMatching(/^mountain lake, highly detailed, /), weight: 2 },
      { text: 'cabin', weight: 0.5 },
      { text: 'blurry, extra fingers', weight: -1 },
      { text: 'fog', weight: -3 },
      { text: NEGATIVE_PROMPT_TERMS.join(', '), weight: -1 },
    ]);
  });

  it.each([
    ['an unclosed [', 'portrait of a chef [blurry, extra fingers', 'prompt: A [ is never closed'],
    ['a weight out of range', 'a lake::50', 'prompt: Weights go from -10 to 10'],
    ['only negative parts', '[blurry, text]', 'prompt: Say what to make, not only what to keep out'],
  ])('refuses %s with 400 INVALID_REQUEST, charging and recording nothing', async (_case, prompt, message) => {
    const api = await newClient();
    const response = await api.submit(imageRequest(prompt));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining(message) } });
    expect((await api.me()).body.tokens).toEqual(FRESH_BALANCE);
    expect((await api.list()).body.items).toEqual([]);
  });

  it.each([
    ['inside brackets', 'a marble statue [nude]', 'nude'],
    ['after AND', 'a castle AND blood moon', 'blood'],
    ['in a weighted part', 'a castle, gore::2', 'gore'],
    ['spelled apart across a negative part', 'n[x]u d e statue', 'nude'],
  ])('refuses a blocked word %s with 400 PROMPT_BLOCKED, spending no token', async (_where, prompt, word) => {
    const api = await newClient();
    const response = await api.submit(imageRequest(prompt));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'PROMPT_BLOCKED', message: `Prompt contains inappropriate content: ${word}` },
    });
    expect((await api.me()).body.tokens).toEqual(FRESH_BALANCE);
  });
});
