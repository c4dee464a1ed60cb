import { describe, expect, it } from 'vitest';
import { createSimulator } from '../src/index';
import { SDXL_PATH, imageBody, postJson, startSimulator, videoBody } from './helpers';

describe('control API', () => {
  it('POST /__sim/faults adds a rule and DELETE clears them', async () => {
    const { url } = await startSimulator();
    const added = await postJson(`${url}/__sim/faults`, { route: 'image', fault: 'http500' }, {});
    expect(added.status).toBe(204);
    expect((await postJson(`${url}${SDXL_PATH}`, imageBody())).status).toBe(500);
    expect((await postJson(`${url}${SDXL_PATH}`, imageBody())).status).toBe(500);

    expect((await fetch(`${url}/__sim/faults`, { method: 'DELETE' })).status).toBe(204);
    expect((await postJson(`${url}${SDXL_PATH}`, imageBody())).status).toBe(200);
  });

  it('rejects a malformed rule with 400 and a reason', async () => {
    const { url } = await startSimulator();
    for (const rule of [
      { route: 'image', fault: 'boom' },
      { route: 'nowhere', fault: 'hang' },
      { route: 'image', fault: 'hang', times: 0 },
    ]) {
      const response = await postJson(`${url}/__sim/faults`, rule, {});
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('GET /__sim/stats counts requests per route and created tasks; reset clears them and the faults', async () => {
    const simulator = await startSimulator({ faults: [{ route: 'video.create', fault: 'http500', times: 1 }] });
    const { url } = simulator;
    await postJson(`${url}/v1/video_generation`, videoBody());
    await postJson(`${url}/v1/video_generation`, videoBody());
    await postJson(`${url}${SDXL_PATH}`, imageBody());

    const stats = await (await fetch(`${url}/__sim/stats`)).json();
    const none = {
      image: 0,
      upscale: 0,
      balance: 0,
      'video.create': 0,
      'video.query': 0,
      'video.file': 0,
      'video.download': 0,
      speech: 0,
      'realtime.connect': 0,
      'realtime.response': 0,
      'stripe.customers': 0,
      'stripe.prices': 0,
      'stripe.checkout': 0,
      'stripe.portal': 0,
      'stripe.subscriptions': 0,
      'stripe.invoices': 0,
    };
    expect(stats).toEqual({
      requests: { ...none, image: 1, 'video.create': 2 },
      videoTasksCreated: 1,
      rateLimited: none,
      lockouts: 0,
    });
    expect(simulator.stats()).toEqual(stats);

    simulator.injectFault({ route: 'image', fault: 'http500' });
    expect((await postJson(`${url}/__sim/reset`, {}, {})).status).toBe(204);
    expect(simulator.stats().videoTasksCreated).toBe(0);
    expect((await postJson(`${url}${SDXL_PATH}`, imageBody())).status).toBe(200);
  });

  it('GET /__sim/stability/requests keeps the weighted text prompts of each rendered request; reset forgets them', async () => {
    const simulator = await startSimulator();
    const { url } = simulator;
    const textPrompts = [
      { text: 'mountain lake', weight: 2 },
      { text: 'fog', weight: 0.5 },
      { text: 'blurry', weight: -1.5 },
    ];
    await postJson(`${url}${SDXL_PATH}`, imageBody({ text_prompts: [...textPrompts, { text: 'cabin' }] }));
    // Refused before rendering: nothing to record.
    await postJson(`${url}${SDXL_PATH}`, imageBody({ width: 1000 }));

    const requests = await (await fetch(`${url}/__sim/stability/requests`)).json();
    expect(requests).toEqual([
      {
        engine: 'stable-diffusion-xl-1024-v1-0',
        textPrompts: [...textPrompts, { text: 'cabin', weight: 1 }],
        width: 1024,
        height: 1024,
        samples: 1,
        seed: 1234,
      },
    ]);
    expect(simulator.imageRequests()).toEqual(requests);

    expect((await postJson(`${url}/__sim/reset`, {}, {})).status).toBe(204);
    expect(simulator.imageRequests()).toEqual([]);
  });

  it('injectFault refuses a rule that can never apply', () => {
    const simulator = createSimulator();
    expect(() => simulator.injectFault({ route: 'image', fault: 'fail-status' })).toThrow(/video\.query/);
  });

  it('has no URL before listen', () => {
    expect(() => createSimulator().url).toThrow(/listen/);
  });
});
