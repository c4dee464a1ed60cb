import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';

/** The dev server (`pnpm dev`) serves the client, and nothing else of the workspace. */
const clientDir = new URL('..', import.meta.url).pathname;
const root = new URL('../..', import.meta.url).pathname;
// Where the local stack keeps every user's files (`pnpm dev`'s DATA_DIR).
const original = `${root}.data/artifacts/dev-server-test-${randomUUID()}.png`;
let server: ViteDevServer;
let origin: string;

beforeAll(async () => {
  await mkdir(`${root}.data/artifacts`, { recursive: true });
  await writeFile(original, 'a user’s picture');
  server = await createServer({
    configFile: `${clientDir}vite.config.ts`,
    root: clientDir,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1', watch: null },
    // What it serves is the question, not how it pre-bundles: the optimizer's run would only hold close()
    // up (past the hook's limit on a loaded machine).
    optimizeDeps: { noDiscovery: true },
  });
  await server.listen();
  const address = server.httpServer!.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  // fetch keeps its connections open; the server would wait for them.
  (server?.httpServer as Server | null | undefined)?.closeAllConnections();
  await server?.close();
  await rm(original, { force: true });
});

const status = async (path: string) => (await fetch(`${origin}${path}`)).status;

describe('the dev server', () => {
  it('serves the app and the shared package it imports', async () => {
    expect(await status('/src/main.tsx')).toBe(200);
    expect(await status(`/@fs${root}shared/src/index.ts`)).toBe(200);
  });

  it("refuses users' files in .data, other packages' sources and secrets", async () => {
    expect(await status(`/@fs${original}`)).toBe(403);
    expect(await status(`/@fs${root}server/src/app.ts`)).toBe(403);
    expect(await status(`/@fs${root}worker/src/config.ts`)).toBe(403);
    expect(await status(`/@fs${root}package.json`)).toBe(403);
  });
});
