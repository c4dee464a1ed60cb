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

export const ADVANCED_TECHNIQUES = [
  {
    title: 'Weighted prompts',
    text: 'Give parts of a prompt more or less importance with :: and a weight.',
    example: 'mountain lake::2 cabin::1 fog::0.5',
  },
  {
    title: 'Negative prompts',
    text: 'Put what you do not want in brackets to keep it out of the result.',
    example: 'portrait of a chef [blurry, extra fingers, text]',
  },
  {
    title: 'Style mixing',
    text: 'Blend two styles by joining them with AND.',
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
