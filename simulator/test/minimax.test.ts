import { describe, expect, it } from 'vitest';
import { getWithKey, postJson, sleep, startSimulator, videoBody } from './helpers';

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
  it('moves a task from Queueing to Processing to Success, then serves its MP4', async () => {
    const { url } = await startSimulator({ videoQueueingMs: 300, videoProcessingMs: 300 });
    const taskId = await createTask(url);

    const queueing = await query(url, taskId);
    expect(queueing).toMatchObject({ task_id: taskId, status: 'Queueing' });
    expect(queueing.file_id).toBeUndefined();
    await sleep(450);
    expect((await query(url, taskId)).status).toBe('Processing');
    await sleep(300);
    const done = await query(url, taskId);
    expect(done).toMatchObject({ status: 'Success', file_id: expect.any(String), base_resp: { status_code: 0 } });

    const retrieve = await getWithKey(`${url}/v1/files/retrieve?GroupId=group-1&file_id=${done.file_id}`);
    const { file } = (await retrieve.json()) as { file: { download_url: string; bytes: number; filename: string } };
    expect(file).toMatchObject({ file_id: done.file_id, filename: 'output.mp4', purpose: 'video_generation' });
    expect(file.download_url.startsWith(`${url}/`)).toBe(true);

    const download = await fetch(file.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(file.bytes);
    expect(bytes.toString('ascii', 4, 8)).toBe('ftyp');
  });

  it('counts created tasks', async () => {
    const simulator = await startSimulator();
    await createTask(simulator.url);
    await createTask(simulator.url);
    await postJson(`${simulator.url}/v1/video_generation`, videoBody({ prompt: '' }));
    expect(simulator.stats().videoTasksCreated).toBe(2);
  });

  it('answers bad input MiniMax style: HTTP 200 with status_code 2013', async () => {
    const { url } = await startSimulator();
    for (const body of [videoBody({ model: undefined }), videoBody({ prompt: '' }), videoBody({ fps: 'thirty' })]) {
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

  it('refuses file retrieval without GroupId or before the video exists', async () => {
    const { url } = await startSimulator({ videoQueueingMs: 10_000 });
    const taskId = await createTask(url);
    const withoutGroup = await getWithKey(`${url}/v1/files/retrieve?file_id=1`);
    expect(((await withoutGroup.json()) as QueryResponse).base_resp.status_msg).toMatch(/GroupId/);
    expect((await query(url, taskId)).file_id).toBeUndefined();
    const unknownFile = await getWithKey(`${url}/v1/files/retrieve?GroupId=g&file_id=${taskId}`);
    expect(((await unknownFile.json()) as QueryResponse).base_resp.status_code).toBe(2013);
  });

  it('answers HTTP 401 without a key', async () => {
    const { url } = await startSimulator();
    const create = await postJson(`${url}/v1/video_generation`, videoBody(), {});
    expect(create.status).toBe(401);
    expect(((await create.json()) as QueryResponse).base_resp.status_code).toBe(1004);
    const poll = await fetch(`${url}/v1/query/video_generation?task_id=1`);
    expect(poll.status).toBe(401);
  });
});
