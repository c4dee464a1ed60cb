import { describe, expect, it, vi } from 'vitest';
import { getWithKey, postJson, startSimulator, videoBody } from './helpers';

interface QueryResponse {
  task_id: string;
  status: string;
  file_id?: string;
  base_resp: { status_code: number; status_msg: string };
}

async function createTask(url: string): Promise<string> {
  const response = await postJson(`${url}/v1/video_generation`, videoBody());
  expect(response.status).toBe(200);
  const body = (await response.json()) as { task_id: string; base_resp: { status_code: number } };
  expect(body.base_resp).toEqual({ status_code: 0, status_msg: 'success' });
  return body.task_id;
}

async function query(url: string, taskId: string): Promise<QueryResponse> {
  const response = await getWithKey(`${url}/v1/query/video_generation?task_id=${taskId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as QueryResponse;
}

describe('MiniMax video', () => {
  it('moves a task through Queueing and Processing to Success, then serves its MP4', async () => {
    // The exact moments are the store's unit test's (videoTaskStore.test.ts, on a clock of its own);
    // here the statuses a client polls come in order, with no file before Success.
    const { url } = await startSimulator({ videoQueueingMs: 300, videoProcessingMs: 300 });
    const taskId = await createTask(url);
    const seen: string[] = [];
    let done: QueryResponse | undefined;
    await vi.waitUntil(
      async () => {
        const answer = await query(url, taskId);
        expect(answer.task_id).toBe(taskId);
        if (answer.status !== 'Success') expect(answer.file_id).toBeUndefined();
        if (seen.at(-1) !== answer.status) seen.push(answer.status);
        if (answer.status === 'Success') done = answer;
        return done !== undefined;
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(['Queueing', 'Processing', 'Success'].filter((status) => seen.includes(status))).toEqual(seen);
    expect(done).toMatchObject({ status: 'Success', file_id: expect.any(String), base_resp: { status_code: 0 } });

    const retrieve = await getWithKey(`${url}/v1/files/retrieve?file_id=${done!.file_id}`);
    const { file } = (await retrieve.json()) as { file: { download_url: string; bytes: number; filename: string } };
    expect(file).toMatchObject({ file_id: done!.file_id, filename: 'output.mp4', purpose: 'video_generation' });
    expect(file.download_url.startsWith(`${url}/`)).toBe(true);

    const download = await fetch(file.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(file.bytes);
    expect(bytes.toString('ascii', 4, 8)).toBe('ftyp');
  });

  it('serves the same MP4 as application/octet-stream under the untyped-video fault, as object storage may', async () => {
    const { url } = await startSimulator({ videoQueueingMs: 0, videoProcessingMs: 0 });
    const { file_id: fileId } = await query(url, await createTask(url));
    const retrieve = await getWithKey(`${url}/v1/files/retrieve?file_id=${fileId}`);
    const { file } = (await retrieve.json()) as { file: { download_url: string } };
    const download = await fetch(file.download_url, { headers: { 'x-sim-fault': 'untyped-video' } });
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await download.arrayBuffer()).toString('ascii', 4, 8)).toBe('ftyp');
  });

  it('counts created tasks', async () => {
    const simulator = await startSimulator();
    await createTask(simulator.url);
    await createTask(simulator.url);
    await postJson(`${simulator.url}/v1/video_generation`, videoBody({ prompt: '' }));
    expect(simulator.stats().videoTasksCreated).toBe(2);
  });

  it('records what each task was sent, over the control API too, until a reset', async () => {
    const simulator = await startSimulator();
    const sent = {
      model: 'MiniMax-Hailuo-2.3',
      prompt: 'a fox',
      duration: 10,
      resolution: '768P',
      fast_pretreatment: true,
    };
    await postJson(`${simulator.url}/v1/video_generation`, videoBody(sent));
    await postJson(`${simulator.url}/v1/video_generation`, videoBody({ model: 'T2V-01', prompt: 'a hen' }));
    // Refused: no task, nothing recorded.
    await postJson(`${simulator.url}/v1/video_generation`, videoBody({ ...sent, resolution: '1080P' }));
    const expected = [
      { model: 'MiniMax-Hailuo-2.3', prompt: 'a fox', duration: 10, resolution: '768P', fastPretreatment: true },
      { model: 'T2V-01', prompt: 'a hen' },
    ];
    expect(simulator.videoTasks()).toMatchObject(expected);
    const listed = await fetch(`${simulator.url}/__sim/video/tasks`);
    expect(await listed.json()).toMatchObject(expected);
    expect(simulator.videoTasks()[1]).toMatchObject({ duration: undefined, resolution: undefined });
    await fetch(`${simulator.url}/__sim/reset`, { method: 'POST' });
    expect(simulator.videoTasks()).toEqual([]);
  });

  it('answers bad input MiniMax style: HTTP 200 with status_code 2013', async () => {
    const { url } = await startSimulator();
    for (const body of [
      videoBody({ model: undefined }),
      videoBody({ model: 'video-02' }),
      videoBody({ prompt: '' }),
      videoBody({ prompt: 'a'.repeat(2001) }),
      videoBody({ prompt_optimizer: 'yes' }),
      videoBody({ model: 'MiniMax-Hailuo-02', resolution: '1080P', duration: 10 }),
      videoBody({ model: 'MiniMax-Hailuo-02', resolution: '1920x1080' }),
    ]) {
      const response = await postJson(`${url}/v1/video_generation`, body);
      expect(response.status).toBe(200);
      const { base_resp } = (await response.json()) as QueryResponse;
      expect(base_resp.status_code).toBe(2013);
      expect(base_resp.status_msg).toMatch(/^invalid params, /);
    }
  });

  it('answers an unknown task id with status_code 2013', async () => {
    const { url } = await startSimulator();
    const body = await query(url, '123456789');
    expect(body.base_resp.status_code).toBe(2013);
    expect(body.status).toBeUndefined();
  });

  it('accepts what the Hailuo models take, and ignores fields and sizes a model does not take', async () => {
    const { url } = await startSimulator();
    for (const body of [
      videoBody({ model: 'MiniMax-Hailuo-02', duration: 10, resolution: '768P' }),
      videoBody({ model: 'MiniMax-Hailuo-2.3', duration: 6, resolution: '1080P', fast_pretreatment: true }),
      // The first generation renders a fixed 6 s at 720P and ignores what it is sent instead.
      videoBody({ fps: 30, max_frames: 180, generation_type: 'fast', resolution: '1280x720', duration: 10 }),
    ]) {
      const response = await postJson(`${url}/v1/video_generation`, body);
      expect(await response.json()).toMatchObject({ task_id: expect.any(String), base_resp: { status_code: 0 } });
    }
  });

  it('refuses file retrieval before the video exists', async () => {
    const { url } = await startSimulator({ videoQueueingMs: 10_000 });
    const taskId = await createTask(url);
    expect((await query(url, taskId)).file_id).toBeUndefined();
    const unknownFile = await getWithKey(`${url}/v1/files/retrieve?file_id=${taskId}`);
    expect(((await unknownFile.json()) as QueryResponse).base_resp.status_code).toBe(2013);
  });

  it('answers a missing key MiniMax style: HTTP 200 with status_code 1004', async () => {
    const { url } = await startSimulator();
    const create = await postJson(`${url}/v1/video_generation`, videoBody(), {});
    expect(create.status).toBe(200);
    expect(((await create.json()) as QueryResponse).base_resp.status_code).toBe(1004);
    const poll = await fetch(`${url}/v1/query/video_generation?task_id=1`);
    expect(poll.status).toBe(200);
    expect(((await poll.json()) as QueryResponse).base_resp.status_code).toBe(1004);
  });

  it.each([1000, 1001, 1002, 1004, 1008, 1013, 1026, 1027, 2013, 2049])(
    'minimax-code %i answers HTTP 200 with that code and its documented message',
    async (code) => {
      const { url } = await startSimulator({ faults: [{ route: 'video.create', fault: 'minimax-code', code }] });
      const response = await postJson(`${url}/v1/video_generation`, videoBody());
      expect(response.status).toBe(200);
      const body = (await response.json()) as { task_id?: string; base_resp: QueryResponse['base_resp'] };
      expect(body.task_id).toBeUndefined();
      expect(body.base_resp).toEqual({ status_code: code, status_msg: expect.stringMatching(/\w/) });
    },
  );

  it('enforces a configured task-creation limit with code 1002 in an HTTP 200', async () => {
    const simulator = await startSimulator({ rateLimits: { minimax: { max: 2, windowMs: 60_000, lockoutMs: 0 } } });
    await createTask(simulator.url);
    await createTask(simulator.url);
    const over = await postJson(`${simulator.url}/v1/video_generation`, videoBody());
    expect(over.status).toBe(200);
    expect(await over.json()).toEqual({ base_resp: { status_code: 1002, status_msg: 'rate limit' } });
    expect(simulator.stats()).toMatchObject({ videoTasksCreated: 2, rateLimited: { 'video.create': 1 }, lockouts: 0 });
  });
});
