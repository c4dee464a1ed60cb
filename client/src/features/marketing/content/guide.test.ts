import { parsePromptSyntax } from '@mediagen/shared';
import { describe, expect, it } from 'vitest';
import { ADVANCED_TECHNIQUES } from './guide';

const example = (title: string) => ADVANCED_TECHNIQUES.find((technique) => technique.title === title)!.example;

/** The Guide teaches syntax the API reads: each example is read the way its card says. */
describe("the Prompt Guide's syntax examples", () => {
  it('weighs each part, a part without a weight at 1', () => {
    expect(parsePromptSyntax(example('Weighted prompts'))).toEqual({
      ok: true,
      usesSyntax: true,
      parts: [
        { text: 'mountain lake', weight: 2 },
        { text: 'cabin', weight: 1 },
        { text: 'fog', weight: 0.5 },
      ],
    });
  });

  it('keeps what is in brackets out, harder with a weight', () => {
    expect(parsePromptSyntax(example('Negative prompts'))).toEqual({
      ok: true,
      usesSyntax: true,
      parts: [
        { text: 'portrait of a chef', weight: 1 },
        { text: 'blurry, extra fingers', weight: -1 },
        { text: 'text', weight: -2 },
      ],
    });
  });

  it('blends the two sides of AND', () => {
    expect(parsePromptSyntax(example('Style mixing'))).toEqual({
      ok: true,
      usesSyntax: true,
      parts: [
        { text: 'city skyline, watercolor', weight: 1 },
        { text: 'cyberpunk', weight: 1 },
      ],
    });
  });
});
