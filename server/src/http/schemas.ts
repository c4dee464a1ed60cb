import { GENERATION_KINDS, GENERATION_STATUSES } from '@mediagen/shared';

/**
 * JSON Schemas of the responses (the shapes of `Generation`, `GenerationList`, `Me` and `ErrorBody` in
 * `@mediagen/shared`). Fastify serializes with them, so a field the contract doesn't name never leaks out.
 */
export const errorBodySchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
} as const;

// ISO 8601 strings, built by the server.
const isoDate = { type: 'string' } as const;

export const generationSchema = {
  type: 'object',
  required: ['id', 'kind', 'status', 'progress', 'createdAt', 'updatedAt', 'prompt'],
  properties: {
    id: { type: 'string' },
    kind: { type: 'string', enum: [...GENERATION_KINDS] },
    status: { type: 'string', enum: [...GENERATION_STATUSES] },
    progress: { type: 'integer', minimum: 0, maximum: 100 },
    createdAt: isoDate,
    updatedAt: isoDate,
    prompt: { type: 'string' },
    result: {
      type: 'object',
      required: ['url', 'mimeType'],
      properties: { url: { type: 'string' }, mimeType: { type: 'string' } },
    },
    error: errorBodySchema.properties.error,
    queue: {
      type: 'object',
      required: ['position', 'etaMs'],
      properties: { position: { type: 'integer' }, etaMs: { type: ['integer', 'null'] } },
    },
  },
} as const;

export const generationListSchema = {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: { type: 'array', items: generationSchema },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;

const tokenBalanceSchema = {
  type: 'object',
  required: [...GENERATION_KINDS],
  properties: Object.fromEntries(GENERATION_KINDS.map((kind) => [kind, { type: 'integer', minimum: 0 }])),
} as const;

export const meSchema = {
  type: 'object',
  required: ['uid', 'email', 'tokens', 'allowance', 'resetsAt'],
  properties: {
    uid: { type: 'string' },
    email: { type: ['string', 'null'] },
    tokens: tokenBalanceSchema,
    allowance: tokenBalanceSchema,
    resetsAt: isoDate,
  },
} as const;

export const generationIdParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 200 } },
} as const;

/** The error statuses every authenticated route can answer with. */
export const commonErrorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  503: errorBodySchema,
} as const;
