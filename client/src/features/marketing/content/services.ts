import { imageSideInWords, PLAN_FACTS, PLAN_IDS, PLAN_TITLES, type PlanFacts, type PlanId } from '@mediagen/shared';

// Every plan fact below comes from PLAN_FACTS (shared/src/plan-facts.ts), so the page says what the plans
// do; plan-facts-drift.test.tsx reads it back.

const FACTS = PLAN_IDS.map((plan) => PLAN_FACTS[plan]);

function listInWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The first plan, cheapest first, that has `has`: "from Pro". */
function firstPlanWith(has: (facts: PlanFacts) => boolean): string {
  const plan = FACTS.find(has);
  return plan === undefined ? '' : PLAN_TITLES[plan.id];
}

/** "Up to 1024×1024 on Free, 1536×1536 on Pro, 2048×2048 and 4K on Enterprise". */
function imageSizesInWords(): string {
  const sizes = FACTS.map((facts) => {
    const side = imageSideInWords(facts.maxImageSide);
    return `${facts.fourKSide === null ? side : `${side} and 4K`} on ${facts.title}`;
  });
  return `Up to ${listInWords(sizes)}`;
}

/** "720P on Free; 768P and 1080P HD on Pro and Enterprise": plans making the same pictures said together. */
function videoResolutionsInWords(): string {
  const groups = new Map<string, PlanId[]>();
  for (const facts of FACTS) {
    // Each plan's best pictures: its default model's.
    const ownModel = facts.videos[0]!.model;
    const resolutions = facts.videos
      .filter((option) => option.model === ownModel)
      .map((option) => (option.qualities.includes('hd') ? `${option.resolution} HD` : option.resolution));
    const key = listInWords(resolutions);
    groups.set(key, [...(groups.get(key) ?? []), facts.id]);
  }
  return [...groups]
    .map(([resolutions, plans]) => `${resolutions} on ${listInWords(plans.map((p) => PLAN_TITLES[p]))}`)
    .join('; ');
}

/** "Enterprise first, then Pro, then Free". */
function queueOrderInWords(): string {
  const order = [...FACTS].sort((a, b) => a.queueRank - b.queueRank).map((facts) => facts.title);
  return `${order[0]} first, ${order
    .slice(1)
    .map((title) => `then ${title}`)
    .join(', ')}`;
}

/** "up to 4 images a request on Pro and 10 on Enterprise". */
function imageSetsInWords(): string {
  const sets = FACTS.filter((facts) => facts.imagesPerRequest > 1);
  return `up to ${listInWords(sets.map((facts) => `${facts.imagesPerRequest}${facts === sets[0] ? ' images a request' : ''} on ${facts.title}`))}`;
}

/** The controls every plan's models take, or from which plan on. */
function imageControlsInWords(): string {
  const plan = firstPlanWith((facts) => facts.stylePresets && facts.negativePrompts);
  return `Aspect ratios, style presets, negative prompts and seeds ${plan === PLAN_TITLES.free ? 'on every plan' : `from ${plan}`}`;
}

export const TOOLS = [
  {
    id: 'image',
    title: 'AI Image Generation',
    summary: 'Describe a picture and get a polished, high-resolution image in seconds.',
    bullets: [
      'Photorealistic and artistic styles',
      imageSizesInWords(),
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
      videoResolutionsInWords(),
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
    text: `Jobs start in plan order, ${queueOrderInWords()}, with live progress: images and speech in seconds, videos in minutes.`,
  },
  { id: 'enhance', title: 'Smart Enhancement', text: 'Prompts are refined automatically with quality boosters.' },
  {
    id: 'precision',
    title: 'Precision Control',
    text: `${imageControlsInWords()}; ${imageSetsInWords()}; HD video from ${firstPlanWith((facts) => facts.videos.some((option) => option.qualities.includes('hd')))}; 4K images on ${firstPlanWith((facts) => facts.fourKSide !== null)}. Choose the voice, language and speed of speech.`,
  },
] as const;
