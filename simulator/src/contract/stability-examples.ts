/** Stability AI's published examples (documented-examples.ts says how they are used). */
/** https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6/operation/textToImage */
const STABILITY_TEXT_TO_IMAGE =
  'https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6/operation/textToImage';
/** The v1 OpenAPI specification: Stability-AI/rest-api-support, spec/v1.yaml. */
const STABILITY_SPEC = 'github.com/Stability-AI/rest-api-support spec/v1.yaml';

/** A 1×1 PNG, standing in for the documents' "...very long string..." base64 placeholder. */
export const ONE_PIXEL_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

/** Stability's v2beta reference and its OpenAPI document (the generate and upscale sections). */
const STABLE_IMAGE_REFERENCE = 'https://platform.stability.ai/docs/api-reference#tag/Generate';
const STABLE_IMAGE_OPENAPI = 'https://api.stability.ai/v2alpha/openapi';
const UPSCALE_REFERENCE =
  'https://platform.stability.ai/docs/api-reference#tag/Upscale/paths/~1v2beta~1stable-image~1upscale~1fast/post';

/**
 * Stability's v2beta Stable Image examples: the reference's request samples send these form fields with
 * `accept: image/*` and write the bytes to a file; `application/json` answers `{ image, finish_reason,
 * seed }` instead. Errors are `{ id, name, errors }`.
 */
export const stableImage = {
  core: {
    source: STABLE_IMAGE_REFERENCE,
    path: '/v2beta/stable-image/generate/core',
    form: { prompt: 'Lighthouse on a cliff overlooking the ocean', output_format: 'webp' },
  },
  sd3: {
    source: STABLE_IMAGE_REFERENCE,
    path: '/v2beta/stable-image/generate/sd3',
    form: { prompt: 'Lighthouse on a cliff overlooking the ocean', model: 'sd3.5-large', output_format: 'jpeg' },
  },
  ultra: {
    source: STABLE_IMAGE_REFERENCE,
    path: '/v2beta/stable-image/generate/ultra',
    form: { prompt: 'Lighthouse on a cliff overlooking the ocean', output_format: 'webp' },
  },
  fastUpscale: {
    source: UPSCALE_REFERENCE,
    path: '/v2beta/stable-image/upscale/fast',
    form: { output_format: 'webp' },
  },
  /** The request fields each generate endpoint documents (the OpenAPI's multipart schemas). */
  requestFields: {
    source: STABLE_IMAGE_OPENAPI,
    core: ['prompt', 'aspect_ratio', 'negative_prompt', 'seed', 'style_preset', 'output_format'],
    sd3: [
      'prompt',
      'mode',
      'image',
      'strength',
      'aspect_ratio',
      'model',
      'seed',
      'output_format',
      'negative_prompt',
      'cfg_scale',
    ],
    ultra: ['prompt', 'negative_prompt', 'aspect_ratio', 'seed', 'output_format', 'image', 'strength'],
    fastUpscale: ['image', 'output_format'],
  },
  jsonResponse: {
    source: STABLE_IMAGE_OPENAPI,
    body: { image: ONE_PIXEL_PNG_BASE64, finish_reason: 'SUCCESS', seed: 343940597 },
  },
  finishReasons: { source: STABLE_IMAGE_OPENAPI, values: ['SUCCESS', 'CONTENT_FILTERED'] },
  /** 400: "Invalid parameter(s), see the `errors` field for details." */
  badRequest: {
    source: STABLE_IMAGE_OPENAPI,
    status: 400,
    body: { id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', name: 'bad_request', errors: ['some-field: is required'] },
  },
  /** 403: "Your request was flagged by our content moderation system." */
  contentModeration: {
    source: STABLE_IMAGE_OPENAPI,
    status: 403,
    body: {
      id: 'ed14db44362126aab3cbd25cca51ffe3',
      name: 'content_moderation',
      errors: [
        'Your request was flagged by our content moderation system, as a result your request was denied and you were not charged.',
      ],
    },
  },
} as const;

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
  /** GET /v1/user/balance (operationId userBalance), with the specification's own example. */
  balance: {
    source: STABILITY_SPEC,
    path: '/v1/user/balance',
    response: { credits: 0.6336833840314097 },
  },
  /**
   * Two 429s the specification leaves out, in its Error shape. The rate limit's message is Stability's
   * rate-limit article's; the organization out of credit is what a real account answers (its message in
   * github.com/dmarx/video-killed-the-radio-star issue 59, its name as third-party clients report it).
   */
  rateLimited: {
    source: 'https://platform.stability.ai/docs/getting-started/rate-limits',
    status: 429,
    body: {
      id: 'a2c1f0b5a8a94d6f9d2b7b3c7b2d0e11',
      name: 'rate_limit_exceeded',
      message:
        'You have exceeded the rate limit of 150 requests within a 10 second period, and have been timed out for 60 seconds.',
    },
  },
  insufficientBalance: {
    source: 'github.com/dmarx/video-killed-the-radio-star issues/59',
    status: 429,
    body: {
      id: '8c6a3d2e1b0f4a5c9e7d6b5a4c3b2a10',
      name: 'insufficient_balance',
      message: 'Your organization does not have enough balance to request this action.',
    },
  },
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
