import { describe, expect, it } from 'vitest';
import { generationView, type GenerationState, stateOfRecord, submissionOf, toRecord } from '@mediagen/core';
import type { ContentCredentialsSummary } from '@mediagen/shared';

const sign = (key: string) => `https://api.example/artifacts/${key}?sig=x`;
const base: GenerationState = {
  id: 'image_0123456789abcdef0123456789abcdef',
  kind: 'image',
  status: 'queued',
  version: 1,
  token: 'held',
  tokenCount: 1,
  tokensReturned: 0,
  outputs: null,
  paidCalls: 0,
  error: null,
  artifact: null,
  artifactExpiredAt: null,
  createdAt: new Date('2026-11-23T10:00:00Z'),
  updatedAt: '2026-11-23T10:00:01.000+00:00',
};

describe('a generation as the contract shows it', () => {
  it('completed image set: every output signed in order, those not made without a file, `result` the first file', () => {
    const set = {
      ...base,
      status: 'completed' as const,
      version: 3,
      token: 'spent' as const,
      tokenCount: 3,
      tokensReturned: 1,
      artifact: { key: `${base.id}.png`, mimeType: 'image/png' },
      outputs: [
        { key: `${base.id}.png`, mimeType: 'image/png', seed: 7 },
        { missing: 'filtered' as const, filtered: true as const, seed: 8 },
        { key: `${base.id}-3.png`, mimeType: 'image/png', seed: 9 },
        { missing: 'failed' as const, seed: 10 },
        // A filtered image recorded before images could fail.
        { filtered: true as const, seed: 11 },
      ],
    };
    const view = generationView(set, { prompt: 'a fox' }, sign);
    expect(view.outputs).toEqual([
      { url: sign(`${base.id}.png`), mimeType: 'image/png', seed: 7 },
      { missing: 'filtered', filtered: true, seed: 8 },
      { url: sign(`${base.id}-3.png`), mimeType: 'image/png', seed: 9 },
      { missing: 'failed', seed: 10 },
      { missing: 'filtered', filtered: true, seed: 11 },
    ]);
    expect(view.result).toEqual({ url: sign(`${base.id}.png`), mimeType: 'image/png' });
    expect(view).toMatchObject({ tokenCount: 3, tokensReturned: 1 });
    // One output (a video, a speech, a single image): `outputs` is the result alone.
    const single = generationView({ ...set, outputs: null }, { prompt: 'a fox' }, sign);
    expect(single.outputs).toEqual([single.result]);
  });

  it('queued: no progress, its place in line, ISO dates', () => {
    expect(
      generationView(base, { prompt: 'a fox' }, sign, { progress: 40, queue: { position: 2, etaMs: 5000 } }),
    ).toEqual({
      id: base.id,
      kind: 'image',
      status: 'queued',
      version: 1,
      progress: 0,
      token: 'held',
      paidWorkStarted: false,
      createdAt: '2026-11-23T10:00:00.000Z',
      updatedAt: '2026-11-23T10:00:01.000Z',
      prompt: 'a fox',
      tokenCount: 1,
      tokensReturned: 0,
      queue: { position: 2, etaMs: 5000 },
    });
  });

  it('active: the published progress, at most 99, no place in line', () => {
    const active = { ...base, status: 'active' as const, version: 2 };
    expect(
      generationView(active, { prompt: 'a fox' }, sign, { progress: 42.4, queue: { position: 1, etaMs: null } }),
    ).toMatchObject({
      status: 'active',
      progress: 42,
    });
    expect(generationView(active, { prompt: 'a fox' }, sign, { progress: 250 }).progress).toBe(99);
    expect(generationView(active, { prompt: 'a fox' }, sign).queue).toBeUndefined();
  });

  it('says whether a paid provider call was made, so a client can tell what a cancel does to the token', () => {
    const active = { ...base, status: 'active' as const, version: 2 };
    expect(generationView(active, { prompt: 'a fox' }, sign).paidWorkStarted).toBe(false);
    expect(generationView({ ...active, version: 3, paidCalls: 1 }, { prompt: 'a fox' }, sign).paidWorkStarted).toBe(
      true,
    );
    expect(generationView({ ...active, paidCalls: 2 }, { prompt: 'a fox' }, sign).paidWorkStarted).toBe(true);
  });

  it('completed: 100 and a signed URL of its artifact', () => {
    const completed: GenerationState = {
      ...base,
      status: 'completed',
      version: 4,
      token: 'spent',
      artifact: { key: `${base.id}.png`, mimeType: 'image/png' },
    };
    expect(generationView(completed, { prompt: 'a fox' }, sign)).toMatchObject({
      progress: 100,
      result: { url: sign(`${base.id}.png`), mimeType: 'image/png' },
    });
  });

  it('completed with its result expired by retention: no URL, and when it expired', () => {
    const expired: GenerationState = {
      ...base,
      status: 'completed',
      version: 5,
      token: 'spent',
      artifactExpiredAt: new Date('2026-12-23T10:00:00Z'),
    };
    const view = generationView(expired, { prompt: 'a fox' }, sign);
    expect(view).toMatchObject({ status: 'completed', progress: 100, resultExpiredAt: '2026-12-23T10:00:00.000Z' });
    expect(view.result).toBeUndefined();
  });

  it('failed and canceled carry their error; the token says what became of it', () => {
    const failed: GenerationState = {
      ...base,
      status: 'failed',
      token: 'refunded',
      error: { code: 'IMAGE_FAILED', message: 'Failed to generate image' },
    };
    expect(generationView(failed, { prompt: 'a fox' }, sign)).toMatchObject({
      status: 'failed',
      token: 'refunded',
      error: { code: 'IMAGE_FAILED', message: 'Failed to generate image' },
    });
    expect(
      generationView({ ...failed, status: 'canceled', token: 'spent' }, { prompt: 'a fox' }, sign).result,
    ).toBeUndefined();
  });
});

const signedBy = (model: string): ContentCredentialsSummary => ({
  signedBy: 'MediaGen signer',
  issuer: 'MediaGen',
  signedAt: '2026-11-23T10:00:02.000Z',
  generator: 'MediaGen 1.0.0',
  model,
  digitalSourceType: 'trainedAlgorithmicMedia',
  actions: { original: ['c2pa.created'], marked: ['c2pa.opened', 'c2pa.watermarked'] },
});

/** A completed generation's row as pg returns it. */
const completedRow = (files: { artifact_key: string; artifact_mime: string } & Record<string, unknown>) => ({
  id: base.id,
  uid: 'user-1',
  kind: 'image',
  status: 'completed',
  version: 3,
  request: { prompt: 'a fox', seed: 7 },
  prompt: 'a fox',
  token: 'spent',
  token_count: 1,
  tokens_returned: 0,
  paid_calls: 1,
  provider_task_id: null,
  artifact_bytes: 10,
  marked_artifact_key: null,
  content_credentials: null,
  outputs: null,
  artifact_expired_at: null,
  error_code: null,
  error_message: null,
  provider_error: null,
  created_at: new Date('2026-11-23T10:00:00Z'),
  updated_at: new Date('2026-11-23T10:00:03Z'),
  started_at: null,
  provider_started_at: null,
  finished_at: null,
  ...files,
});

describe('Content Credentials as the contract shows them', () => {
  const viewOfRow = (row: ReturnType<typeof completedRow>) =>
    generationView(stateOfRecord(toRecord(row)), { prompt: 'a fox' }, sign);

  it("a signed file says what its manifests say, read from the record's columns", () => {
    const view = viewOfRow(
      completedRow({
        artifact_key: `${base.id}.png`,
        artifact_mime: 'image/png',
        content_credentials: signedBy('sd3.5-large'),
      }),
    );
    expect(view.result).toEqual({
      url: sign(`${base.id}.png`),
      mimeType: 'image/png',
      contentCredentials: signedBy('sd3.5-large'),
    });
    expect(view.outputs).toEqual([view.result]);
  });

  it("each image of a set says its own, from the record's outputs; one not made says nothing", () => {
    const outputs = [
      {
        key: `${base.id}.png`,
        mimeType: 'image/png',
        bytes: 10,
        markedKey: null,
        seed: 7,
        contentCredentials: signedBy('a'),
      },
      { missing: 'failed', seed: 8 },
      {
        key: `${base.id}-3.png`,
        mimeType: 'image/png',
        bytes: 10,
        markedKey: null,
        seed: 9,
        contentCredentials: signedBy('b'),
      },
    ];
    const view = viewOfRow(
      completedRow({
        artifact_key: `${base.id}.png`,
        artifact_mime: 'image/png',
        content_credentials: signedBy('a'),
        outputs,
      }),
    );
    expect(view.outputs).toEqual([
      { url: sign(`${base.id}.png`), mimeType: 'image/png', seed: 7, contentCredentials: signedBy('a') },
      { missing: 'failed', seed: 8 },
      { url: sign(`${base.id}-3.png`), mimeType: 'image/png', seed: 9, contentCredentials: signedBy('b') },
    ]);
  });

  it('an unsigned file (a video) carries none, whether read from the record or announced with null', () => {
    const fromRecord = viewOfRow(completedRow({ artifact_key: `${base.id}.mp4`, artifact_mime: 'video/mp4' }));
    const announced = generationView(
      {
        ...base,
        status: 'completed',
        version: 3,
        artifact: { key: `${base.id}.mp4`, mimeType: 'video/mp4', contentCredentials: null },
      },
      { prompt: 'a fox' },
      sign,
    );
    for (const view of [fromRecord, announced]) {
      expect(view.result).toBeDefined();
      expect(view.result).not.toHaveProperty('contentCredentials');
      expect(view.outputs?.[0]).not.toHaveProperty('contentCredentials');
    }
  });
});

describe('what a speech was asked for, as the view shows it', () => {
  it('names the voice the recorded model reads it with', () => {
    const request = {
      input: 'Bonjour',
      voice: 'fable',
      language: 'fr-FR',
      speed: 1.25,
      format: 'wav',
      model: 'gpt-realtime-2.1-mini',
    };
    expect(submissionOf('speech', 'Bonjour', request)).toEqual({
      prompt: 'Bonjour',
      speech: {
        model: 'gpt-realtime-2.1-mini',
        voice: 'fable',
        voiceUsed: 'ballad',
        language: 'fr-FR',
        speed: 1.25,
        format: 'wav',
      },
    });
  });

  it('reads a speech recorded before its model was as tts-1 read it, in mp3', () => {
    expect(submissionOf('speech', 'Hi', { input: 'Hi', voice: 'fable', language: 'en-GB', speed: 1 }).speech).toEqual({
      model: 'tts-1',
      voice: 'fable',
      voiceUsed: 'fable',
      language: 'en-GB',
      speed: 1,
      format: 'mp3',
    });
  });

  it('has nothing of the kind for video', () => {
    expect(submissionOf('video', 'waves', { prompt: 'waves', quality: 'standard' })).toEqual({ prompt: 'waves' });
  });

  it('reads an image as what "same seed again" asks for again: its settings, set size and first seed', () => {
    expect(
      submissionOf('image', 'a fox', {
        prompt: 'a fox',
        seed: 1,
        samples: 3,
        aspectRatio: '16:9',
        stylePreset: 'anime',
      }),
    ).toEqual({ prompt: 'a fox', image: { aspectRatio: '16:9', stylePreset: 'anime', samples: 3, seed: 1 } });
    expect(submissionOf('image', 'a fox', { prompt: 'a fox', seed: 1 }).image).toEqual({ samples: 1, seed: 1 });
  });
});
