export const PROMPT_FORMULAS = [
  {
    id: 'image',
    title: 'Image prompt formula',
    formula: '[Subject] + [Style] + [Composition] + [Lighting] + [Details]',
    example:
      'A red fox in a snowy forest, digital painting, close-up portrait, soft golden-hour light, highly detailed fur',
  },
  {
    id: 'video',
    title: 'Video prompt formula',
    formula: '[Scene] + [Action] + [Camera movement] + [Mood] + [Duration feel]',
    example: 'A neon-lit city street at night, rain falling on passing cars, slow dolly forward, moody and cinematic',
  },
] as const;

/**
 * The first three are image prompt syntax the API reads (shared/src/prompt-syntax.ts): their texts say
 * what it does, and guide.test.ts checks each example reads as its text says.
 */
export const ADVANCED_TECHNIQUES = [
  {
    title: 'Weighted prompts',
    text: 'In image prompts, end a part with :: and a weight from -10 to 10 to give it more or less importance. Parts without a weight count 1.',
    example: 'mountain lake::2 cabin::1 fog::0.5',
  },
  {
    title: 'Negative prompts',
    text: 'Put what you do not want in square brackets to keep it out of an image. A weight inside keeps it out harder.',
    example: 'portrait of a chef [blurry, extra fingers] [text::2]',
  },
  {
    title: 'Style mixing',
    text: 'Blend two styles in an image by joining them with AND, in capitals.',
    example: 'city skyline, watercolor AND cyberpunk',
  },
  {
    title: 'Sequential prompting',
    text: 'Start simple, then refine one detail per generation until it is right.',
    example: '1. a lighthouse  →  2. a lighthouse at dusk  →  3. a lighthouse at dusk, storm clouds, waves crashing',
  },
] as const;

export const KEYWORD_GROUPS = [
  {
    title: 'Quality boosters',
    keywords: ['highly detailed', 'sharp focus', '8k', 'professional quality', 'masterpiece', 'high resolution'],
  },
  {
    title: 'Composition control',
    keywords: ['close-up', 'wide shot', 'rule of thirds', 'bird’s-eye view', 'symmetrical', 'shallow depth of field'],
  },
  {
    title: 'Mood enhancement',
    keywords: ['golden hour', 'moody lighting', 'dreamy', 'vibrant colors', 'cinematic', 'serene'],
  },
] as const;
