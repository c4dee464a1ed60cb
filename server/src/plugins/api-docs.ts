import { STATUS_CODES } from 'node:http';
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ERROR_MESSAGES,
  apiErrorSchema,
  CONTENT_CREDENTIALS_VERIFY_URL,
  contentCredentialsSchema,
  errorBodySchema,
  generationRequestSchema,
  generationSchema,
  type GenerationRequestInput,
} from '@mediagen/shared';

/**
 * The published API's version (OpenAPI `info.version`). Within one major version fields, error codes and
 * event types are only ever added (docs/DEVELOPERS.md, "Versions").
 */
export const API_VERSION = '1.0.0';

const OPENAPI_PATH = '/api/openapi.json';
const API_DOCS_PATH = '/api/docs';

/**
 * Routes under /api that programs have no use for, left out of the document: the web app's cookie
 * session (token sync for the app's own pages), Stripe's webhook receiver (Stripe calls it, signed), and
 * this description and its reference page. Everything outside /api is internal too: the admin pages and
 * their API, health and metrics (for the platform, not for programs), and the signed artifact links
 * (`/artifacts/:key`: their URLs come whole, signed and expiring, inside a Generation's `outputs`; a
 * program follows them and never builds one). Socket.IO is no Fastify route.
 */
const INTERNAL_API_ROUTES = [
  /^\/api\/session$/,
  /^\/api\/billing\/webhook$/,
  /^\/api\/docs(\/|$)/,
  /^\/api\/openapi\.json$/,
];

function isDocumentedRoute(url: string): boolean {
  return url.startsWith('/api/') && !INTERNAL_API_ROUTES.some((pattern) => pattern.test(url));
}

/**
 * The contract's shared shapes, named once in `components.schemas` and referenced by every route. Zod's
 * global registry, where `.describe()` puts the descriptions the document shows, is the one the type
 * provider reads by default.
 */
z.globalRegistry.add(generationSchema, {
  id: 'Generation',
  description:
    'The whole state of one generation, as every answer and every `generation:update` event carries it. Keep the one with the highest `version`.',
});
z.globalRegistry.add(contentCredentialsSchema, {
  id: 'ContentCredentials',
  description:
    "What the C2PA manifests signed into a file and its marked copy say (`actions.marked`: the copy links serve while the owner's plan has the watermark). " +
    'Absent from a file stored unsigned: a format not signed yet (MP4 video; WAV, Ogg, Opus, FLAC and AAC audio), or made without a signing key. ' +
    `Anyone can check a downloaded file at ${CONTENT_CREDENTIALS_VERIFY_URL}.`,
});
z.globalRegistry.add(errorBodySchema, { id: 'Error', description: 'The one error shape: every 4xx and 5xx answer.' });
z.globalRegistry.add(apiErrorSchema, {
  id: 'ApiError',
  description: `\`code\` is stable within a version; \`message\` is for people and may change.\n\n| code | message |\n| --- | --- |\n${Object.entries(
    ERROR_MESSAGES,
  )
    .map(([code, message]) => `| \`${code}\` | ${message.replace(/\|/g, '\\|')} |`)
    .join('\n')}`,
});

const SUBMIT_EXAMPLES: GenerationRequestInput[] = [
  { kind: 'image', prompt: 'a lighthouse at dusk, oil painting', aspectRatio: '16:9' },
  { kind: 'video', prompt: 'waves rolling onto a beach at sunrise', duration: 6 },
  { kind: 'speech', input: 'Welcome to MediaGen.', voice: 'nova', language: 'en-US' },
];

// The type provider's defaults skip Swagger UI's routes under /documentation; ours are hidden by URL.
const zodTransform = createJsonSchemaTransform({ skipList: [] });
const zodTransformObject = createJsonSchemaTransformObject({});

const transform: SwaggerTransform = (document) => {
  const { url, route } = document;
  if (!isDocumentedRoute(url)) return { schema: { hide: true }, url };
  const documented = zodTransform({
    ...document,
    schema:
      url === '/api/generations' && route.method === 'POST'
        ? // The route reads its body in the service, for the spec's messages; the document shows what it accepts.
          { ...document.schema, body: generationRequestSchema }
        : document.schema,
  } as Parameters<typeof zodTransform>[0]);
  const schema = documented.schema as Record<string, unknown> & { body?: object };
  if (url === '/api/generations' && route.method === 'POST' && schema.body !== undefined)
    schema.body = { ...schema.body, examples: SUBMIT_EXAMPLES };
  // Routes open to visitors (support, sales) take a bearer token when there is one.
  if (route.config?.signedOutAllowed === true) schema.security = [{}, { bearerAuth: [] }];
  return { ...documented, schema };
};

/**
 * The published description of the API (OpenAPI 3.1 at GET /api/openapi.json) generated from the zod
 * schemas the routes validate with, and its interactive reference (Swagger UI at GET /api/docs), served
 * with its own assets from this server under a Content-Security-Policy of its own, so it works offline.
 * Registered before the routes: @fastify/swagger collects them as they are added.
 */
export const apiDocsPlugin = fp(
  async (app) => {
    const { config } = app;
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'MediaGen API',
          version: API_VERSION,
          description:
            'Generate images, videos and speech. Submit a generation, then poll it, stream its events, or wait for it with `Prefer: wait`. Getting started: docs/DEVELOPERS.md.',
        },
        servers: [{ url: config.publicUrl ?? '/' }],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              description:
                "`Authorization: Bearer <token>`: a Firebase ID token from the app's sign-in (it lasts one hour), or an API key created on the API keys page.",
            },
          },
        },
        security: [{ bearerAuth: [] }],
        tags: [
          { name: 'Generations', description: 'Submit, follow, list, cancel and delete your generations.' },
          { name: 'Account', description: 'Who you are, your plan and tokens; closing the account.' },
          { name: 'Speech', description: 'The speech model in use and its voices.' },
          { name: 'Billing', description: 'Your plan and subscription: checkout and the billing portal.' },
          { name: 'Support', description: 'The support and Contact Sales forms.' },
        ],
      },
      transform,
      transformObject: (document) => withStatusDescriptions(withoutUnusedInputs(zodTransformObject(document))),
    });

    // Built on the first read and kept (@fastify/swagger caches it): about 0.1 s of CPU that a start, and
    // every test's app, would otherwise pay for a document most of them never serve.
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'no-cache').send(app.swagger()),
    );
    await app.register(swaggerUi, {
      routePrefix: API_DOCS_PATH,
      // The page, its script and styles are this server's own files: 'self' is enough, the initializer
      // being a file too (no inline script). The styles carry their icons as data: URLs. Swagger UI's bundle
      // adds one <style> element of its own, let in by its hash (the browser test api-docs.e2e.ts fails if
      // an upgrade changes it: the new hash is in its console error).
      staticCSP: {
        'default-src': "'none'",
        'script-src': "'self'",
        'style-src': "'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
        'img-src': "'self' data:",
        'font-src': "'self'",
        'connect-src': "'self'",
        'base-uri': "'none'",
        'form-action': "'none'",
        'frame-ancestors': "'none'",
      },
      uiConfig: { deepLinking: true },
    });
  },
  { name: 'api-docs', fastify: '5.x' },
);

type Responses = Record<string, { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;

/** Answers described by nothing of their own say their status, and an error where to read its code. */
function withStatusDescriptions(document: ReturnType<SwaggerTransformObject>): ReturnType<SwaggerTransformObject> {
  const paths = (document as { paths?: Record<string, Record<string, { responses?: Responses }>> }).paths ?? {};
  for (const operation of Object.values(paths).flatMap((item) => Object.values(item))) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (response.description !== 'Default Response') continue;
      const isError = response.content?.['application/json']?.schema?.$ref === '#/components/schemas/Error';
      response.description = `${STATUS_CODES[status] ?? status}${isError ? ": the error, its `code` one of ApiError's" : ''}`;
    }
  }
  return document;
}

/**
 * The type provider names each registered schema twice, as read (`NameInput`) and as written; the
 * contract's shared shapes are only ever answered, so the unused reading is dropped.
 */
function withoutUnusedInputs(document: ReturnType<SwaggerTransformObject>): ReturnType<SwaggerTransformObject> {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas;
  if (schemas === undefined) return document;
  // One dropped may have been the only reader of another (ErrorInput of ApiErrorInput).
  for (let dropped = true; dropped;) {
    const text = JSON.stringify(document);
    const unused = Object.keys(schemas).filter(
      (name) => name.endsWith('Input') && !text.includes(`"#/components/schemas/${name}"`),
    );
    unused.forEach((name) => delete schemas[name]);
    dropped = unused.length > 0;
  }
  return document;
}
