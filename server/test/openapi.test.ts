import { readFile } from 'node:fs/promises';
import { validate } from '@readme/openapi-parser';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, generationRequestSchema } from '@mediagen/shared';
import { API_TYPES_PATH, apiTypesOf } from '@mediagen/scripts/api-types';
import { API_VERSION } from '../src/plugins/api-docs';
import { createTestContext, type TestApp, type TestContext } from './support/app';

/**
 * Routes under /api that are not for programs, each left out on purpose (plugins/api-docs.ts says why).
 * A new one must be added here deliberately; anything else the server answers under /api is published.
 */
const INTERNAL = [
  'POST /api/session',
  'DELETE /api/session',
  'POST /api/billing/webhook',
  'GET /api/openapi.json',
  /^GET \/api\/docs(\/|$)/,
];

interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
}
interface Operation {
  summary?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

let context: TestContext;
let server: TestApp;
const answered = new Set<string>();

beforeAll(async () => {
  context = await createTestContext();
  const collect = (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD beside every GET; the document's GET stands for both.
      if (method !== 'HEAD' && route.url.startsWith('/api/')) answered.add(`${method} ${route.url}`);
    }
  };
  server = await context.start({}, { onRoute: collect });
});
afterAll(() => context.cleanup());

async function publishedDocument(): Promise<{ response: Response; document: OpenApiDocument }> {
  const response = await fetch(`${server.origin}/api/openapi.json`);
  return { response, document: (await response.json()) as OpenApiDocument };
}

const isInternal = (route: string) =>
  INTERNAL.some((internal) => (typeof internal === 'string' ? internal === route : internal.test(route)));

/** `/api/generations/{id}` as Fastify writes it: `/api/generations/:id`. */
const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

describe('the published API description', () => {
  it('is served without sign-in, OpenAPI 3.1 with its version and bearer scheme, and valid to an independent validator', async () => {
    const { response, document } = await publishedDocument();
    expect(response.status).toBe(200);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(API_VERSION);
    expect(document).toMatchObject({
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    });
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('has every route the server answers under /api but the internal ones, with the same method, and nothing else', async () => {
    const { document } = await publishedDocument();
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${fastifyPath(path)}`),
    );
    const published = [...answered].filter((route) => !isInternal(route));
    expect(published.length).toBeGreaterThan(10);
    expect(documented.sort()).toEqual(published.sort());
  });

  it('gives every operation a summary and a tag, and its errors the one error shape', async () => {
    const { document } = await publishedDocument();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(operation.summary, name).toBeTruthy();
        expect(operation.tags?.length, name).toBeGreaterThan(0);
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400)
            expect(response.content?.['application/json']?.schema, `${name} ${status}`).toEqual({
              $ref: '#/components/schemas/Error',
            });
        }
      }
    }
    const codes = document.components.schemas.ApiError?.properties?.code?.enum;
    expect(codes?.sort()).toEqual(Object.keys(ERROR_MESSAGES).sort());
  });

  it('shows examples of a submission that the server accepts', async () => {
    const { document } = await publishedDocument();
    const examples = Object.values(
      document.paths['/api/generations']?.post?.requestBody?.content['application/json']?.examples ?? {},
    );
    expect(examples.map((example) => (example.value as { kind: string }).kind).sort()).toEqual([
      'image',
      'speech',
      'video',
    ]);
    for (const example of examples) expect(generationRequestSchema.safeParse(example.value).success).toBe(true);
  });

  it("matches the TypeScript types the developers' example is checked against (else: pnpm api:types)", async () => {
    const { document } = await publishedDocument();
    expect(await readFile(new URL(`../../${API_TYPES_PATH}`, import.meta.url), 'utf8')).toBe(
      await apiTypesOf(document),
    );
  });
});

describe('docs/DEVELOPERS.md', () => {
  it('lists every error code in its table, and no other', async () => {
    const page = await readFile(new URL('../../docs/DEVELOPERS.md', import.meta.url), 'utf8');
    const listed = [...page.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(Object.keys(ERROR_MESSAGES).sort());
  });
});

describe('the reference page', () => {
  it('is served with its own scripts and styles from this server, under a CSP that allows only this origin', async () => {
    const page = await fetch(`${server.origin}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toMatch(/style-src 'self'( 'sha256-[\w+/=]+')?;/);
    expect(csp).not.toMatch(/unsafe-|https?:/);
    const html = await page.text();
    // No inline script: every script is a file.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(assets.filter((asset) => asset.endsWith('.js'))).toHaveLength(3);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const loaded = await fetch(new URL(asset, `${server.origin}/api/docs`));
      expect(loaded.status, asset).toBe(200);
      await loaded.arrayBuffer();
    }
    const initializer = await (await fetch(`${server.origin}/api/docs/static/swagger-initializer.js`)).text();
    expect(initializer).toContain("resolveUrl('./json')");
    const json = (await (await fetch(`${server.origin}/api/docs/json`)).json()) as OpenApiDocument;
    expect(json.info.version).toBe(API_VERSION);
  });
});
