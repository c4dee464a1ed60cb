import { IMAGE_MODEL_RULES, IMAGE_UPSCALER, type ImageModel } from './image-models';
import type { GenerationKind } from './kinds';
import {
  DEFAULT_PLAN_RULES,
  PLAN_TITLES,
  imageSideInWords,
  imagesPerRequestInWords,
  type PlanCatalogue,
  type PlanRules,
} from './plan-rules';
import { PLAN_IDS, type BillingPeriod, type Plan, type PlanId } from './plans';
import type { TokenBalance } from './tokens';
import { VIDEO_MODEL_TITLES, VIDEO_QUALITY_RESOLUTIONS, videoOptionsForPlan, type VideoOption } from './video-models';

/**
 * Issue 37, "One source of plan facts": what each plan gives, as every page, toast and message states it.
 * The numbers are the rules the API enforces (plan-rules.ts, image-models.ts, video-models.ts); this
 * module adds what only people read (prices, support) and writes the words once. Pricing, Services, the
 * welcome and out-of-tokens messages, the API's refusals and the README's plan table are written from
 * here, and tests read each page back against it (client/src/features/pricing/plan-facts-drift.test.tsx,
 * shared/test/plan-facts.test.ts).
 *
 * Pages show the default rules; operators may change Pro's and Enterprise's allowances
 * (PLAN_PRO_ALLOWANCE, PLAN_ENTERPRISE_DAILY_CAP), which the API's own messages then follow.
 */

/** What a plan is sold as, beside its rules: what only people read. */
export interface PlanOffer {
  /** Spec §9: US dollars per period; null where the spec shows none (Free billed yearly). */
  price: Record<BillingPeriod, number | null>;
  /** How its creators reach us, in the words every page uses, so a promise about support is made once. */
  support: string;
  /** Sold as unlimited: its allowance is then a daily fair-use cap (README, "Plans"). */
  unlimited: boolean;
  /** Spec §9's lines that are agreements made with the customer rather than settings of the product. */
  agreements: readonly string[];
  buttonText: string;
}

export const PLAN_OFFERS: Readonly<Record<PlanId, PlanOffer>> = {
  free: {
    price: { monthly: 0, yearly: null },
    support: 'Support form',
    unlimited: false,
    agreements: [],
    buttonText: 'Get Started',
  },
  pro: {
    price: { monthly: 29, yearly: 279 },
    support: 'Support form',
    unlimited: false,
    agreements: [],
    buttonText: 'Start Free Trial',
  },
  enterprise: {
    price: { monthly: 99, yearly: 949 },
    support: 'Support form',
    unlimited: true,
    agreements: ['Custom integration', 'API access'],
    buttonText: 'Contact Sales',
  },
};

export interface PlanFacts {
  id: PlanId;
  title: string;
  price: Record<BillingPeriod, number | null>;
  /** Tokens per kind and period. */
  allowance: TokenBalance;
  periodDays: number;
  /** Sold as unlimited: a daily fair-use cap (the allowance, renewed every day). */
  unlimited: boolean;
  imagesPerRequest: number;
  maxImageSide: number;
  /** The image models it may name, its default first. */
  imageModels: readonly ImageModel[];
  /** The side of a 4K image (the upscaler's output of a 1024² image); null without 4K. */
  fourKSide: number | null;
  /** Aspect ratios, style presets, negative prompts: what some model of the plan takes. */
  stylePresets: boolean;
  negativePrompts: boolean;
  videos: readonly VideoOption[];
  /** 1 runs first; plans with a larger number wait behind it. */
  queueRank: number;
  /** The plans whose jobs its own jobs run before, and those they run after. */
  runsBefore: readonly PlanId[];
  runsAfter: readonly PlanId[];
  watermark: boolean;
  support: string;
  agreements: readonly string[];
}

/** A plan's facts under `plans` (the defaults unless an operator's configuration is given). */
export function planFacts(plan: PlanId, plans: PlanCatalogue = DEFAULT_PLAN_RULES): PlanFacts {
  const rules: PlanRules = plans[plan];
  const image = rules.limits.image;
  // The default first, then the newest (IMAGE_MODELS lists the v1 engine first).
  const others = image.models.filter((model) => model !== image.defaultModel).reverse();
  const models = [image.defaultModel, ...others];
  const byPriority = [...new Set(PLAN_IDS.map((id) => plans[id].queuePriority))].sort((a, b) => a - b);
  return {
    id: plan,
    title: PLAN_TITLES[plan],
    price: PLAN_OFFERS[plan].price,
    allowance: rules.allowance,
    periodDays: rules.periodDays,
    unlimited: PLAN_OFFERS[plan].unlimited,
    imagesPerRequest: rules.limits.maxImagesPerRequest,
    maxImageSide: rules.limits.maxImageSide,
    imageModels: models,
    fourKSide: image.resolutions.includes('4k') ? 1024 * IMAGE_UPSCALER.factor : null,
    stylePresets: models.some((model) => IMAGE_MODEL_RULES[model].stylePreset),
    negativePrompts: models.some((model) => IMAGE_MODEL_RULES[model].negativePrompt),
    videos: videoOptionsForPlan(plan).options,
    queueRank: byPriority.indexOf(rules.queuePriority) + 1,
    runsBefore: PLAN_IDS.filter((other) => plans[other].queuePriority > rules.queuePriority),
    runsAfter: PLAN_IDS.filter((other) => plans[other].queuePriority < rules.queuePriority),
    watermark: rules.watermark,
    support: PLAN_OFFERS[plan].support,
    agreements: PLAN_OFFERS[plan].agreements,
  };
}

// Pure: a chunk that uses none of it (the landing page's welcome) leaves it out.
export const PLAN_FACTS: Readonly<Record<PlanId, PlanFacts>> = {
  free: /* @__PURE__ */ planFacts('free'),
  pro: /* @__PURE__ */ planFacts('pro'),
  enterprise: /* @__PURE__ */ planFacts('enterprise'),
};

// The words. Each sentence below is the only place its fact is put into words.

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "1 image, 1 video and 2 speech": a balance or an allowance. */
export function tokensInWords(tokens: TokenBalance): string {
  return `${plural(tokens.image, 'image')}, ${plural(tokens.video, 'video')} and ${tokens.speech} speech`;
}

/** How often the allowance renews: "every 30 days", "every day". */
export function periodInWords(periodDays: number): string {
  return periodDays === 1 ? 'every day' : `every ${periodDays} days`;
}

/**
 * The allowance: "1 image, 1 video and 2 speech every 30 days", or for Enterprise "Unlimited (fair use:
 * up to 200 images, 40 videos and 400 speech a day)".
 */
export function allowanceInWords(facts: PlanFacts): string {
  const per = facts.periodDays === 1 ? 'a day' : periodInWords(facts.periodDays);
  const allowance = `${tokensInWords(facts.allowance)} ${per}`;
  return facts.unlimited ? `Unlimited (fair use: up to ${allowance})` : allowance;
}

/** "Stable Diffusion 3.5 Large" and its siblings read as one family. */
function modelFamily(model: ImageModel): string {
  return IMAGE_MODEL_RULES[model].title.replace(/^(Stable Diffusion 3\.5) .*/, '$1');
}

function listInWords(items: readonly string[], last = 'and'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

/** "Up to 4 images per request, up to 1536×1536". */
export function imagesInWords(facts: PlanFacts): string {
  const perRequest = imagesPerRequestInWords(facts.imagesPerRequest);
  return `${perRequest[0]!.toUpperCase()}${perRequest.slice(1)}, up to ${imageSideInWords(facts.maxImageSide)}`;
}

/** "Made with Stable Image Core, Stable Diffusion 3.5 or Stable Diffusion XL 1.0": the default first. */
export function imageModelsInWords(facts: PlanFacts): string {
  return `Made with ${listInWords([...new Set(facts.imageModels.map(modelFamily))], 'or')}`;
}

/** "4K images (4096×4096)", or null without 4K. */
export function fourKInWords(facts: PlanFacts): string | null {
  return facts.fourKSide === null ? null : `4K images (${imageSideInWords(facts.fourKSide)}, upscaled)`;
}

/** What the plan's image models take besides the prompt: every model takes an aspect ratio. */
export function imageControlsInWords(facts: PlanFacts): string {
  const controls = ['Aspect ratios', ...(facts.stylePresets ? ['style presets'] : [])];
  return listInWords([...controls, ...(facts.negativePrompts ? ['negative prompts'] : [])]);
}

/** "720P" or "1080P HD". */
function resolutionInWords(option: VideoOption): string {
  return VIDEO_QUALITY_RESOLUTIONS[option.model].hd === option.resolution
    ? `${option.resolution} HD`
    : option.resolution;
}

/** "Video: Hailuo 2.3 at 768P (6 or 10 s) or 1080P HD (6 s); T2V-01 at 720P (6 s)". */
export function videosInWords(facts: PlanFacts): string {
  const models = [...new Set(facts.videos.map((option) => option.model))];
  const phrases = models.map((model) => {
    const options = facts.videos.filter((option) => option.model === model);
    const pictures = options.map((option) => `${resolutionInWords(option)} (${option.durations.join(' or ')} s)`);
    return `${VIDEO_MODEL_TITLES[model]} at ${pictures.join(' or ')}`;
  });
  return `Video: ${phrases.join('; ')}`;
}

const titles = (plans: readonly PlanId[]) => listInWords(plans.map((plan) => PLAN_TITLES[plan]));

/**
 * The plan's place in the queue, named as the spec names it: Free's "Standard queue", Pro's "Priority
 * processing", Enterprise's "Dedicated processing", each saying which plans its jobs run before or after.
 */
export function queueInWords(facts: PlanFacts): string {
  if (facts.runsBefore.length === 0) return `Standard queue: runs after ${titles(facts.runsAfter)}`;
  const name = facts.runsAfter.length === 0 ? 'Dedicated processing' : 'Priority processing';
  return `${name}: runs before ${titles(facts.runsBefore)}`;
}

export function watermarkInWords(facts: PlanFacts): string {
  return facts.watermark ? 'Watermarked output' : 'No watermark';
}

/** What a plan's card lists as included, and what it lists as left out (the spec's `limitations`). */
export function planFeatureLines(facts: PlanFacts): { features: string[]; limitations: string[] } {
  const fourK = fourKInWords(facts);
  const features = [
    allowanceInWords(facts),
    imagesInWords(facts),
    imageModelsInWords(facts),
    ...(fourK === null ? [] : [fourK]),
    imageControlsInWords(facts),
    videosInWords(facts),
  ];
  const limitations: string[] = [];
  (facts.runsBefore.length === 0 ? limitations : features).push(queueInWords(facts));
  (facts.watermark ? limitations : features).push(watermarkInWords(facts));
  features.push(facts.support, ...facts.agreements);
  return { features, limitations };
}

/** Spec §3's plan entity, as the Pricing page shows each plan. */
export const PLANS: readonly Plan[] = /* @__PURE__ */ PLAN_IDS.map((id) => {
  const { features, limitations } = planFeatureLines(PLAN_FACTS[id]);
  return {
    id,
    title: PLAN_TITLES[id],
    price: PLAN_OFFERS[id].price,
    features,
    ...(limitations.length === 0 ? {} : { limitations }),
    buttonText: PLAN_OFFERS[id].buttonText,
    buttonLink: '/payment',
    highlighted: id === 'pro',
  };
});

/** Spec §4: the welcome toast lists the remaining tokens; here with the plan they belong to and its period. */
// Every page greets a creator, the landing page too: this reads only the title and period, not the facts.
export function welcomeMessage(tokens: TokenBalance, plan: PlanId, plans: PlanCatalogue = DEFAULT_PLAN_RULES): string {
  const renews = periodInWords(plans[plan].periodDays);
  const left = `${tokens.image} image, ${tokens.video} video and ${tokens.speech} speech tokens`;
  return `Welcome! You have ${left} remaining on the ${PLAN_TITLES[plan]} plan, which renews them ${renews}.`;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Why a request found no token of its kind left, in words that fit the plan: Free keeps the spec's
 * message (§8, "Your free tokens are over…", N the days left rounded up); a paid plan is not told its
 * "free tokens" are over, and Enterprise's daily fair-use cap is said as one, in hours.
 */
export function tokensExhaustedMessage(options: {
  plan: PlanId;
  kind: GenerationKind;
  /** How long until the period renews the balance. */
  renewsInMs: number;
  plans?: PlanCatalogue;
}): string {
  const facts = planFacts(options.plan, options.plans);
  const days = Math.max(1, Math.ceil(options.renewsInMs / DAY_MS));
  if (facts.price.monthly === 0) {
    return `Your free tokens are over. Tokens will reset in ${plural(days, 'day')}. Please purchase a subscription for unlimited access.`;
  }
  if (facts.unlimited) {
    const hours = Math.max(1, Math.ceil(options.renewsInMs / HOUR_MS));
    return `You have reached the ${facts.title} plan's fair-use cap of ${options.kind} tokens for the day. It renews in ${plural(hours, 'hour')}.`;
  }
  return `Your ${facts.title} plan's ${options.kind} tokens for this period are used up. They renew in ${plural(days, 'day')}. Upgrade your plan for more.`;
}

/** The README's plan table, as rows of cells (shared/test/plan-facts.test.ts checks the README holds it). */
export function planTableRows(): string[][] {
  const header = ['plan', 'price (month / year)', 'tokens', 'images', 'video', 'queue', 'output', 'support'];
  const rows = PLAN_IDS.map((id) => {
    const facts = PLAN_FACTS[id];
    const fourK = fourKInWords(facts);
    const price = (period: BillingPeriod) => (facts.price[period] === null ? '—' : `$${facts.price[period]}`);
    return [
      facts.title,
      `${price('monthly')} / ${price('yearly')}`,
      allowanceInWords(facts),
      [imagesInWords(facts), imageModelsInWords(facts), ...(fourK === null ? [] : [fourK])].join('. '),
      videosInWords(facts).replace(/^Video: /, ''),
      queueInWords(facts),
      watermarkInWords(facts),
      [facts.support, ...facts.agreements].join(', '),
    ];
  });
  return [header, ...rows];
}
