/** Stability AI's published examples (documented-examples.ts says how they are used). */
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
