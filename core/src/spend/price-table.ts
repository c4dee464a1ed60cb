import { z } from 'zod';
import {
  IMAGE_DEFAULTS,
  IMAGE_MODEL_RULES,
  IMAGE_UPSCALER,
  isImageModel,
  MINIMAX_VIDEO_MODELS,
  isRealtimeModel,
  sentVideoModel,
  isSpeechModel,
  tokensOfRequest,
  type GenerationKind,
  type MiniMaxVideoModel,
  type RealtimeSpeechModel,
  type SpeechModel,
} from '@mediagen/shared';
import type { EnvReader } from '../config/env-reader';
import type { RequestByKind } from '../queue/generation-jobs';

/**
 * What one paid call is estimated to cost, in US dollars. List prices of 2026-11, each overridable:
 * - Stability (https://platform.stability.ai/pricing): 1 credit = $0.01; SDXL 1.0 and SD 1.6 on the v1
 *   text-to-image API are priced by sampling steps, ≈ 0.9 credits per image at 30 steps; the v2beta models
 *   and the upscaler at a flat number of credits a call (IMAGE_MODEL_RULES, IMAGE_UPSCALER in shared).
 * - MiniMax (pay as you go, https://platform.minimax.io/docs/guides/pricing-paygo, video): per video, by model,
 *   resolution and length: T2V-01 (the spec's video-01) $0.43 a 6 s 720P clip; Hailuo-2.3 (and Hailuo-02)
 *   $0.28 for 6 s and $0.56 for 10 s at 768P, $0.49 for 6 s at 1080P (the same list prices as Runware's
 *   Hailuo-2.3 page, https://runware.ai/docs/models/minimax-hailuo-2-3).
 * - OpenAI (https://platform.openai.com/docs/pricing): tts-1 $15 and tts-1-hd $30 per million characters
 *   on the speech endpoint; the Realtime models by tokens, per million: gpt-realtime-2.1-mini $20 audio
 *   output, $2.40 text output, $0.60 text input; gpt-realtime-2.1 $64, $24 and $4.
 * Estimates, not invoices: budgets and reports use them; the providers' own billing is the truth.
 */
export interface PriceTable {
  stability: {
    usdPerImageAt30Steps: number;
    /** What one credit of the v2beta services costs (their prices are in credits). */
    usdPerCredit: number;
  };
  minimax: {
    /** T2V-01 and T2V-01-Director: one 6 s 720P clip. */
    usdPerFirstGenerationClip: number;
    /** Hailuo, per clip of each resolution and length it renders. */
    hailuo: HailuoClipPrices;
  };
  openai: {
    usdPerMillionCharacters: number;
    usdPerMillionCharactersHd: number;
    realtime: Record<RealtimeSpeechModel, RealtimeTokenPrices>;
  };
}

export interface HailuoClipPrices {
  '768P-6s': number;
  '768P-10s': number;
  '1080P-6s': number;
}

/** USD per million tokens of a Realtime model. */
export interface RealtimeTokenPrices {
  audioOutput: number;
  textOutput: number;
  textInput: number;
}

export const DEFAULT_PRICES: PriceTable = {
  stability: { usdPerImageAt30Steps: 0.009, usdPerCredit: 0.01 },
  minimax: { usdPerFirstGenerationClip: 0.43, hailuo: { '768P-6s': 0.28, '768P-10s': 0.56, '1080P-6s': 0.49 } },
  openai: {
    usdPerMillionCharacters: 15,
    usdPerMillionCharactersHd: 30,
    realtime: {
      'gpt-realtime-2.1-mini': { audioOutput: 20, textOutput: 2.4, textInput: 0.6 },
      'gpt-realtime-2.1': { audioOutput: 64, textOutput: 24, textInput: 4 },
    },
  },
};

/**
 * How a Realtime reading turns into tokens: audio output is 20 tokens a second (one per 50 ms), read at
 * about 14 characters a second (speed is applied to the audio afterwards, so it changes no token); the
 * transcript and the text sent are a token per 4 characters; each part of the text is sent with its
 * instructions (about 300 tokens), a part holding up to 1,000 characters.
 */
const REALTIME_ESTIMATE = {
  audioTokensPerSecond: 20,
  charactersPerSecond: 14,
  charactersPerTextToken: 4,
  instructionTokensPerPart: 300,
  charactersPerPart: 1000,
} as const;

export interface CostContext {
  /** The base video model (MINIMAX_VIDEO_MODEL), for videos recorded with it or before models were. */
  videoModel: MiniMaxVideoModel;
  /** The speech model in use, for speech recorded before its model was. */
  speechModel: SpeechModel;
}

/** Which of a generation's paid calls is priced: its generation, or an image's 4K upscale. */
export type PricedCall = 'generate' | 'upscale';

/** The estimated price of a generation's paid call, from its recorded request. */
export function estimateCostUsd(
  kind: GenerationKind,
  request: Record<string, unknown>,
  prices: PriceTable,
  context: CostContext,
  call: PricedCall = 'generate',
): number {
  switch (kind) {
    case 'image': {
      if (call === 'upscale') return roundUsd(IMAGE_UPSCALER.credits * prices.stability.usdPerCredit);
      // v2beta makes one image a call, priced per call; the v1 engine makes an image set in one call and
      // bills every sample. A request recorded before models were is the v1 engine's.
      const { steps = IMAGE_DEFAULTS.steps, model } = request as Partial<RequestByKind['image']>;
      if (isImageModel(model) && IMAGE_MODEL_RULES[model].api === 'v2beta-generate') {
        return roundUsd(IMAGE_MODEL_RULES[model].credits * prices.stability.usdPerCredit);
      }
      return roundUsd(prices.stability.usdPerImageAt30Steps * (steps / 30) * tokensOfRequest('image', request));
    }
    case 'video': {
      const { duration = 6, quality = 'standard', model, resolution } = request as Partial<RequestByKind['video']>;
      if (!MINIMAX_VIDEO_MODELS[sentVideoModel(model, context.videoModel)].sizable) {
        return prices.minimax.usdPerFirstGenerationClip;
      }
      // Settled at submit (shared/src/video-models.ts): 6 or 10 s at 768P, or 6 s at 1080P, which is HD.
      if (resolution === '1080P' || (resolution === undefined && quality === 'hd'))
        return prices.minimax.hailuo['1080P-6s'];
      return duration > 6 ? prices.minimax.hailuo['768P-10s'] : prices.minimax.hailuo['768P-6s'];
    }
    case 'speech': {
      const { input = '', model: recorded } = request as Partial<RequestByKind['speech']>;
      const model = recorded !== undefined && isSpeechModel(recorded) ? recorded : context.speechModel;
      if (isRealtimeModel(model)) return realtimeReadingUsd(input.length, prices.openai.realtime[model]);
      const perMillion = model.endsWith('-hd')
        ? prices.openai.usdPerMillionCharactersHd
        : prices.openai.usdPerMillionCharacters;
      return roundUsd((perMillion * input.length) / 1_000_000);
    }
  }
}

function realtimeReadingUsd(characters: number, prices: RealtimeTokenPrices): number {
  const e = REALTIME_ESTIMATE;
  const audioTokens = (characters / e.charactersPerSecond) * e.audioTokensPerSecond;
  const textTokens = characters / e.charactersPerTextToken;
  const parts = Math.max(1, Math.ceil(characters / e.charactersPerPart));
  const inputTokens = textTokens + parts * e.instructionTokensPerPart;
  return roundUsd(
    (audioTokens * prices.audioOutput + textTokens * prices.textOutput + inputTokens * prices.textInput) / 1_000_000,
  );
}

const roundUsd = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

const price = z
  .string()
  .regex(/^\d+(\.\d+)?$/, { error: 'must be a price in US dollars, like 0.009' })
  .transform(Number);

/** Price overrides (PRICE_*), for a contract price or a list-price change. */
export function readPriceTable(reader: EnvReader): PriceTable {
  const read = (name: string, fallback: number) => reader.read(name, price, String(fallback)) ?? fallback;
  const d = DEFAULT_PRICES;
  return {
    stability: {
      usdPerImageAt30Steps: read('PRICE_STABILITY_USD_PER_IMAGE', d.stability.usdPerImageAt30Steps),
      usdPerCredit: read('PRICE_STABILITY_USD_PER_CREDIT', d.stability.usdPerCredit),
    },
    minimax: {
      usdPerFirstGenerationClip: read('PRICE_MINIMAX_USD_PER_VIDEO_01_CLIP', d.minimax.usdPerFirstGenerationClip),
      hailuo: {
        '768P-6s': read('PRICE_MINIMAX_HAILUO_USD_PER_768P_6S_CLIP', d.minimax.hailuo['768P-6s']),
        '768P-10s': read('PRICE_MINIMAX_HAILUO_USD_PER_768P_10S_CLIP', d.minimax.hailuo['768P-10s']),
        '1080P-6s': read('PRICE_MINIMAX_HAILUO_USD_PER_1080P_6S_CLIP', d.minimax.hailuo['1080P-6s']),
      },
    },
    openai: {
      usdPerMillionCharacters: read('PRICE_OPENAI_USD_PER_MILLION_CHARACTERS', d.openai.usdPerMillionCharacters),
      usdPerMillionCharactersHd: read('PRICE_OPENAI_USD_PER_MILLION_CHARACTERS_HD', d.openai.usdPerMillionCharactersHd),
      realtime: {
        // Audio output is over nine tenths of a reading's price: the one each model's override moves.
        'gpt-realtime-2.1-mini': {
          ...d.openai.realtime['gpt-realtime-2.1-mini'],
          audioOutput: read(
            'PRICE_OPENAI_REALTIME_MINI_USD_PER_MILLION_AUDIO_TOKENS',
            d.openai.realtime['gpt-realtime-2.1-mini'].audioOutput,
          ),
        },
        'gpt-realtime-2.1': {
          ...d.openai.realtime['gpt-realtime-2.1'],
          audioOutput: read(
            'PRICE_OPENAI_REALTIME_USD_PER_MILLION_AUDIO_TOKENS',
            d.openai.realtime['gpt-realtime-2.1'].audioOutput,
          ),
        },
      },
    },
  };
}
