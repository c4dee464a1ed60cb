import { describe, expect, it } from 'vitest';
import { moderateImagePrompt, moderatePrompt } from '../src';

/** Ways a blocked word has been hidden, each with the word it hides. */
const EVASIONS: [how: string, prompt: string, word: string][] = [
  ['capitals', 'a NUDE statue', 'nude'],
  ['a Cyrillic e', 'a nud\u0435 statue', 'nude'],
  ['Cyrillic e, x, p and c', '\u0435\u0445\u0440li\u0441it lyrics', 'explicit'],
  ['Cyrillic d, i and s', '\u0501\u0456\u0455turb\u0456ng scene', 'disturbing'],
  ['Cyrillic o, e, s and i', '\u043Eff\u0435n\u0455\u0456v\u0435 joke', 'offensive'],
  ['a Greek capital Nu', '\u039DUDE beach', 'nude'],
  ['a Latin script g', '\u0261ore everywhere', 'gore'],
  ['Cherokee letters', '\u13C0\u13BE\u13A1\u13AC', 'gore'],
  ['Armenian letters', '\u0578\u057Dde figure', 'nude'],
  ['mathematical sans-serif letters', 'bl\u{1D5C8}\u{1D5C8}d moon', 'blood'],
  ['small capitals', 'a \u0274\u1D1C\u1D05\u1D07 statue', 'nude'],
  ['small capitals', '\u0299\u029F\u1D0F\u1D0F\u1D05 on the floor', 'blood'],
  ['small capitals', '\u1D20\u026A\u1D0F\u029F\u1D07\u0274\u1D04\u1D07', 'violence'],
  ['small capitals', '\u0262\u1D0F\u0280\u1D07', 'gore'],
  ['small capitals', '\u026A\u0274\u1D00\u1D18\u1D18\u0280\u1D0F\u1D18\u0280\u026A\u1D00\u1D1B\u1D07', 'inappropriate'],
  ['a Greek tau, read as a small capital T', 'explici\u03C4', 'explicit'],
  ['strike-through marks', 'n\u0336u\u0336d\u0336e\u0336', 'nude'],
  ['slash marks', 'g\u0337o\u0337r\u0337e\u0337', 'gore'],
  ['accents', 'n\u00FCd\u00E9 model', 'nude'],
  ['underlines', 'b\u0332l\u0332o\u0332o\u0332d\u0332', 'blood'],
  ['stacked marks (zalgo)', 'v\u0338\u0322i\u0335o\u034El\u0334e\u0337n\u0336c\u0335e\u0338', 'violence'],
  ['an o with a stroke', 'g\u00F8r\u00E8', 'gore'],
  ['a zero-width space', 'nu\u200Bde', 'nude'],
  ['a soft hyphen', 'ex\u00ADplicit', 'explicit'],
  ['a word joiner', 'bl\u2060ood', 'blood'],
  ['a zero-width joiner', 'go\u200Dre', 'gore'],
  ['non-breaking spaces between the letters', 'n\u00A0u\u00A0d\u00A0e', 'nude'],
  ['thin spaces between the letters', 'g\u2009o\u2009r\u2009e', 'gore'],
  ['ideographic spaces between the letters', 'b\u3000l\u3000o\u3000o\u3000d', 'blood'],
  ['narrow non-breaking spaces between the letters', 'n\u202Fs\u202Ff\u202Fw', 'nsfw'],
  ['spaced letters', 'a n u d e statue', 'nude'],
  ['dotted letters', 'strictly N.S.F.W.', 'nsfw'],
  ['hyphenated letters', 'e-x-p-l-i-c-i-t', 'explicit'],
  ['spaced letters before another word', 'a b l o o d bath', 'blood'],
  ['underscored letters', 'd_i_s_t_u_r_b_i_n_g', 'disturbing'],
  ['starred letters', 'g * o * r * e', 'gore'],
  ['leetspeak 3', 'nud3 portrait', 'nude'],
  ['leetspeak 0', 'g0re', 'gore'],
  ['leetspeak 00', 'bl00d', 'blood'],
  ['leetspeak 1 for i', 'expl1c1t', 'explicit'],
  ['leetspeak 1 and 0', 'v10lence', 'violence'],
  ['leetspeak 0 and 5', '0ffen5ive', 'offensive'],
  ['leetspeak 1 and $', 'd1$turb1ng', 'disturbing'],
  ['leetspeak @, 0, 1 and 3', '1n@ppr0pr1@t3', 'inappropriate'],
  ['leetspeak 5', 'n5fw', 'nsfw'],
  ['a capital I for l', 'BIOOD', 'blood'],
  ['a bar for l', 'b|ood', 'blood'],
  ['full-width letters', '\uFF4E\uFF55\uFF44\uFF45', 'nude'],
  ['bold letters', '\u{1D420}\u{1D428}\u{1D42B}\u{1D41E}', 'gore'],
  ['circled letters', '\u24DD\u24E2\u24D5\u24E6', 'nsfw'],
  ['Fraktur letters', '\u{1D587}\u{1D591}\u{1D594}\u{1D594}\u{1D589}', 'blood'],
  ['spaced small capitals in leetspeak', '\u0274 \u1D1C \u1D05 3', 'nude'],
  ['leetspeak hidden by zero-width spaces', 'g\u200B0\u200Br\u200Be', 'gore'],
  ['spaced full-width letters', '\uFF2E\u3000\uFF35\u3000\uFF24\u3000\uFF25', 'nude'],
  ['a plural', 'nudes on a beach', 'nude'],
  ['punctuation around it', 'this is (nsfw)!', 'nsfw'],
  ['glued to Han characters', '\u8FD9\u662Fnude\u7167\u7247', 'nude'],
  ['line breaks', 'a quiet street\nthen violence\nthen silence', 'violence'],
];

/** Prompts that hold a blocked word's letters, or look like an evasion, and block nothing. */
const INNOCENT = [
  'a bloodhound puppy in the snow',
  'Scunthorpe United at dusk',
  'a bloody mary cocktail on a bar',
  'bloodstone and jade on velvet',
  'a gorge at sunrise',
  'Gor\u00E9e island, Senegal, at noon',
  'a rain jacket made of Goretex',
  'a knight in appropriate armour',
  'a nudibranch on a coral reef',
  'Nudelsuppe in a blue bowl',
  'explicitly labelled spice jars',
  'a violent storm at sea',
  'the offense lines up in American football',
  'a disturbance in the force',
  'we go red for the festival',
  'a b c d e written on a chalkboard',
  'h e l l o in neon letters',
  'expl0ration of a cave, 4K, 1080p',
  'B-L-O-G header image',
  'Les nus de Modigliani, in a museum',
  '\u041F\u0440\u0438\u0432\u0435\u0442, \u043C\u0438\u0440, a Moscow street',
  '\u4EAC\u90FD\u306E\u8336\u9053, a tea ceremony in Kyoto',
  'S\u00E9gol\u00E8ne walking by the Seine',
  '\u{1F469}\u200D\u{1F680} an astronaut on the moon',
  'Gorecki symphony poster',
];

describe('prompt moderation (spec §5): whole words, however spelled', () => {
  it.each(EVASIONS)('blocks %s: %j', (_how, prompt, word) => {
    expect(moderatePrompt(prompt)).toEqual({
      allowed: false,
      words: [word],
      message: `Prompt contains inappropriate content: ${word}`,
    });
  });

  it.each(INNOCENT)('lets %j through', (prompt) => {
    expect(moderatePrompt(prompt)).toEqual({ allowed: true });
  });

  it('names every word found, in the list order, with the spec message', () => {
    expect(moderatePrompt('A NUDE figure covered in Blood')).toEqual({
      allowed: false,
      words: ['nude', 'blood'],
      message: 'Prompt contains inappropriate content: nude, blood',
    });
    expect(moderatePrompt('g0re, b l o o d and v10lence')).toMatchObject({ words: ['violence', 'gore', 'blood'] });
  });

  it('answers at once for the longest speech text, however its gaps and letter signs are arranged', () => {
    // A sign both a letter and a gap would let "e x p" and 4,090 bars be split in millions of ways (33 s).
    const started = performance.now();
    for (const text of [`e x p ${'|'.repeat(4090)}`, `e x p l ${'!|'.repeat(2044)}`, 'n '.repeat(2048)]) {
      expect(moderatePrompt(text)).toEqual({ allowed: true });
    }
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('image prompts with the Prompt Guide syntax', () => {
  it.each([
    ['inside brackets', 'a statue [nude]', 'nude'],
    ['inside brackets with a weight', 'a statue [blurry, gore::2]', 'gore'],
    ['after AND', 'a castle AND blood moon', 'blood'],
    ['with a weight', 'a castle, violence::3', 'violence'],
    ['spelled apart by a negative part', 'n[x]u d e statue', 'nude'],
    ['hidden in a negative part', '[g\u043E\u200Bre] cathedral', 'gore'],
  ])('refuses a blocked word %s', (_where, prompt, word) => {
    expect(moderateImagePrompt(prompt)).toMatchObject({ allowed: false, words: [word] });
  });

  it('names every blocked word once, wherever it stands', () => {
    expect(moderateImagePrompt('gore AND a castle [gore, nude]')).toEqual({
      allowed: false,
      words: ['nude', 'gore'],
      message: 'Prompt contains inappropriate content: nude, gore',
    });
  });

  it('lets an innocent prompt with the syntax through', () => {
    expect(moderateImagePrompt('mountain lake::2 AND cabin [blurry, extra fingers]')).toEqual({ allowed: true });
  });

  it('reads the letters a negative part brings together only through the image rule', () => {
    expect(moderatePrompt('n[x]u d e statue')).toEqual({ allowed: true });
  });
});
