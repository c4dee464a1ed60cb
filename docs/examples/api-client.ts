// A typed client of the MediaGen API, from its published description (docs/DEVELOPERS.md):
//   MEDIAGEN_URL=http://127.0.0.1:3000 MEDIAGEN_TOKEN=<token> npx tsx docs/examples/api-client.ts "a lighthouse at dusk"
// The types come from `pnpm api:types`; `pnpm typecheck` compiles this file against them.
import createClient from 'openapi-fetch';
import type { components, paths } from './api-types';

type Generation = components['schemas']['Generation'];

const client = createClient<paths>({
  baseUrl: process.env.MEDIAGEN_URL ?? 'http://127.0.0.1:3000',
  headers: { authorization: `Bearer ${process.env.MEDIAGEN_TOKEN ?? ''}` },
});

/** Submits an image and waits for it: up to 30 s within the request, then by polling. */
export async function generateImage(prompt: string): Promise<Generation> {
  const submitted = await client.POST('/api/generations', {
    body: { kind: 'image', prompt },
    params: { header: { prefer: 'wait=30', 'idempotency-key': `example-${Date.now()}` } },
  });
  if (submitted.error) throw new Error(`${submitted.error.error.code}: ${submitted.error.error.message}`);
  let generation = submitted.data;
  while (generation.status === 'queued' || generation.status === 'active') {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const read = await client.GET('/api/generations/{id}', { params: { path: { id: generation.id } } });
    if (read.error) throw new Error(`${read.error.error.code}: ${read.error.error.message}`);
    generation = read.data;
  }
  return generation;
}

if (process.argv[2] !== undefined) {
  const generation = await generateImage(process.argv[2]);
  const first = generation.outputs?.[0];
  console.log(generation.status, first !== undefined && 'url' in first ? first.url : (generation.error?.message ?? ''));
}
