// plan-rules.ts reads these rules in turn; each module uses the other's exports only inside functions.
import { PLAN_TITLES } from './plan-rules';
import type { PlanId } from './plans';
import {
  MINIMAX_VIDEO_MODELS,
  VIDEO_QUALITIES,
  isRealVideoPrompt,
  type MiniMaxVideoModel,
  type VideoDuration,
  type VideoQuality,
  type VideoResolution,
} from './video';

/**
 * The video models a request may name, and the plans that offer them (issue 36, "Models per plan"):
 *
 * - Free: MiniMax's base text-to-video model, `T2V-01` (720P, 6 s). Workers send it as MINIMAX_VIDEO_MODEL,
 *   the base model they are configured with (`T2V-01` or `T2V-01-Director`, which render the same).
 * - Pro: `MiniMax-Hailuo-2.3` at 768P (6 or 10 s) or 1080P (6 s), by default; `T2V-01` when named.
 * - Enterprise: everything Pro has. Hailuo-2.3 renders nothing more (1080P comes in 6 s clips only), so
 *   the two plans make the same videos; Enterprise differs in tokens, priority and its daily cap.
 */
export const VIDEO_MODEL_CHOICES = ['T2V-01', 'MiniMax-Hailuo-2.3'] as const;
export type VideoModelChoice = (typeof VIDEO_MODEL_CHOICES)[number];

/** Each video model as a creator reads its name. */
export const VIDEO_MODEL_TITLES: Readonly<Record<VideoModelChoice, string>> = {
  'T2V-01': 'T2V-01',
  'MiniMax-Hailuo-2.3': 'Hailuo 2.3',
};

/** Each plan's video models, its default first. */
export const PLAN_VIDEO_MODELS: Readonly<Record<PlanId, readonly VideoModelChoice[]>> = {
  free: ['T2V-01'],
  pro: ['MiniMax-Hailuo-2.3', 'T2V-01'],
  enterprise: ['MiniMax-Hailuo-2.3', 'T2V-01'],
};

/**
 * What draft, standard and HD (the spec's `quality`) are on each model: the resolution each asks for, or
 * null where the model renders no such picture. The first generation renders 720P only, so its draft and
 * standard are the same video and it has no HD; on Hailuo draft and standard are 768P (draft with the
 * quicker prompt optimizer, `fast_pretreatment`) and HD is 1080P.
 */
export const VIDEO_QUALITY_RESOLUTIONS: Readonly<
  Record<VideoModelChoice, Readonly<Record<VideoQuality, VideoResolution | null>>>
> = {
  'T2V-01': { draft: '720P', standard: '720P', hd: null },
  'MiniMax-Hailuo-2.3': { draft: '768P', standard: '768P', hd: '1080P' },
};

/** A video request's settings as the rules read them (the validated body). */
export interface VideoAsk {
  prompt: string;
  quality: VideoQuality;
  /** Seconds: read as the shortest clip at least this long. */
  duration: number;
  model?: VideoModelChoice | undefined;
  resolution?: VideoResolution | undefined;
}

/** What a video request settled on at submit: the record keeps it, the worker sends it, spend prices it. */
export interface VideoSettings {
  model: VideoModelChoice;
  resolution: VideoResolution;
  duration: VideoDuration;
  quality: VideoQuality;
}

export type VideoResolutionOutcome =
  | { ok: true; settings: VideoSettings }
  /** PLAN_LIMIT: another plan makes it (403); INVALID_REQUEST: no model renders it (400). */
  | { ok: false; code: 'PLAN_LIMIT' | 'INVALID_REQUEST'; message: string };

/** One picture a plan's model makes: the qualities that ask for it and the lengths it comes in. */
export interface VideoOption {
  model: VideoModelChoice;
  resolution: VideoResolution;
  durations: readonly VideoDuration[];
  qualities: readonly VideoQuality[];
}

export interface PlanVideoOptions {
  /** The model a request that names none is made with. */
  defaultModel: VideoModelChoice;
  options: readonly VideoOption[];
}

function rendersOf(model: VideoModelChoice) {
  return MINIMAX_VIDEO_MODELS[model].renders;
}

/** What a plan's videos can be, for a form to offer (the client) and the rules to check. */
export function videoOptionsForPlan(plan: PlanId): PlanVideoOptions {
  const models = PLAN_VIDEO_MODELS[plan];
  const options = models.flatMap((model) =>
    Object.entries(rendersOf(model)).map(([resolution, durations]) => ({
      model,
      resolution: resolution as VideoResolution,
      durations: durations ?? [],
      qualities: VIDEO_QUALITIES.filter((quality) => VIDEO_QUALITY_RESOLUTIONS[model][quality] === resolution),
    })),
  );
  return { defaultModel: models[0]!, options };
}

type Fit = { ok: true; settings: VideoSettings } | { ok: false; why: string };

/**
 * Whether `model` renders what the request asks for, and as what. A named resolution settles the picture
 * (1080P is HD; HD cannot be asked for at another resolution); otherwise the quality does. Spec §5: a
 * real-video prompt renders in HD where the model has it, in 6 s, as 1080P renders only those; the length
 * asked for becomes the shortest clip at least that long.
 */
function fit(model: VideoModelChoice, ask: VideoAsk): Fit {
  const byQuality = VIDEO_QUALITY_RESOLUTIONS[model];
  const hd = byQuality.hd;
  if (ask.resolution !== undefined && ask.quality === 'hd' && ask.resolution !== hd) {
    return { ok: false, why: hd === null ? `${model} makes no HD video` : `HD video is ${hd}` };
  }
  const realVideoInHd = ask.resolution === undefined && hd !== null && isRealVideoPrompt(ask.prompt);
  const resolution = ask.resolution ?? (realVideoInHd ? hd : byQuality[ask.quality]);
  if (resolution === null) return { ok: false, why: `${model} makes no HD video` };
  const lengths = rendersOf(model)[resolution];
  if (lengths === undefined) {
    return { ok: false, why: `${model} renders ${Object.keys(rendersOf(model)).join(' or ')} video` };
  }
  const duration = realVideoInHd ? lengths[0] : lengths.find((length) => length >= ask.duration);
  if (duration === undefined) {
    return { ok: false, why: `${model} renders ${resolution} video in clips of ${secondsList(lengths)}` };
  }
  // HD was refused above wherever it is not this resolution, so a quality asked for holds; 1080P is HD.
  const quality: VideoQuality = resolution === hd ? 'hd' : ask.quality;
  return { ok: true, settings: { model, resolution, duration, quality } };
}

function secondsList(lengths: readonly number[]): string {
  return `${lengths.join(' or ')} seconds`;
}

/** The plan's videos in a sentence: "6-second 720P videos with T2V-01". */
function planVideosInWords(plan: PlanId): string {
  const phrases = videoOptionsForPlan(plan).options.map(
    (option) => `${option.durations.join(' or ')}-second ${option.resolution} videos with ${option.model}`,
  );
  return phrases.join(', ');
}

/**
 * Settles a video request on the caller's plan: the first of the plan's models (the named one, else the
 * plan's default, then its others) that renders what is asked. One no model of the plan renders but a
 * model of another plan does is the plan's limit (403 PLAN_LIMIT, naming what the plan makes); one no
 * model renders at all is a bad request (400).
 */
export function resolveVideoRequest(plan: PlanId, ask: VideoAsk): VideoResolutionOutcome {
  const offered = PLAN_VIDEO_MODELS[plan];
  for (const model of ask.model === undefined ? offered : [ask.model]) {
    if (!offered.includes(model)) continue;
    const fitted = fit(model, ask);
    if (fitted.ok) return { ok: true, settings: fitted.settings };
  }
  // The most capable model first: its reason is the one that says what can be asked for instead.
  const anywhere = ask.model === undefined ? ALL_MODELS_MOST_CAPABLE_FIRST : [ask.model];
  const elsewhere = anywhere.map((model) => fit(model, ask));
  if (elsewhere.some((fitted) => fitted.ok)) {
    const upgrade = plan === 'enterprise' ? '' : ' Upgrade your plan for more.';
    return {
      ok: false,
      code: 'PLAN_LIMIT',
      message: `The ${PLAN_TITLES[plan]} plan makes ${planVideosInWords(plan)}.${upgrade}`,
    };
  }
  const why = elsewhere.map((fitted) => (fitted.ok ? '' : fitted.why))[0]!;
  return { ok: false, code: 'INVALID_REQUEST', message: `${why}, so no video can be made of this request` };
}

const ALL_MODELS_MOST_CAPABLE_FIRST: readonly VideoModelChoice[] = ['MiniMax-Hailuo-2.3', 'T2V-01'];

/**
 * What a worker may send for the base model (MINIMAX_VIDEO_MODEL): the first generation, which renders
 * the same 720P 6 s clip under either name. Hailuo is a plan's choice, never the base.
 */
export const BASE_VIDEO_MODEL_IDS: readonly MiniMaxVideoModel[] = ['T2V-01', 'T2V-01-Director'];

/**
 * The MiniMax model a recorded video request is sent to: Hailuo-2.3 by its name; the base model
 * (`T2V-01`, or a request recorded before video models had plans) as the worker's configured base model
 * (MINIMAX_VIDEO_MODEL: `T2V-01` or `T2V-01-Director`, which render the same).
 */
export function sentVideoModel(recorded: unknown, baseModel: MiniMaxVideoModel): MiniMaxVideoModel {
  return recorded === 'MiniMax-Hailuo-2.3' ? recorded : baseModel;
}
