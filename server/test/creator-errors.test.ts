import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectCreatorView, rulesOf, startWalk, walkOne, type Walk } from './support/creator-view';

/**
 * Creators never read an operator's error (issue 34): every failure the simulator can produce for an
 * image or a speech, run through the whole pipeline and read as the creator reads it (the video routes:
 * creator-errors-video.test.ts, so the two walks run side by side).
 */
describe('every provider failure of an image or a speech on the Realtime API, as the creator reads it', () => {
  let walk: Walk;
  beforeAll(async () => {
    walk = await startWalk({});
  }, 60_000);
  afterAll(() => walk.pipeline.close(), 60_000);

  it.each(rulesOf(['image']))('image: %s', async (_name, rule) => {
    expectCreatorView(rule, await walkOne(walk, 'image', rule));
  });
  it.each(rulesOf(['realtime.connect', 'realtime.response']))('speech: %s', async (_name, rule) => {
    expectCreatorView(rule, await walkOne(walk, 'speech', rule));
  });
});

describe('every provider failure of a speech on the speech endpoint, as the creator reads it', () => {
  let walk: Walk;
  beforeAll(async () => {
    walk = await startWalk({ SPEECH_MODEL: 'tts-1' });
  }, 60_000);
  afterAll(() => walk.pipeline.close(), 60_000);

  it.each(rulesOf(['speech']))('speech: %s', async (_name, rule) => {
    expectCreatorView(rule, await walkOne(walk, 'speech', rule));
  });
});
