import { describe, expect, it } from 'vitest';
import { NEGATIVE_PROMPT_TERMS, QUALITY_BOOSTERS, buildStableImageForm, stableImagePrompt } from '../src';

const BOOSTERS = QUALITY_BOOSTERS.join(', ');
const STANDARD_NEGATIVES = NEGATIVE_PROMPT_TERMS.join(', ');

describe("Stability v2beta's prompt and negative_prompt", () => {
  it('sends a plain prompt with its boosters, the standard negative terms as negative_prompt', () => {
    expect(stableImagePrompt('a lighthouse at dusk')).toEqual({
      prompt: `a lighthouse at dusk, ${BOOSTERS}`,
      negative_prompt: STANDARD_NEGATIVES,
    });
  });

  it('folds weights into (text:weight) between 0 and 1, relative to the heaviest part, which is written plain', () => {
    expect(stableImagePrompt('mountain lake::2 cabin::1 fog::0.5')).toEqual({
      prompt: `mountain lake, ${BOOSTERS}, (cabin:0.5), (fog:0.25)`,
      negative_prompt: STANDARD_NEGATIVES,
    });
  });

  it('writes equal AND parts plain, as an even blend', () => {
    expect(stableImagePrompt('city skyline, watercolor AND cyberpunk').prompt).toBe(
      `city skyline, watercolor, ${BOOSTERS}, cyberpunk`,
    );
  });

  it('lists the creator negatives before the standard terms, without weights, for which v2beta documents none', () => {
    expect(stableImagePrompt('portrait of a chef::1 steam::-1 [blurry, extra fingers] [text::3]')).toEqual({
      prompt: expect.stringMatching(/^portrait of a chef, /),
      negative_prompt: `steam, blurry, extra fingers, text, ${STANDARD_NEGATIVES}`,
    });
  });

  it('rounds to two decimals and never to 0', () => {
    expect(stableImagePrompt('sun::10 moon::0.3 star::0.01').prompt).toBe(`sun, ${BOOSTERS}, (moon:0.03), (star:0.01)`);
  });
});

describe('a v2beta generate form', () => {
  it("reads the prompt's syntax and puts the creator's 'Leave out' after the bracketed negatives", () => {
    const form = buildStableImageForm(
      'a red fox::2 snowy forest [fog]',
      { negativePrompt: 'blurry, extra fingers', aspectRatio: '16:9' },
      7,
      'stable-image-core',
    );
    expect(form).toMatchObject({
      prompt: `a red fox, ${BOOSTERS}, (snowy forest:0.5)`,
      negative_prompt: `fog, blurry, extra fingers, ${STANDARD_NEGATIVES}`,
      aspect_ratio: '16:9',
      seed: 7,
    });
  });

  it('sends no negative prompt to a model that takes none, though the creator wrote one', () => {
    const form = buildStableImageForm('a fox [fog]', { negativePrompt: 'blurry' }, 7, 'sd3.5-large-turbo');
    expect(form).not.toHaveProperty('negative_prompt');
    expect(form.prompt).toBe(`a fox, ${BOOSTERS}`);
  });
});
