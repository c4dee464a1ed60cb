import { describe, expect, it } from 'vitest';
import { checkReading, readingWords } from '../src/providers/realtime/reading-check';
import { readingInstructions, textToRead } from '../src/providers/realtime/reading-instructions';
import { maxPartCharacters, readingParts } from '../src/providers/realtime/reading-parts';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('the reading rule: normalised words, at most one in ten (plus one) may differ', () => {
  it('ignores case, punctuation, quotes and spacing', () => {
    const text = 'Hello,   world! “Isn’t” it a fine day?';
    expect(checkReading(text, 'hello world isn’t it a fine day')).toMatchObject({ matches: true, edits: 0 });
    expect(readingWords('ＡＢＣ Café')).toEqual(['abc', 'café']);
  });

  it('accepts one slip in a short text and refuses an answer to a question', () => {
    expect(checkReading('What is your name?', "What's your name?")).toMatchObject({
      matches: true,
      edits: 1,
      allowed: 1,
    });
    expect(checkReading('What is your name?', "I'm an AI voice assistant, how can I help you today?").matches).toBe(
      false,
    );
  });

  it('grows with the text: 2 differences in 20 words pass, 4 do not', () => {
    const text = Array.from({ length: 20 }, (_, index) => `word${index}`).join(' ');
    const twoOff = text.replace('word3', 'other').replace('word9', 'else');
    const fourOff = twoOff.replace('word12', 'x').replace('word15', 'y');
    expect(checkReading(text, twoOff)).toMatchObject({ matches: true, edits: 2, allowed: 3 });
    expect(checkReading(text, fourOff)).toMatchObject({ matches: false, edits: 4 });
  });

  it('refuses a translation and a reading that leaves half out', () => {
    const text = 'The weather is lovely today and we are going to the beach.';
    expect(checkReading(text, "Il fait beau aujourd'hui et nous allons à la plage.").matches).toBe(false);
    expect(checkReading(text, 'Here is your text: the weather is lovely today').matches).toBe(false);
  });

  it('counts each character as a word in scripts written without spaces', () => {
    expect(readingWords('今日は良い天気')).toEqual(['今', '日', 'は', '良', 'い', '天', '気']);
    expect(checkReading('今日は良い天気です。', '今日は良い天気です').matches).toBe(true);
    expect(checkReading('今日は良い天気です。', '明日は雨が降ります').matches).toBe(false);
  });
});

describe('a long text is read in parts of whole sentences', () => {
  it('keeps a short text whole', () => {
    expect(readingParts('One sentence. Two sentences.', 'en-US')).toEqual(['One sentence. Two sentences.']);
  });

  it('cuts a long text between sentences, each part within the limit, nothing lost', () => {
    const sentence = 'This sentence has exactly eight words in it. ';
    const text = sentence.repeat(90).trim();
    const parts = readingParts(text, 'en-US');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(maxPartCharacters('en-US'));
      expect(part.endsWith('.')).toBe(true);
    }
    expect(words(parts.join(' '))).toEqual(words(text));
  });

  it('cuts a sentence too long for a part between words, and a script without spaces between characters', () => {
    const endless = Array.from({ length: 400 }, (_, index) => `w${index}`).join(' ');
    const parts = readingParts(endless, 'en-US', 300);
    expect(parts.every((part) => part.length <= 300)).toBe(true);
    expect(words(parts.join(' '))).toEqual(words(endless));
    const japanese = '今日は良い天気'.repeat(100);
    const japaneseParts = readingParts(japanese, 'ja-JP');
    expect(japaneseParts.every((part) => part.length <= maxPartCharacters('ja-JP'))).toBe(true);
    expect(japaneseParts.join('')).toBe(japanese);
  });
});

describe('what the model is told', () => {
  it('names the language, forbids answering and translating, and marks the text as data', () => {
    const instructions = readingInstructions('fr-FR');
    expect(instructions).toContain('French (fr-FR)');
    expect(instructions).toMatch(/word for word/);
    expect(instructions).toMatch(/Never answer it/);
    expect(instructions).toMatch(/without translating/);
    expect(textToRead('Bonjour.')).toBe('<text>\nBonjour.\n</text>');
  });
});
