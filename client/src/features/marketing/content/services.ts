export const TOOLS = [
  {
    id: 'image',
    title: 'AI Image Generation',
    summary: 'Describe a picture and get a polished, high-resolution image in seconds.',
    bullets: [
      'Photorealistic and artistic styles',
      'Sizes from 512 to 2048 pixels',
      'Automatic prompt enhancement',
      'One-click PNG download',
    ],
  },
  {
    id: 'video',
    title: 'AI Video Creation',
    summary: 'Turn a scene description into a cinematic video clip.',
    bullets: [
      'Cinematic camera and lighting',
      'HD and real-footage styles',
      'Live progress while it renders',
      'Play and download from your library',
    ],
  },
  {
    id: 'speech',
    title: 'AI Speech Synthesis',
    summary: 'Give any text a natural, expressive voice.',
    bullets: [
      'Six distinct voices',
      '15 regional and international languages',
      'Natural intonation and pacing',
      'Instant playback in the browser',
    ],
  },
] as const;

export const CAPABILITIES = [
  { id: 'style', title: 'Style Customization', text: 'Steer the look and feel with styles, moods and presets.' },
  {
    id: 'speed',
    title: 'Fast Processing',
    text: 'A dedicated job queue keeps generations moving, with live progress.',
  },
  { id: 'enhance', title: 'Smart Enhancement', text: 'Prompts are refined automatically with quality boosters.' },
  {
    id: 'precision',
    title: 'Precision Control',
    text: 'Choose the voice and language, HD or draft video, and keep every result in your library.',
  },
] as const;
