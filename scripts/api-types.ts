import { writeFile } from 'node:fs/promises';
import { API_TYPES_PATH, apiTypesOf } from './lib/api-types';

/**
 * `pnpm api:types [origin]`: reads the API's description from a running server (`pnpm dev`'s by default)
 * and writes its TypeScript types for openapi-fetch.
 */
const origin = process.argv[2] ?? process.env.API_URL ?? 'http://127.0.0.1:3000';
const response = await fetch(`${origin}/api/openapi.json`);
if (!response.ok) throw new Error(`${origin}/api/openapi.json answered ${response.status}: is the server running?`);
await writeFile(API_TYPES_PATH, await apiTypesOf((await response.json()) as object));
console.log(`wrote ${API_TYPES_PATH}`);
