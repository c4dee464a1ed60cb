import { afterEach, describe, expect, it } from 'vitest';
import {
  MINIMAX_VIDEO_MODEL_IDS,
  VIDEO_RESOLUTIONS,
  buildStabilityBody,
  planVideo,
  resolveVideoRequest,
  sentVideoModel,
} from '@mediagen/shared';
import { ONE_PIXEL_PNG_BASE64, minimax, openai, stability } from '@mediagen/simulator/documented-examples';
import { GenerationError } from '../../src/generation-error';
import { MiniMaxClient } from '../../src/providers/minimax-client';
import { OpenAISpeechClient } from '../../src/providers/openai-speech-client';
import { ProviderOutOfCreditError } from '../../src/providers/out-of-credit-error';
import { AskAgainLater, ProviderBusyError } from '../../src/providers/provider-calls';
import { MINIMAX_HOSTS } from '../../src/providers/provider-config';
import { StabilityClient } from '../../src/providers/stability-client';
import { ReplayServer } from './replay-server';

/**
 * The clients against the providers' own documents (sources in
 * simulator/src/contract/documented-examples.ts): they send only documented fields and read the
 * documented answers and errors as the documents mean them.
 */
const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function replaying(...replies: [string, { status: number; body: unknown }][]): Promise<ReplayServer> {
  const server = new ReplayServer();
  for (const [path, reply] of replies) server.reply(path, reply);
  servers.push(server);
  await server.start();
  return server;
}

async function failure(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => expect.unreachable('the call should have failed'),
    (error: unknown) => error,
  );
}

describe(`Stability text-to-image (${stability.textToImage.source})`, () => {
  const client = (server: ReplayServer) =>
    new StabilityClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      engine: 'stable-diffusion-xl-1024-v1-0',
      timeoutMs: 5000,
    });
  const body = (engine: string) =>
    buildStabilityBody('A lighthouse on a cliff', { width: 1024, height: 768 }, 42, engine);

  it('sends only documented fields to the engine path with bearer auth, and reads the first artifact', async () => {
    const server = await replaying([stability.textToImage.path, { status: 200, body: stability.textToImage.response }]);
    const [sample] = await client(server).textToImage(body('stable-diffusion-xl-1024-v1-0'));
    expect(sample).toHaveProperty('png');
    expect(Buffer.from((sample as { png: Buffer }).png).toString('base64')).toBe(ONE_PIXEL_PNG_BASE64);
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: 'POST', path: stability.textToImage.path });
    expect(sent!.headers.authorization).toBe('Bearer sk-test');
    expect(Object.keys(sent!.body as object).filter((key) => !stability.requestFields.includes(key as never))).toEqual(
      [],
    );
    expect(sent!.body).toMatchObject({ width: 1152, height: 896 });
  });

  it('reads a CONTENT_FILTERED artifact as the provider refusing the content after doing the work', async () => {
    const [success, filtered] = stability.textToImage.response.artifacts;
    const server = await replaying([
      stability.textToImage.path,
      { status: 200, body: { artifacts: [filtered, success] } },
    ]);
    const error = await failure(client(server).textToImage(body('stable-diffusion-xl-1024-v1-0')));
    expect(error).toMatchObject({ code: 'IMAGE_NOT_GENERATED', retryable: false, outcome: 'content_refused' });
  });

  it(`reads the documented error body into 'Stability AI error: ' and its message (${stability.error.source})`, async () => {
    const server = await replaying([
      stability.textToImage.path,
      { status: stability.error.status, body: stability.error.body },
    ]);
    const error = await failure(client(server).textToImage(body('stable-diffusion-xl-1024-v1-0')));
    expect(error).toBeInstanceOf(GenerationError);
    expect(error).toMatchObject({
      message: `Stability AI error: ${stability.error.body.message}`,
      retryable: false,
      outcome: 'http_4xx',
    });
  });

  it(`reads the rate limit's 429 as a rate limit to wait out (${stability.rateLimited.source})`, async () => {
    const server = await replaying([
      stability.textToImage.path,
      { status: stability.rateLimited.status, body: stability.rateLimited.body },
    ]);
    const error = await failure(client(server).textToImage(body('stable-diffusion-xl-1024-v1-0')));
    expect(error).toBeInstanceOf(ProviderBusyError);
    expect(error).toMatchObject({ provider: 'stability', reason: 'rate_limited' });
  });

  it(`reads the out-of-balance 429 by its body: final, no paid work, not a rate limit (${stability.insufficientBalance.source})`, async () => {
    const server = await replaying([
      stability.textToImage.path,
      { status: stability.insufficientBalance.status, body: stability.insufficientBalance.body },
    ]);
    const error = await failure(client(server).textToImage(body('stable-diffusion-xl-1024-v1-0')));
    expect(error).toBeInstanceOf(ProviderOutOfCreditError);
    expect(error).toMatchObject({
      provider: 'stability',
      code: 'IMAGE_PROVIDER_ERROR',
      message: `Stability AI error: ${stability.insufficientBalance.body.message}`,
      retryable: false,
      outcome: 'http_429',
    });
  });

  it("asks for an image set's samples in one call, and refuses an answer with fewer images than asked for", async () => {
    const server = await replaying([stability.textToImage.path, { status: 200, body: stability.textToImage.response }]);
    const set = { width: 1024, height: 1024, samples: 4 } as Parameters<typeof buildStabilityBody>[1];
    // The documented answer carries one artifact: a set of four cannot be made of it.
    await expect(client(server).textToImage(buildStabilityBody('four lighthouses', set, 42))).rejects.toMatchObject({
      code: 'IMAGE_NOT_GENERATED',
      outcome: 'malformed',
    });
    expect(server.requests[0]!.body).toMatchObject({ samples: 4 });
  });
});

describe(`Stability balance (${stability.balance.source})`, () => {
  it('reads the credits of the documented answer, with bearer auth', async () => {
    const server = await replaying([stability.balance.path, { status: 200, body: stability.balance.response }]);
    const stabilityClient = new StabilityClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      engine: 'stable-diffusion-xl-1024-v1-0',
      timeoutMs: 5000,
    });
    expect(await stabilityClient.balanceCredits()).toBe(stability.balance.response.credits);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: stability.balance.path });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('throws on the documented error instead of reading it as a balance', async () => {
    const server = await replaying([
      stability.balance.path,
      { status: stability.error.status, body: stability.error.body },
    ]);
    const stabilityClient = new StabilityClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      engine: 'stable-diffusion-xl-1024-v1-0',
      timeoutMs: 5000,
    });
    await expect(stabilityClient.balanceCredits()).rejects.toThrow(stability.error.body.message);
  });
});

describe(`MiniMax video generation (${minimax.createTask.source})`, () => {
  const client = (server: ReplayServer) =>
    new MiniMaxClient({
      baseUrl: `${server.url}/v1`,
      apiKey: 'mm-test',
      download: () => Promise.reject(new Error('the contract tests do not download files')),
    });

  it(`uses the documented hosts per region (${minimax.hosts.source})`, () => {
    expect(MINIMAX_HOSTS).toEqual({ global: `${minimax.hosts.global}/v1`, mainland: `${minimax.hosts.mainland}/v1` });
  });

  it("sends the spec's hd 6 s video to a Hailuo model as the documented example does, and reads the task id", async () => {
    const server = await replaying([minimax.createTask.path, { status: 200, body: minimax.createTask.response }]);
    const { body } = planVideo(
      { prompt: minimax.createTask.request.prompt, quality: 'hd', durationSeconds: 6, style: 'cinematic' },
      'MiniMax-Hailuo-02',
    );
    expect(await client(server).startTask(body)).toBe(minimax.createTask.response.task_id);
    const [sent] = server.requests;
    expect(sent!.body).toEqual({ ...minimax.createTask.request, prompt_optimizer: true });
    expect(Object.keys(sent!.body as object).filter((key) => !minimax.requestFields.includes(key as never))).toEqual(
      [],
    );
    expect(sent!.headers.authorization).toBe('Bearer mm-test');
  });

  it.each(minimax.hailuo23.renders)(
    `sends a Pro video settled on Hailuo-2.3 at $resolution in $duration s as the reference documents it (${minimax.hailuo23.source})`,
    async ({ resolution, duration }) => {
      const server = await replaying([minimax.createTask.path, { status: 200, body: minimax.createTask.response }]);
      const settled = resolveVideoRequest('pro', {
        prompt: minimax.hailuo23.prompt,
        quality: 'standard',
        duration,
        resolution,
      });
      if (!settled.ok) throw new Error(settled.message);
      const { settings } = settled;
      const { body } = planVideo(
        { prompt: minimax.hailuo23.prompt, style: 'cinematic', durationSeconds: settings.duration, ...settings },
        sentVideoModel(settings.model, 'T2V-01'),
      );
      await client(server).startTask(body);
      expect(server.requests[0]!.body).toEqual({
        model: minimax.hailuo23.model,
        prompt: minimax.hailuo23.prompt,
        prompt_optimizer: true,
        duration,
        resolution,
      });
    },
  );

  it(`never settles a Hailuo-2.3 request on a pair the reference does not render (${minimax.hailuo23.source})`, () => {
    for (const { resolution, duration } of minimax.hailuo23.refused) {
      const asked = { prompt: 'a boat', quality: 'standard', duration, model: minimax.hailuo23.model } as const;
      const known = (VIDEO_RESOLUTIONS as readonly string[]).includes(resolution);
      if (known)
        expect(resolveVideoRequest('enterprise', { ...asked, resolution: resolution as '1080P' }).ok).toBe(false);
    }
  });

  it(`reads the documented query answer (${minimax.queryTask.source})`, async () => {
    const server = await replaying([minimax.queryTask.path, { status: 200, body: minimax.queryTask.response }]);
    expect(await client(server).queryTask(minimax.queryTask.response.task_id)).toEqual({
      status: 'Success',
      fileId: minimax.queryTask.response.file_id,
    });
    expect(server.requests[0]!.query.get('task_id')).toBe(minimax.queryTask.response.task_id);
  });

  it(`retrieves the file by file_id alone and reads its download_url (${minimax.retrieveFile.source})`, async () => {
    const server = await replaying([minimax.retrieveFile.path, { status: 200, body: minimax.retrieveFile.response }]);
    expect(await client(server).retrieveDownloadUrl(minimax.retrieveFile.response.file.file_id)).toBe(
      minimax.retrieveFile.response.file.download_url,
    );
    expect([...server.requests[0]!.query.keys()]).toEqual(minimax.retrieveFile.queryParameters);
  });

  it(`knows exactly the published text-to-video models (${minimax.textToVideoModels.source})`, () => {
    expect([...MINIMAX_VIDEO_MODEL_IDS].sort()).toEqual([...minimax.textToVideoModels.models].sort());
  });

  /**
   * What each documented code does (worker/src/providers/minimax-status.ts): `busy` pauses the queue,
   * `ask again` keeps a paid task's polling or file retrieval going, anything else is the error thrown.
   */
  type Expected = Record<string, unknown> | 'busy' | 'ask again';
  const retry = { code: 'VIDEO_START_FAILED', retryable: true, outcome: 'http_5xx' };
  const refused = (code: string) => ({ code, retryable: false, outcome: 'http_4xx' });
  const auth = { code: 'VIDEO_AUTH_FAILED', retryable: false, outcome: 'http_4xx' };
  const sensitive = { code: 'VIDEO_FAILED', retryable: false, outcome: 'content_refused' };
  const meaning: Record<number, { start: Expected; paid: Expected | 'refused' }> = {
    1000: { start: retry, paid: 'ask again' },
    1001: { start: retry, paid: 'ask again' },
    1013: { start: retry, paid: 'ask again' },
    1024: { start: retry, paid: 'ask again' },
    1033: { start: retry, paid: 'ask again' },
    1002: { start: 'busy', paid: 'busy' },
    1039: { start: 'busy', paid: 'busy' },
    1041: { start: 'busy', paid: 'busy' },
    2045: { start: 'busy', paid: 'busy' },
    1008: { start: refused('VIDEO_START_FAILED'), paid: 'ask again' },
    2056: { start: refused('VIDEO_START_FAILED'), paid: 'ask again' },
    1004: { start: auth, paid: auth },
    2049: { start: auth, paid: auth },
    1026: { start: sensitive, paid: sensitive },
    1027: { start: sensitive, paid: sensitive },
  };
  const expectedOf = (code: number) => meaning[code] ?? { start: refused('VIDEO_START_FAILED'), paid: 'refused' };

  function expectOutcome(error: unknown, expected: Expected | 'refused', refusedCode: string) {
    if (expected === 'busy') expect(error).toBeInstanceOf(ProviderBusyError);
    else if (expected === 'ask again') expect(error).toBeInstanceOf(AskAgainLater);
    else expect(error).toMatchObject(expected === 'refused' ? refused(refusedCode) : expected);
  }

  it.each(Object.entries(minimax.errorCodes.messages))(
    `reads documented code %s ("%s") in an HTTP 200 as its table means, at the start and for a paid task (${minimax.errorCodes.source})`,
    async (code, message) => {
      const body = { base_resp: { status_code: Number(code), status_msg: message } };
      const server = await replaying(
        [minimax.createTask.path, { status: 200, body }],
        [minimax.queryTask.path, { status: 200, body }],
        [minimax.retrieveFile.path, { status: 200, body }],
      );
      const expected = expectedOf(Number(code));
      const started = await failure(
        client(server).startTask(
          planVideo({ prompt: 'a boat', quality: 'standard', durationSeconds: 6, style: 'cinematic' }).body,
        ),
      );
      expectOutcome(started, expected.start, 'VIDEO_START_FAILED');
      expectOutcome(await failure(client(server).queryTask('1')), expected.paid, 'VIDEO_POLL_FAILED');
      expectOutcome(await failure(client(server).retrieveDownloadUrl('1')), expected.paid, 'VIDEO_URL_FAILED');
    },
  );

  it.each(Object.entries(minimax.retrieveErrorCodes.messages))(
    `never loses a rendered file to the retrieval page's code %s ("%s") (${minimax.retrieveErrorCodes.source})`,
    async (code, message) => {
      const body = { base_resp: { status_code: Number(code), status_msg: message } };
      const server = await replaying([minimax.retrieveFile.path, { status: 200, body }]);
      const error = await failure(client(server).retrieveDownloadUrl(minimax.retrieveFile.response.file.file_id));
      expect(error instanceof ProviderBusyError || error instanceof AskAgainLater).toBe(true);
    },
  );

  it('polls again after a query answer that is not JSON, as after a network error', async () => {
    const server = await replaying([minimax.queryTask.path, { status: 200, body: Buffer.from('{"task_id":"') }]);
    expect(await failure(client(server).queryTask('1'))).toMatchObject({ name: 'AskAgainLater', outcome: 'malformed' });
  });
});

describe(`OpenAI speech (${openai.speech.source})`, () => {
  const client = (server: ReplayServer) =>
    new OpenAISpeechClient({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  const { input, voice } = openai.speech.request;
  const speech = { input, voice, speed: 1, language: 'en-US', format: 'mp3', model: 'tts-1' } as const;

  it('sends only documented fields and returns the audio it is given', async () => {
    const server = new ReplayServer().reply(openai.speech.path, {
      status: 200,
      body: Buffer.from('ID3 audio'),
      headers: { 'content-type': 'audio/mpeg' },
    });
    servers.push(server);
    await server.start();
    const audio = await client(server).synthesize(speech);
    expect(Buffer.from(audio.bytes).toString()).toBe('ID3 audio');
    expect(audio.mimeType).toBe('audio/mpeg');
    const [sent] = server.requests;
    expect(sent!.body).toEqual({ ...openai.speech.request, speed: 1, response_format: 'mp3' });
    expect(Object.keys(sent!.body as object).filter((key) => !openai.requestFields.includes(key as never))).toEqual([]);
  });

  it(`tells a rate limit (wait) from an account out of credit (fail now) (${openai.rateLimited.source})`, async () => {
    const server = await replaying(
      [openai.speech.path, { status: openai.rateLimited.status, body: openai.rateLimited.body }],
      [openai.speech.path, { status: openai.insufficientQuota.status, body: openai.insufficientQuota.body }],
    );
    expect(await failure(client(server).synthesize(speech))).toMatchObject({
      name: 'ProviderBusyError',
      reason: 'rate_limited',
    });
    expect(await failure(client(server).synthesize(speech))).toMatchObject({
      code: 'SPEECH_FAILED',
      retryable: false,
      outcome: 'http_429',
    });
  });
});
