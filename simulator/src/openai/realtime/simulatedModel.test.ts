import { describe, expect, it } from 'vitest';
import type { MessageItem } from './realtimeEvents';
import {
  GREETING,
  NAME_ANSWER,
  QUESTION_ANSWER,
  STATEMENT_ANSWER,
  lastUserText,
  readsWordForWord,
  textToRead,
  whatTheModelSays,
} from './simulatedModel';

function message(role: MessageItem['role'], ...content: MessageItem['content']): MessageItem {
  return { id: `item_${role}`, object: 'realtime.item', type: 'message', status: 'completed', role, content };
}

describe('the simulated model', () => {
  it('is given the last user input_text of its context', () => {
    expect(
      lastUserText([
        message('user', { type: 'input_text', text: 'first' }),
        message('user', { type: 'input_text', text: 'second' }, { type: 'input_audio', audio: 'AAAA' }),
        message('assistant', { type: 'output_audio', transcript: 'not this' }),
        message('system', { type: 'input_text', text: 'nor this' }),
      ]),
    ).toBe('second');
    expect(lastUserText([])).toBe('');
  });

  it('reads only what is between <text> and </text>, trimmed', () => {
    expect(textToRead('Please read:\n<text>\n  One, two.\n</text>\nThanks')).toBe('One, two.');
    expect(textToRead('  no tags here  ')).toBe('no tags here');
  });

  it('recognises "word for word" in any case, with spaces or hyphens', () => {
    expect(readsWordForWord('Read it Word For Word.')).toBe(true);
    expect(readsWordForWord('a word-for-word reading')).toBe(true);
    expect(readsWordForWord('Read every word. For words...')).toBe(false);
  });

  it('reads word for word, answers questions otherwise, and reads anything else', () => {
    expect(whatTheModelSays('What is your name?', 'Read word for word.')).toBe('What is your name?');
    expect(whatTheModelSays('What is your name?', 'Read this.')).toBe(NAME_ANSWER);
    expect(whatTheModelSays('Is it raining? ', 'Read this.')).toBe(QUESTION_ANSWER);
    expect(whatTheModelSays('今日は雨ですか？', 'Read this.')).toBe(QUESTION_ANSWER);
    expect(whatTheModelSays('It is raining.', 'Read this.')).toBe('It is raining.');
    expect(whatTheModelSays('', 'Read word for word.')).toBe(GREETING);
  });

  it('strays from or answers the text under the stray and answer faults', () => {
    const text = 'one two three four five six seven eight nine ten';
    expect(whatTheModelSays(text, 'word for word', 'stray')).toBe('Here is your text: one two three four five');
    expect(whatTheModelSays('Hello', 'word for word', 'stray')).toBe('Here is your text: Hello');
    expect(whatTheModelSays(text, 'word for word', 'answer')).toBe(STATEMENT_ANSWER);
    expect(whatTheModelSays('Your name?', 'word for word', 'answer')).toBe(NAME_ANSWER);
  });
});
