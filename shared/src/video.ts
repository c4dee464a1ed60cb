import { appendWithinLimit } from './prompt-budget';

export const VIDEO_QUALITIES = ['draft', 'standard', 'hd'] as const;
export type VideoQuality = (typeof VIDEO_QUALITIES)[number];

export const VIDEO_DEFAULTS = { quality: 'standard', durationSeconds: 6, style: 'cinematic' } as const;

/** The resolutions MiniMax's text-to-video models render (each model only some of them: MINIMAX_VIDEO_MODELS). */
export const VIDEO_RESOLUTIONS = ['720P', '768P', '1080P'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

/** The clip lengths MiniMax's text-to-video models render, in seconds. */
export const VIDEO_DURATIONS = [6, 10] as const;
export type VideoDuration = (typeof VIDEO_DURATIONS)[number];

/**
 * The longest clip any model renders. A request's `duration` is read as the shortest clip at least that
 * long (1 to 6 → 6 s, 7 to 10 → 10 s: video-models.ts); the spec's field once took up to 120 s, which no
 * model ever rendered.
 */
export const MAX_VIDEO_DURATION_SECONDS = 10;

/**
 * Spec §9: the video model, `video-01`: MiniMax now publishes it as `T2V-01`
 * (https://platform.minimax.io/docs/api-reference/video-generation-t2v), the name sent. A configured
 * newer model gets the spec's duration and quality mapped on.
 */
export const VIDEO_MODEL = 'T2V-01';
/** Spec §9: poll every 2 s, at most 360 times (about 12 minutes): the spec model's window. */
export const VIDEO_POLL_INTERVAL_MS = 2000;
export const VIDEO_MAX_POLLS = 360;
export const VIDEO_TIMEOUTS_MS = { start: 60_000, status: 10_000, file: 10_000 } as const;

/** Provider statuses that mean "keep waiting". Real MiniMax also reports Preparing before Queueing. */
export const VIDEO_PENDING_STATUSES: ReadonlySet<string> = new Set(['Preparing', 'Queueing', 'Processing']);

const MINUTE_MS = 60_000;
const SPEC_POLL_WINDOW_MS = VIDEO_POLL_INTERVAL_MS * VIDEO_MAX_POLLS;

/** The clip lengths a model renders at each resolution it renders. */
export type VideoRenders = Readonly<Partial<Record<VideoResolution, readonly VideoDuration[]>>>;

interface MiniMaxModelFacts {
  sizable: boolean;
  renders: VideoRenders;
  pollWindowMs: number;
}

const FIRST_GENERATION_RENDERS: VideoRenders = { '720P': [6] };
const HAILUO_RENDERS: VideoRenders = { '768P': [6, 10], '1080P': [6] };

/**
 * MiniMax's published text-to-video models (https://platform.minimax.io/docs/api-reference/video-generation-t2v)
 * and what they render. `sizable`: the model takes `duration` and `resolution` (the first generation,
 * `T2V-01` and `T2V-01-Director`, renders a fixed 6 s at 720P and takes neither); `renders`: the lengths
 * each resolution comes in: Hailuo renders 6 or 10 s at 768P, and 6 s only at 1080P (MiniMax answers any
 * other pair with 2013, invalid params). Hailuo also takes `fast_pretreatment` (a quicker prompt optimizer).
 *
 * `pollWindowMs`: how long a started task is polled before the job gives up. MiniMax publishes no render
 * times; the first generation keeps the spec's 12 minutes, and Hailuo, whose 1080P and 10 s renders
 * sometimes take longer than that, gets 30.
 */
export const MINIMAX_VIDEO_MODELS = {
  'T2V-01': { sizable: false, renders: FIRST_GENERATION_RENDERS, pollWindowMs: SPEC_POLL_WINDOW_MS },
  'T2V-01-Director': { sizable: false, renders: FIRST_GENERATION_RENDERS, pollWindowMs: SPEC_POLL_WINDOW_MS },
  'MiniMax-Hailuo-02': { sizable: true, renders: HAILUO_RENDERS, pollWindowMs: 30 * MINUTE_MS },
  'MiniMax-Hailuo-2.3': { sizable: true, renders: HAILUO_RENDERS, pollWindowMs: 30 * MINUTE_MS },
} as const satisfies Record<string, MiniMaxModelFacts>;
export type MiniMaxVideoModel = keyof typeof MINIMAX_VIDEO_MODELS;
export const MINIMAX_VIDEO_MODEL_IDS = Object.keys(MINIMAX_VIDEO_MODELS) as MiniMaxVideoModel[];

/**
 * Older names still read as their published ones: the spec's `video-01` is `T2V-01`. Only the published
 * name is ever sent, so a setting written from the spec keeps working whether or not MiniMax still
 * answers to the old one.
 */
export const MINIMAX_VIDEO_MODEL_ALIASES: Readonly<Record<string, MiniMaxVideoModel>> = { 'video-01': 'T2V-01' };

export function isMiniMaxVideoModel(model: string): model is MiniMaxVideoModel {
  return Object.hasOwn(MINIMAX_VIDEO_MODELS, model);
}

/**
 * How much longer than the spec's window a model's is: JOB_DEADLINE_MS is sized for the spec's 12
 * minutes, so a video job's deadline grows by this much, and a task already paid for is polled to the end
 * of its window.
 */
export function extraPollWindowMs(pollWindowMs: number): number {
  return Math.max(0, pollWindowMs - SPEC_POLL_WINDOW_MS);
}

const REAL_VIDEO_PATTERN = /\b(real|realistic|actual)\b/i;
/** Spec §5: the cinematic professional-video wording, appended phrase by phrase as far as it fits. */
export const REAL_VIDEO_PHRASES = [
  'cinematic quality',
  'professional video production',
  'realistic lighting',
  'high production value',
] as const;

export interface VideoRequestOptions {
  prompt: string;
  quality: VideoQuality;
  durationSeconds: number;
  style: string;
  /**
   * The resolution settled at submit (video-models.ts, resolveVideoRequest); absent from requests recorded
   * before plans had video models, which get the one their quality maps to.
   */
  resolution?: VideoResolution;
}

/**
 * The MiniMax POST /v1/video_generation body: only fields the API documents. The spec's
 * generation_type, quality, max_frames, style_preset, fps and optimization_level are not API fields;
 * README ("What the providers are sent") says what each became.
 */
export interface MiniMaxVideoBody {
  model: MiniMaxVideoModel;
  prompt: string;
  prompt_optimizer: boolean;
  duration?: VideoDuration;
  resolution?: VideoResolution;
  fast_pretreatment?: boolean;
}

export interface VideoPlan {
  isRealVideo: boolean;
  /** Spec §5: real video is delivered as mxf, everything else as mp4. */
  format: 'mxf' | 'mp4';
  /** The quality the spec's rules settled on (real video is always hd). */
  quality: VideoQuality;
  body: MiniMaxVideoBody;
}

export function isRealVideoPrompt(prompt: string): boolean {
  return REAL_VIDEO_PATTERN.test(prompt);
}

/**
 * The length sent: the shortest the model renders at that resolution that is at least the one asked for,
 * else its longest (requests recorded before video models had plans asked for up to 120 s).
 */
function renderedDuration(seconds: number, renders: readonly VideoDuration[]): VideoDuration {
  return renders.find((length) => length >= seconds) ?? renders[renders.length - 1]!;
}

/**
 * What a sizable model is sent for a resolution that is not one it renders (a request recorded before
 * video models had plans): hd is its 1080P, anything else its 768P.
 */
function hailuoResolution(quality: VideoQuality, asked: VideoResolution | undefined): '768P' | '1080P' {
  if (asked === '768P' || asked === '1080P') return asked;
  return quality === 'hd' ? '1080P' : '768P';
}

/**
 * The MiniMax body for a video request, sent to `model`. A request resolved at submit carries its
 * resolution and a length its model renders, sent as they are; one recorded earlier gets what its quality
 * and length map to, as it did then.
 */
export function planVideo(request: VideoRequestOptions, model: MiniMaxVideoModel = VIDEO_MODEL): VideoPlan {
  const isRealVideo = isRealVideoPrompt(request.prompt);
  // Spec §5: real video always renders in hd, whatever quality was asked for; a request resolved at
  // submit already says what its model makes of that.
  const quality: VideoQuality = isRealVideo && request.resolution === undefined ? 'hd' : request.quality;
  const prompt = request.prompt.trim();
  const body: MiniMaxVideoBody = {
    model,
    prompt: isRealVideo ? appendWithinLimit(prompt, REAL_VIDEO_PHRASES) : prompt,
    prompt_optimizer: true,
  };
  const facts: MiniMaxModelFacts = MINIMAX_VIDEO_MODELS[model];
  if (facts.sizable) {
    const resolution = hailuoResolution(quality, request.resolution);
    body.duration = renderedDuration(request.durationSeconds, facts.renders[resolution] ?? VIDEO_DURATIONS);
    body.resolution = resolution;
    // The spec's draft ("generation_type fast") has no speed switch in the API; this is the nearest one.
    if (quality === 'draft') body.fast_pretreatment = true;
  }
  return { isRealVideo, format: isRealVideo ? 'mxf' : 'mp4', quality, body };
}

/**
 * Progress while polling. Providers give no percentage, so it rises quickly at first and ever more
 * slowly (most videos finish within 45 polls), stays within 5..99 and never goes backwards.
 */
export function videoPollProgress(pollNumber: number): number {
  return Math.min(99, Math.round(5 + 94 * (1 - Math.exp(-pollNumber / 45))));
}
