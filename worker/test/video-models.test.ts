import { afterAll, beforeAll, expect, it } from 'vitest';
import { WorkerHarness, videoRequest } from './support/harness';

/**
 * A video goes to MiniMax as the model, resolution and length its plan settled on at submit (recorded with
 * its request, shared/src/video-models.ts); the base model is the worker's MINIMAX_VIDEO_MODEL.
 */
const harness = new WorkerHarness();

beforeAll(() => harness.start({ videoQueueingMs: 50, videoProcessingMs: 50 }));
afterAll(() => harness.stop());

async function sentFor(id: string) {
  const taskId = (await harness.lifecycle.find(id))?.providerTaskId;
  return harness.simulator.videoTasks().find((task) => task.taskId === taskId);
}

it('sends a video settled on Hailuo-2.3 with its model, resolution and length, and prompt_optimizer', async () => {
  const workers = await harness.startWorkers({ kinds: ['video'] });
  const settled = [
    { resolution: '768P', duration: 10, quality: 'standard' },
    { resolution: '1080P', duration: 6, quality: 'hd' },
  ] as const;
  for (const settings of settled) {
    const { job, id } = await harness.submit('video', {
      ...videoRequest('a fox in the snow'),
      model: 'MiniMax-Hailuo-2.3',
      ...settings,
    });
    expect((await harness.settled('video', job)).state).toBe('completed');
    expect(await sentFor(id)).toEqual({
      taskId: expect.any(String),
      model: 'MiniMax-Hailuo-2.3',
      prompt: 'a fox in the snow',
      resolution: settings.resolution,
      duration: settings.duration,
      promptOptimizer: true,
      fastPretreatment: undefined,
    });
  }
  await workers.close(1000);
});

it('sends the base model as MINIMAX_VIDEO_MODEL: for T2V-01, and for a video recorded before plans had models', async () => {
  const workers = await harness.startWorkers({
    kinds: ['video'],
    minimax: { ...harness.config.minimax, model: 'T2V-01-Director' },
  });
  const named = await harness.submit('video', { ...videoRequest('a hen'), model: 'T2V-01', resolution: '720P' });
  const older = await harness.submit('video', { ...videoRequest('a duck'), quality: 'hd' });
  for (const { job, id } of [named, older]) {
    expect((await harness.settled('video', job)).state).toBe('completed');
    expect(await sentFor(id)).toMatchObject({ model: 'T2V-01-Director', resolution: undefined, duration: undefined });
  }
  await workers.close(1000);
});
