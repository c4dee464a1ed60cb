/**
 * Request and response examples from the providers' own API references, each with its source. The
 * simulator's contract tests replay the requests against it and compare its answers with these; the
 * worker's contract tests serve these answers to the real clients and compare what the clients send
 * with the documented request fields. Values the documents leave as placeholders are noted where
 * they are replaced.
 */

/** https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6/operation/textToImage */
const STABILITY_TEXT_TO_IMAGE =
  'https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6/operation/textToImage';
/** The v1 OpenAPI specification: Stability-AI/rest-api-support, spec/v1.yaml. */
const STABILITY_SPEC = 'github.com/Stability-AI/rest-api-support spec/v1.yaml';

/** A 1×1 PNG, standing in for the documents' "...very long string..." base64 placeholder. */
export const ONE_PIXEL_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

export const stability = {
  textToImage: {
    source: STABILITY_TEXT_TO_IMAGE,
    path: '/v1/generation/stable-diffusion-xl-1024-v1-0/text-to-image',
    request: {
      cfg_scale: 7,
      height: 1024,
      width: 1024,
      samples: 1,
      steps: 30,
      text_prompts: [{ text: 'A lighthouse on a cliff', weight: 1 }],
    },
    response: {
      artifacts: [
        { base64: ONE_PIXEL_PNG_BASE64, finishReason: 'SUCCESS', seed: 1050625087 },
        { base64: ONE_PIXEL_PNG_BASE64, finishReason: 'CONTENT_FILTERED', seed: 1229191277 },
      ],
    },
  },
  /** TextToImageRequestBody's fields (the reference's request body schema). */
  requestFields: [
    'text_prompts',
    'height',
    'width',
    'cfg_scale',
    'clip_guidance_preset',
    'sampler',
    'samples',
    'seed',
    'steps',
    'style_preset',
    'extras',
  ],
  /** components.schemas.FinishReason */
  finishReasons: { source: STABILITY_SPEC, values: ['SUCCESS', 'ERROR', 'CONTENT_FILTERED'] },
  /** components.schemas.Error, with the specification's own example values. */
  error: {
    source: STABILITY_SPEC,
    status: 401,
    body: {
      id: '296a972f-666a-44a1-a3df-c9c28a1f56c0',
      name: 'bad_request',
      message: 'Header parameter Authorization is required, but not found',
    },
  },
} as const;

export const minimax = {
  createTask: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-t2v',
    path: '/v1/video_generation',
    request: {
      model: 'MiniMax-Hailuo-02',
      prompt: 'A man picks up a book [Pedestal up], then reads [Static shot].',
      duration: 6,
      resolution: '1080P',
    },
    response: { task_id: '106916112212032', base_resp: { status_code: 0, status_msg: 'success' } },
  },
  /** VideoGenerationReq's fields (text-, image- and subject-to-video). */
  requestFields: [
    'model',
    'prompt',
    'prompt_optimizer',
    'fast_pretreatment',
    'duration',
    'resolution',
    'callback_url',
    'aigc_watermark',
    'first_frame_image',
    'subject_reference',
  ],
  queryTask: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-query',
    path: '/v1/query/video_generation',
    response: {
      task_id: '176843862716480',
      status: 'Success',
      file_id: '176844028768320',
      video_width: 1920,
      video_height: 1080,
      base_resp: { status_code: 0, status_msg: 'success' },
    },
    statuses: ['Preparing', 'Queueing', 'Processing', 'Success', 'Fail'],
  },
  retrieveFile: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-download',
    path: '/v1/files/retrieve',
    /** The only query parameter the current reference lists. */
    queryParameters: ['file_id'],
    response: {
      file: {
        // The document's "${file_id}" placeholder, filled with the query example's file id.
        file_id: '176844028768320',
        bytes: 0,
        created_at: 1700469398,
        filename: 'output_aigc.mp4',
        purpose: 'video_generation',
        download_url: 'www.downloadurl.com',
      },
      base_resp: { status_code: 0, status_msg: 'success' },
    },
  },
  /** The error code table (status_code → status_msg); 1013 is not in it. */
  errorCodes: {
    source: 'https://platform.minimax.io/docs/api-reference/errorcode',
    messages: {
      1000: 'unknown error',
      1001: 'request timeout',
      1002: 'rate limit',
      1004: 'not authorized',
      1008: 'insufficient balance',
      1024: 'internal error',
      1026: 'input new_sensitive',
      1027: 'output new_sensitive',
      1033: 'system error',
      2013: 'invalid params',
      2049: 'invalid api key',
    } as Record<number, string>,
  },
  hosts: {
    source: 'github.com/MiniMax-AI/MiniMax-MCP README.md ("The API host and key vary by region and must match")',
    global: 'https://api.minimax.io',
    mainland: 'https://api.minimaxi.com',
  },
} as const;

export const openai = {
  speech: {
    source: 'https://platform.openai.com/docs/api-reference/audio/createSpeech',
    path: '/v1/audio/speech',
    request: { model: 'tts-1', input: 'The quick brown fox jumped over the lazy dog.', voice: 'alloy' },
  },
  requestFields: ['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format'],
  /** Both 429, told apart by `error.code` (https://platform.openai.com/docs/guides/error-codes/api-errors). */
  rateLimited: {
    source: 'https://platform.openai.com/docs/guides/error-codes/api-errors',
    status: 429,
    body: {
      error: {
        message: 'Rate limit reached for requests',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
  },
  insufficientQuota: {
    source: 'https://platform.openai.com/docs/guides/error-codes/api-errors',
    status: 429,
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    },
  },
} as const;

/**
 * The structure of a JSON value: the type of each field, recursively (arrays by their first item), so
 * two answers with different values but the same fields compare equal.
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return [value.length === 0 ? 'empty' : shapeOf(value[0])];
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shapeOf(field)]));
  }
  return value === null ? 'null' : typeof value;
}
