import { describe, expect, it } from 'vitest';
import { MAX_PROMPT_PARTS, parsePromptSyntax, promptParts, type PromptPart } from '../src';

const part = (text: string, weight = 1): PromptPart => ({ text, weight });

describe('a prompt without the syntax', () => {
  it.each([
    'a lighthouse on a cliff at dusk, waves crashing',
    'salt and pepper on a wooden table',
    'a sign reading std::vector',
    'aspect 16::9px poster',
    'version ::2.5x of the logo',
    'a lone AND',
    'AND at the start',
    'AND',
    '[]',
    'a cat, ',
  ])('is one part of weight 1, its text unchanged: %s', (prompt) => {
    expect(parsePromptSyntax(prompt)).toEqual({ ok: true, parts: [part(prompt)], usesSyntax: false });
  });
});

describe('the syntax the Prompt Guide teaches', () => {
  it.each<[string, string, PromptPart[]]>([
    [
      'weights end their part',
      'mountain lake::2 cabin::1 fog::0.5',
      [part('mountain lake', 2), part('cabin', 1), part('fog', 0.5)],
    ],
    ['a part with no weight weighs 1', 'mountain lake::2 cabin', [part('mountain lake', 2), part('cabin')]],
    ['a weight may close a sentence', 'a quiet harbour::1.5.', [part('a quiet harbour', 1.5)]],
    ['weights written as .5', 'fog::.5 sun', [part('fog', 0.5), part('sun')]],
    [
      'brackets are a negative part of weight -1',
      'portrait of a chef [blurry, extra fingers, text]',
      [part('portrait of a chef'), part('blurry, extra fingers, text', -1)],
    ],
    [
      'words either side of brackets stay one part, apart',
      'a chef[blurry]smiling',
      [part('a chef smiling'), part('blurry', -1)],
    ],
    ['a weight in brackets is how strongly to keep it out', 'a lake [fog::2]', [part('a lake'), part('fog', -2)]],
    ['written negative or not', 'a lake [fog::-0.5]', [part('a lake'), part('fog', -0.5)]],
    [
      'brackets hold several parts',
      'a lake [fog::2 AND people]',
      [part('a lake'), part('fog', -2), part('people', -1)],
    ],
    [
      'AND blends two parts of weight 1',
      'city skyline, watercolor AND cyberpunk',
      [part('city skyline, watercolor'), part('cyberpunk')],
    ],
    ['AND with weights', 'watercolor::2 AND cyberpunk::0.5', [part('watercolor', 2), part('cyberpunk', 0.5)]],
    ['commas and spaces at part ends go', ' fog::0.5 ,  mist , ', [part('fog', 0.5), part('mist')]],
    ['empty parts are dropped', 'a AND AND b []', [part('a'), part('b')]],
    [
      'everything at once',
      'mountain lake::2, cabin AND fog::0.5 [people, text::3]',
      [part('mountain lake', 2), part('cabin'), part('fog', 0.5), part('people, text', -3)],
    ],
  ])('%s: %s', (_rule, prompt, parts) => {
    expect(parsePromptSyntax(prompt)).toEqual({ ok: true, parts, usesSyntax: true });
  });

  it('reads a negative weight outside brackets as a negative part', () => {
    expect(parsePromptSyntax('a lake, fog::-1 cabin')).toEqual({
      ok: true,
      parts: [part('a lake, fog', -1), part('cabin')],
      usesSyntax: true,
    });
  });

  it('takes weights up to 10 either way', () => {
    expect(parsePromptSyntax('sun::10 [rain::10]')).toMatchObject({ parts: [part('sun', 10), part('rain', -10)] });
    expect(parsePromptSyntax('sun::-10 moon')).toMatchObject({ parts: [part('sun', -10), part('moon')] });
  });

  it(`takes ${MAX_PROMPT_PARTS} parts`, () => {
    const prompt = Array.from({ length: MAX_PROMPT_PARTS }, (_, index) => `part${index}`).join(' AND ');
    expect(parsePromptSyntax(prompt)).toMatchObject({ ok: true, usesSyntax: true });
  });
});

describe('syntax that cannot be read', () => {
  it.each([
    ['a [ never closed', 'portrait of a chef [blurry, extra fingers', /A \[ is never closed/],
    ['a ] never opened', 'portrait of a chef blurry]', /A \] has no \[ before it/],
    ['brackets in brackets', 'a lake [fog [rain]]', /cannot go inside brackets/],
    ['a weight with no words', '::2 a lake', /A weight needs words before it/],
    ['a weight after brackets', 'a lake [fog]::2', /inside its brackets, like \[fog::2\]/],
    ['a weight of 0', 'a lake fog::0', /A weight of 0/],
    ['a weight above 10', 'a lake::11', /Weights go from -10 to 10/],
    ['a weight below -10', 'a lake [fog::-12.5]', /Weights go from -10 to 10/],
    ['only negative parts', '[blurry, text]', /Say what to make/],
    ['only negative weights', 'fog::-1', /Say what to make/],
    ['too many parts', 'a AND b AND c AND d AND e AND f AND g AND h AND i AND j AND k', /at most 10 parts/],
  ])('%s is refused with what is wrong', (_case, prompt, message) => {
    const reading = parsePromptSyntax(prompt);
    expect(reading.ok).toBe(false);
    expect(reading.ok ? '' : reading.message).toMatch(message);
  });

  it('is read literally by the provider path, for prompts accepted before the syntax was read', () => {
    expect(promptParts('an old sign reading [OPEN')).toEqual([part('an old sign reading [OPEN')]);
    expect(promptParts('a lake [fog]')).toEqual([part('a lake'), part('fog', -1)]);
  });
});
