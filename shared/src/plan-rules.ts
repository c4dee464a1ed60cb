import { IMAGE_MODEL_RULES, PLAN_IMAGE_MODELS, type ImageModel, type PlanImageModels } from './image-models';
import type { GenerationKind } from './kinds';
import { PLAN_IDS, type PlanId } from './plans';
import type { GenerationRequest } from './requests';
import { DAY_MS, TOKEN_ALLOWANCE, TOKEN_RESET_PERIOD_DAYS, type TokenBalance } from './tokens';
import { resolveVideoRequest } from './video-models';

/**
 * What a request of one generation may ask for on a plan. A plan's videos are its video models'
 * (video-models.ts, PLAN_VIDEO_MODELS: what each renders, at which resolutions and lengths).
 */
export interface RequestLimits {
  /** Longest side of an image, in pixels. */
  maxImageSide: number;
  /** The image models the plan may name, its default, and whether it makes 4K. */
  image: PlanImageModels;
  /** Images one request may make (an image set, `samples`), each charged one image token. */
  maxImagesPerRequest: number;
}

/** Everything that differs by plan, in one place (the queue CLI, the API and the worker read it). */
export interface PlanRules {
  /** Tokens per kind and period; the balance refills to it when a period is over. */
  allowance: TokenBalance;
  /**
   * 30 days, as the spec's free tokens. Enterprise's "unlimited" is a large allowance that refills every
   * day: a per-user daily cap, so no account can run up an unbounded bill.
   */
  periodDays: number;
  limits: RequestLimits;
  /** Free output carries the product mark (spec §9); paid plans none. */
  watermark: boolean;
  /** BullMQ priority of the plan's jobs: lower runs first. */
  queuePriority: number;
  /**
   * What one user's generations may cost us in provider fees per UTC day (estimated, USD): past it,
   * submissions are refused until the next day whatever tokens are left.
   */
  dailySpendCapUsd: number;
  /** Whether the plan's creators may use the API with keys of their own and receive webhooks. */
  apiAccess: boolean;
}

export type PlanCatalogue = Record<PlanId, PlanRules>;

/**
 * Free is the spec's (1 image, 1 video, 2 speech per 30 days; its defaults: one 1024² image, 6 s standard
 * video, made with the base model, T2V-01). Pro's 500 generations a month of the pricing table, split by
 * kind; Enterprise's "unlimited" a daily fair-use cap (issue 37). Operators change both by configuration
 * (PLAN_PRO_ALLOWANCE, PLAN_ENTERPRISE_DAILY_CAP). plan-facts.ts puts all of this into the pages' words.
 */
export const DEFAULT_PLAN_RULES: PlanCatalogue = {
  free: {
    allowance: { ...TOKEN_ALLOWANCE },
    periodDays: TOKEN_RESET_PERIOD_DAYS,
    limits: { maxImageSide: 1024, image: PLAN_IMAGE_MODELS.free, maxImagesPerRequest: 1 },
    watermark: true,
    queuePriority: 3,
    dailySpendCapUsd: 2,
    apiAccess: false,
  },
  pro: {
    allowance: { image: 250, video: 50, speech: 200 },
    periodDays: TOKEN_RESET_PERIOD_DAYS,
    limits: { maxImageSide: 1536, image: PLAN_IMAGE_MODELS.pro, maxImagesPerRequest: 4 },
    watermark: false,
    queuePriority: 2,
    dailySpendCapUsd: 25,
    apiAccess: false,
  },
  enterprise: {
    allowance: { image: 200, video: 40, speech: 400 },
    periodDays: 1,
    limits: { maxImageSide: 2048, image: PLAN_IMAGE_MODELS.enterprise, maxImagesPerRequest: 10 },
    watermark: false,
    queuePriority: 1,
    dailySpendCapUsd: 250,
    apiAccess: true,
  },
};

export const PLAN_TITLES: Record<PlanId, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

export const periodMs = (rules: PlanRules): number => rules.periodDays * DAY_MS;

/**
 * Why a request asks for more than the plan gives, in words a creator can act on; null when it fits.
 * Sizes are read as asked (before the engine rounds them to a size it renders).
 */
export function exceedsPlan(request: GenerationRequest, plan: PlanId, rules: PlanRules): string | null {
  const { limits } = rules;
  const upgrade = plan === 'enterprise' ? '' : ' Upgrade your plan for more.';
  switch (request.kind) {
    case 'image': {
      const side = Math.max(request.width ?? 0, request.height ?? 0);
      if (side > limits.maxImageSide) {
        return `The ${PLAN_TITLES[plan]} plan makes images up to ${imageSideInWords(limits.maxImageSide)} pixels.${upgrade}`;
      }
      if (request.model !== undefined && !limits.image.models.includes(request.model)) {
        return `The ${PLAN_TITLES[plan]} plan does not include ${IMAGE_MODEL_RULES[request.model].title}.${upgrade}`;
      }
      if (request.resolution !== undefined && !limits.image.resolutions.includes(request.resolution)) {
        return `The ${PLAN_TITLES[plan]} plan does not include ${request.resolution.toUpperCase()} images.${upgrade}`;
      }
      if ((request.samples ?? 1) > limits.maxImagesPerRequest) {
        return `The ${PLAN_TITLES[plan]} plan makes ${imagesPerRequestInWords(limits.maxImagesPerRequest)}.${upgrade}`;
      }
      return null;
    }
    case 'video': {
      // A request no model renders is the schema's and the submit's to refuse (400), not the plan's.
      const settled = resolveVideoRequest(plan, request);
      return !settled.ok && settled.code === 'PLAN_LIMIT' ? settled.message : null;
    }
    case 'speech':
      return null;
  }
}

/** "one image per request", "up to 4 images per request": the API's refusals and the plan pages say it so. */
export function imagesPerRequestInWords(max: number): string {
  return max === 1 ? 'one image per request' : `up to ${max} images per request`;
}

/** "1024×1024": an image's largest size on a plan. */
export function imageSideInWords(side: number): string {
  return `${side}×${side}`;
}

/**
 * The tokens a request is charged at submit, all together: one per image of an image set (`samples`), one
 * for anything else. Each comes back or is spent on its own when the generation ends (README, "Token rules").
 */
export function tokensOfRequest(kind: GenerationKind, request: { samples?: unknown }): number {
  if (kind !== 'image') return 1;
  return typeof request.samples === 'number' && Number.isInteger(request.samples) && request.samples > 1
    ? request.samples
    : 1;
}

/** The smallest plan that makes `images` per request, for a lock to name; null when none does. */
export function planForImages(images: number, plans: PlanCatalogue = DEFAULT_PLAN_RULES): PlanId | null {
  const found = PLAN_IDS.find((plan) => plans[plan].limits.maxImagesPerRequest >= images);
  return found ?? null;
}

/** The model an image request is made with: the one it names, else its plan's default. */
export function imageModelFor(request: { model?: ImageModel | undefined }, rules: PlanRules): ImageModel {
  return request.model ?? rules.limits.image.defaultModel;
}
