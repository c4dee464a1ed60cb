import { describe, expect, it } from 'vitest';
import { AUTH, getWithKey, postJson, startSimulator } from './helpers';
import { minimax, openai, shapeOf, stability } from '../src/contract/documented-examples';

/**
 * The providers' documented requests, replayed against the simulator: it must accept them and answer
 * with the documented shapes (sources in src/contract/documented-examples.ts).
 */
describe('Stability, as documented', () => {
  it(`accepts the reference's text-to-image request and answers with its artifacts shape (${stability.textToImage.source})`, async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}${stability.textToImage.path}`, stability.textToImage.request);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { artifacts: { finishReason: string }[] };
    expect(shapeOf(body)).toEqual(shapeOf(stability.textToImage.response));
    for (const artifact of body.artifacts) expect(stability.finishReasons.values).toContain(artifact.finishReason);
  });

  it(`answers the balance in the specification's shape (${stability.balance.source})`, async () => {
    const { url } = await startSimulator();
    const response = await getWithKey(`${url}${stability.balance.path}`);
    expect(response.status).toBe(200);
    expect(shapeOf(await response.json())).toEqual(shapeOf(stability.balance.response));
  });

  it(`answers a rate limit and an organization out of credit with the two 429s real accounts get (${stability.insufficientBalance.source})`, async () => {
    const { url } = await startSimulator({
      faults: [
        { route: 'image', fault: 'http429', times: 1 },
        { route: 'image', fault: 'insufficient-balance', times: 1 },
      ],
    });
    for (const documented of [stability.rateLimited, stability.insufficientBalance]) {
      const response = await postJson(`${url}${stability.textToImage.path}`, stability.textToImage.request);
      expect(response.status).toBe(documented.status);
      const body = (await response.json()) as { name: string; message: string };
      expect(shapeOf(body)).toEqual(shapeOf(documented.body));
      expect(body).toMatchObject({ name: documented.body.name, message: documented.body.message });
    }
  });

  it(`answers errors with the specification's Error shape (${stability.error.source})`, async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}${stability.textToImage.path}`, stability.textToImage.request, {});
    expect(response.status).toBe(stability.error.status);
    expect(shapeOf(await response.json())).toEqual(shapeOf(stability.error.body));
  });
});

describe('MiniMax, as documented', () => {
  it(`accepts the reference's request and answers create, query and retrieve in its shapes (${minimax.createTask.source})`, async () => {
    const { url } = await startSimulator({ videoQueueingMs: 0, videoProcessingMs: 0 });
    const created = await postJson(`${url}${minimax.createTask.path}`, minimax.createTask.request);
    const task = (await created.json()) as { task_id: string };
    expect(shapeOf(task)).toEqual(shapeOf(minimax.createTask.response));

    const queried = await getWithKey(`${url}${minimax.queryTask.path}?task_id=${task.task_id}`);
    const status = (await queried.json()) as { file_id: string; status: string };
    expect(shapeOf(status)).toEqual(shapeOf(minimax.queryTask.response));
    expect(minimax.queryTask.statuses).toContain(status.status);

    const query = new URLSearchParams({ file_id: status.file_id });
    expect([...query.keys()]).toEqual(minimax.retrieveFile.queryParameters);
    const retrieved = await getWithKey(`${url}${minimax.retrieveFile.path}?${query}`);
    expect(shapeOf(await retrieved.json())).toEqual(shapeOf(minimax.retrieveFile.response));
  });

  it.each(Object.entries(minimax.errorCodes.messages))(
    `answers code %s with the documented message in an HTTP 200 (${minimax.errorCodes.source})`,
    async (code, message) => {
      const { url } = await startSimulator({
        faults: [{ route: 'video.create', fault: 'minimax-code', code: Number(code) }],
      });
      const response = await postJson(`${url}${minimax.createTask.path}`, minimax.createTask.request);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ base_resp: { status_code: Number(code), status_msg: message } });
    },
  );
});

describe('MiniMax-Hailuo-2.3, as documented', () => {
  const { hailuo23 } = minimax;
  it.each(hailuo23.renders)(
    `renders $resolution in $duration s, and records what it was sent (${hailuo23.source})`,
    async ({ resolution, duration }) => {
      const simulator = await startSimulator();
      const request = { model: hailuo23.model, prompt: hailuo23.prompt, duration, resolution, prompt_optimizer: true };
      const created = await postJson(`${simulator.url}${minimax.createTask.path}`, request);
      const task = (await created.json()) as { task_id: string };
      expect(shapeOf(task)).toEqual(shapeOf(minimax.createTask.response));
      expect(simulator.videoTasks()).toEqual([
        {
          taskId: task.task_id,
          model: hailuo23.model,
          prompt: hailuo23.prompt,
          duration,
          resolution,
          promptOptimizer: true,
          fastPretreatment: undefined,
        },
      ]);
    },
  );

  it.each(hailuo23.refused)(
    `refuses $resolution in $duration s with invalid params, ${hailuo23.invalidParamsCode}, and starts nothing`,
    async ({ resolution, duration }) => {
      const simulator = await startSimulator();
      const request = { model: hailuo23.model, prompt: hailuo23.prompt, duration, resolution };
      const response = await postJson(`${simulator.url}${minimax.createTask.path}`, request);
      expect(response.status).toBe(200);
      const { base_resp } = (await response.json()) as { base_resp: { status_code: number; status_msg: string } };
      expect(base_resp.status_code).toBe(hailuo23.invalidParamsCode);
      expect(base_resp.status_msg).toMatch(/^invalid params, /);
      expect(simulator.videoTasks()).toEqual([]);
      expect(simulator.stats().videoTasksCreated).toBe(0);
    },
  );
});

describe('MiniMax models, as published', () => {
  it.each(minimax.textToVideoModels.models)(
    `accepts the published text-to-video model %s (${minimax.textToVideoModels.source})`,
    async (model) => {
      const { url } = await startSimulator();
      const response = await postJson(`${url}${minimax.createTask.path}`, { model, prompt: 'a paper boat' });
      expect(((await response.json()) as { base_resp: { status_code: number } }).base_resp.status_code).toBe(0);
    },
  );

  it('refuses video-01, a name the list no longer has, as invalid params', async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}${minimax.createTask.path}`, { model: 'video-01', prompt: 'a paper boat' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ base_resp: { status_code: 2013 } });
  });
});

describe('OpenAI, as documented', () => {
  it(`accepts the reference's speech request and answers with audio (${openai.speech.source})`, async () => {
    const { url } = await startSimulator();
    const response = await postJson(`${url}${openai.speech.path}`, openai.speech.request, AUTH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^audio\//);
  });

  it(`answers a rate limit and an account out of credit with the documented 429s (${openai.rateLimited.source})`, async () => {
    const { url } = await startSimulator({
      faults: [
        { route: 'speech', fault: 'http429', times: 1 },
        { route: 'speech', fault: 'insufficient-quota', times: 1 },
      ],
    });
    for (const documented of [openai.rateLimited, openai.insufficientQuota]) {
      const response = await postJson(`${url}${openai.speech.path}`, openai.speech.request);
      expect(response.status).toBe(documented.status);
      const body = (await response.json()) as { error: { type: string; code: string } };
      expect(shapeOf(body)).toEqual(shapeOf(documented.body));
      expect(body.error).toMatchObject({ type: documented.body.error.type, code: documented.body.error.code });
    }
  });
});
