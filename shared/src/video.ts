export const VIDEO_QUALITIES = ['draft', 'standard', 'hd'] as const;
export type VideoQuality = (typeof VIDEO_QUALITIES)[number];

export const VIDEO_DEFAULTS = { quality: 'standard', durationSeconds: 6, style: 'cinematic' } as const;
export const MAX_VIDEO_DURATION_SECONDS = 120;

export const VIDEO_MODEL = 'video-01';
export const VIDEO_FPS = 30;
export const MAX_VIDEO_FRAMES = 3600;
/** Spec §9: poll every 2 s, at most 360 times (about 12 minutes). */
export const VIDEO_POLL_INTERVAL_MS = 2000;
export const VIDEO_MAX_POLLS = 360;
export const VIDEO_TIMEOUTS_MS = { start: 60_000, status: 10_000, file: 10_000 } as const;

/** Provider statuses that mean "keep waiting". Real MiniMax also reports Preparing before Queueing. */
export const VIDEO_PENDING_STATUSES: ReadonlySet<string> = new Set(['Preparing', 'Queueing', 'Processing']);

const REAL_VIDEO_PATTERN = /\b(real|realistic|actual)\b/i;
export const REAL_VIDEO_WORDING =
  'cinematic quality, professional video production, realistic lighting, high production value';

export interface VideoRequestOptions {
  prompt: string;
  quality: VideoQuality;
  durationSeconds: number;
  style: string;
}

/** The MiniMax POST /video_generation body (spec §7, §9). */
export interface MiniMaxVideoBody {
  model: string;
  prompt: string;
  prompt_optimizer: boolean;
  generation_type: 'fast' | 'standard';
  quality: VideoQuality;
  max_frames: number;
  style_preset: string;
  resolution: '1920x1080' | '1280x720';
  fps: number;
  optimization_level: 'high' | 'standard';
}

export interface VideoPlan {
  isRealVideo: boolean;
  /** Spec §5: real video is delivered as mxf, everything else as mp4. */
  format: 'mxf' | 'mp4';
  body: MiniMaxVideoBody;
}

export function isRealVideoPrompt(prompt: string): boolean {
  return REAL_VIDEO_PATTERN.test(prompt);
}

export function planVideo(request: VideoRequestOptions): VideoPlan {
  const isRealVideo = isRealVideoPrompt(request.prompt);
  // Spec §5: real video always renders in hd, whatever quality was asked for.
  const quality: VideoQuality = isRealVideo ? 'hd' : request.quality;
  const hd = quality === 'hd';
  return {
    isRealVideo,
    format: isRealVideo ? 'mxf' : 'mp4',
    body: {
      model: VIDEO_MODEL,
      prompt: isRealVideo ? `${request.prompt.trim()}, ${REAL_VIDEO_WORDING}` : request.prompt.trim(),
      prompt_optimizer: true,
      generation_type: quality === 'draft' ? 'fast' : 'standard',
      quality,
      max_frames: Math.min(request.durationSeconds * VIDEO_FPS, MAX_VIDEO_FRAMES),
      style_preset: request.style,
      resolution: hd ? '1920x1080' : '1280x720',
      fps: VIDEO_FPS,
      optimization_level: hd ? 'high' : 'standard',
    },
  };
}

/**
 * Progress while polling. Providers give no percentage, so it rises quickly at first and ever more
 * slowly (most videos finish within 45 polls), stays within 5..99 and never goes backwards.
 */
export function videoPollProgress(pollNumber: number): number {
  return Math.min(99, Math.round(5 + 94 * (1 - Math.exp(-pollNumber / 45))));
}
