import { describe, expect, it } from 'vitest';
import { createSimulator } from '../src/index';
import { SDXL_PATH, getWithKey, imageBody, postJson, speechBody, startSimulator, videoBody } from './helpers';

describe('faults', () => {
  it('http500 answers 500 with the provider error body', async () => {
    const { url } = await startSimulator();
    const image = await postJson(`${url}${SDXL_PATH}`, imageBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'http500',
    });
    expect(image.status).toBe(500);
    expect(await image.json()).toMatchObject({ id: expect.any(String), name: 'internal_error' });

    const speech = await postJson(`${url}/v1/audio/speech`, speechBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'http500',
    });
    expect(speech.status).toBe(500);
    expect(await speech.json()).toMatchObject({ error: { type: 'server_error' } });
  });

  it('http429 sends Retry-After, from the rule or 1 by default', async () => {
    const { url } = await startSimulator({
      faults: [{ route: 'video.create', fault: 'http429', retryAfterSeconds: 7 }],
    });
    const configured = await postJson(`${url}/v1/video_generation`, videoBody());
    expect(configured.status).toBe(429);
    expect(configured.headers.get('retry-after')).toBe('7');
    expect(await configured.json()).toMatchObject({ base_resp: { status_code: 1002 } });

    const byHeader = await postJson(`${url}/v1/audio/speech`, speechBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'http429',
    });
    expect(byHeader.status).toBe(429);
    expect(byHeader.headers.get('retry-after')).toBe('1');
    expect(await byHeader.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });

  it('hang never answers: a client with a 300 ms timeout gives up', async () => {
    const { url } = await startSimulator();
    const request = postJson(
      `${url}${SDXL_PATH}`,
      imageBody(),
      { authorization: 'Bearer k', 'x-sim-fault': 'hang' },
      AbortSignal.timeout(300),
    );
    await expect(request).rejects.toThrow(/aborted|timeout/i);
  });

  it('close() finishes promptly while a request hangs', async () => {
    const simulator = createSimulator({ faults: [{ route: 'speech', fault: 'hang' }] });
    const url = await simulator.listen();
    const hanging = postJson(`${url}/v1/audio/speech`, speechBody());
    const outcome = hanging.then(
      () => 'answered',
      () => 'failed',
    );
    await expect.poll(() => simulator.stats().requests.speech).toBe(1);

    const started = performance.now();
    await simulator.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await outcome).toBe('failed');
  });

  it('drop closes the socket without a response', async () => {
    const { url } = await startSimulator();
    const request = getWithKey(`${url}/v1/query/video_generation?task_id=1`, { 'x-sim-fault': 'drop' });
    await expect(request).rejects.toThrow(TypeError);
  });

  it('fail-status and unknown-status change only the reported status', async () => {
    const { url } = await startSimulator();
    const create = await postJson(`${url}/v1/video_generation`, videoBody());
    const { task_id: taskId } = (await create.json()) as { task_id: string };

    const failed = await getWithKey(`${url}/v1/query/video_generation?task_id=${taskId}`, {
      'x-sim-fault': 'fail-status',
    });
    expect(await failed.json()).toMatchObject({ task_id: taskId, status: 'Fail', base_resp: { status_code: 0 } });

    const sim = await startSimulator({
      faults: [{ route: 'video.query', fault: 'unknown-status', status: 'Exploded' }],
    });
    const createdThere = await postJson(`${sim.url}/v1/video_generation`, videoBody());
    const { task_id: otherTaskId } = (await createdThere.json()) as { task_id: string };
    const unknown = await getWithKey(`${sim.url}/v1/query/video_generation?task_id=${otherTaskId}`);
    expect(await unknown.json()).toMatchObject({ status: 'Exploded' });
  });

  it('unknown-status defaults to "Mystery"', async () => {
    const { url } = await startSimulator();
    const response = await getWithKey(`${url}/v1/query/video_generation?task_id=1`, {
      'x-sim-fault': 'unknown-status',
    });
    expect(await response.json()).toMatchObject({ status: 'Mystery' });
  });

  it('malformed answers 200 with a body that is not what the client expects', async () => {
    const { url } = await startSimulator();
    const json = await postJson(`${url}/v1/video_generation`, videoBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'malformed',
    });
    expect(json.status).toBe(200);
    await expect(json.json()).rejects.toThrow(SyntaxError);

    const audio = await postJson(`${url}/v1/audio/speech`, speechBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'malformed',
    });
    expect(audio.status).toBe(200);
    expect(Buffer.from(await audio.arrayBuffer()).toString('ascii', 0, 4)).not.toBe('RIFF');
  });

  it('a rule with times affects only that many matching requests', async () => {
    const simulator = await startSimulator();
    simulator.injectFault({ route: 'image', fault: 'http500', times: 2 });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      statuses.push((await postJson(`${simulator.url}${SDXL_PATH}`, imageBody())).status);
    }
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('the first matching rule wins and other routes are untouched', async () => {
    const simulator = await startSimulator({
      faults: [
        { route: 'speech', fault: 'http429', times: 1 },
        { route: 'speech', fault: 'http500', times: 1 },
      ],
    });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      statuses.push((await postJson(`${simulator.url}/v1/audio/speech`, speechBody())).status);
    }
    expect(statuses).toEqual([429, 500, 200]);
    expect((await postJson(`${simulator.url}${SDXL_PATH}`, imageBody())).status).toBe(200);
  });

  it('a per-request header neither consumes nor is overridden by configured rules', async () => {
    const simulator = await startSimulator({ faults: [{ route: 'image', fault: 'http500', times: 1 }] });
    const byHeader = await postJson(`${simulator.url}${SDXL_PATH}`, imageBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'http429',
    });
    expect(byHeader.status).toBe(429);
    expect((await postJson(`${simulator.url}${SDXL_PATH}`, imageBody())).status).toBe(500);
    expect((await postJson(`${simulator.url}${SDXL_PATH}`, imageBody())).status).toBe(200);
  });

  it("refuses a provider's own fault on another provider's route, and minimax-code without a code", () => {
    const simulator = createSimulator();
    expect(() => simulator.injectFault({ route: 'image', fault: 'minimax-code', code: 1026 })).toThrow(/video\.create/);
    expect(() => simulator.injectFault({ route: 'video.create', fault: 'minimax-code' })).toThrow(/code/);
    expect(() => simulator.injectFault({ route: 'speech', fault: 'content-filtered' })).toThrow(/image/);
    expect(() => simulator.injectFault({ route: 'image', fault: 'insufficient-quota' })).toThrow(/speech/);
  });

  it('rejects an unknown fault header or a status fault on another route', async () => {
    const { url } = await startSimulator();
    const unknown = await postJson(`${url}${SDXL_PATH}`, imageBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'explode',
    });
    expect(unknown.status).toBe(400);
    const wrongRoute = await postJson(`${url}${SDXL_PATH}`, imageBody(), {
      authorization: 'Bearer k',
      'x-sim-fault': 'fail-status',
    });
    expect(wrongRoute.status).toBe(400);
  });

  it('adds latency to provider responses', async () => {
    const { url } = await startSimulator({ latencyMs: 250 });
    const started = performance.now();
    await postJson(`${url}/v1/video_generation`, videoBody());
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });
});
