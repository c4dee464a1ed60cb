import { expect, vi } from 'vitest';
import {
  ERROR_MESSAGES,
  GENERATION_KINDS,
  OPERATOR_ERROR_CODES,
  TOKEN_ENDING_SENTENCES,
  creatorFailureMessage,
  type Generation,
  type GenerationKind,
  type GenerationRequestInput,
  type OperatorGeneration,
} from '@mediagen/shared';
import { faultsOfRoute, type FaultRule, type ProviderRoute } from '@mediagen/simulator';
import { bearer, connectUserSocket } from './app';
import { startTestPipeline, type TestPipeline } from './pipeline';
import { createAdminUser, createTestUser, type TestUser } from './users';

/**
 * Walks for the tests of what creators read (creator-errors*.test.ts). Creators never read an operator's error (issue 34). For each kind, every failure the simulator can
 * produce on each of its provider's routes is run through the whole pipeline, and what the creator sees
 * (the API's record and list, every socket update) is read: never a key, credit, billing, a provider's
 * name or its own words, only messages written for creators, whose sentence on the token says what
 * happened to it. The operators' view of the same generation keeps the provider's answer.
 */

/** Anything that speaks to the key holder or comes from a provider. */
const OPERATOR_WORDS =
  /api[ _-]?key|secret|credit|balance|quota|billing|authenticat|stability|minimax|openai|sk-|status_code|base_resp|HTTP \d{3}|\(\d{4}\)/i;

const TOKEN_SENTENCES = Object.values(TOKEN_ENDING_SENTENCES);

/** Every message a creator may read when a generation fails: the catalogue's that fit them, and ours. */
const CREATOR_MESSAGES = new Set<string>([
  ...Object.entries(ERROR_MESSAGES)
    .filter(([code]) => !OPERATOR_ERROR_CODES.has(code as keyof typeof ERROR_MESSAGES))
    .map(([, message]) => message),
  ...GENERATION_KINDS.flatMap((kind) =>
    (['unavailable', 'not_made'] as const).flatMap((cause) =>
      TOKEN_SENTENCES.map((sentence) => `${creatorFailureMessage(kind, cause)} ${sentence}`),
    ),
  ),
  'Generation took too long - please try again',
  'Generation stopped: the provider could not finish it in the attempts allowed - please try again',
  'Failed to generate speech: the voice did not read your text as written. Your token was returned.',
  'Failed to generate speech: this text cannot be read aloud',
]);

const REQUESTS: Record<GenerationKind, GenerationRequestInput> = {
  image: { kind: 'image', prompt: 'a lighthouse at dusk' },
  video: { kind: 'video', prompt: 'waves rolling onto a beach' },
  speech: { kind: 'speech', input: 'Hello from the pipeline', voice: 'nova', language: 'en-US' },
};

/** Short enough that a hanging provider ends its generation quickly; nothing may open a breaker. */
const WORKER_SETTINGS = {
  JOB_DEADLINE_MS: '1500',
  BREAKER_VOLUME_THRESHOLD: '100000',
  STABILITY_RATE_LIMIT: 'off',
  RATE_LIMIT_DEFAULT_MS: '200',
};

export interface Walk {
  pipeline: TestPipeline;
  admin: TestUser;
}

export async function startWalk(settings: Record<string, string>): Promise<Walk> {
  const pipeline = await startTestPipeline({
    simulator: { latencyMs: 0, videoQueueingMs: 100, videoProcessingMs: 200 },
    server: { JOB_ATTEMPTS: '2', JOB_BACKOFF_MS: '20', ...settings },
    workers: { ...WORKER_SETTINGS, ...settings },
  });
  return { pipeline, admin: await createAdminUser() };
}

async function getJson<T>(walk: Walk, path: string, user: TestUser): Promise<T> {
  const response = await fetch(`${walk.pipeline.server.origin}${path}`, { headers: bearer(user) });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/**
 * Runs one generation of a new creator (a Free account's token) against `rule` until it ends; returns
 * what the creator and the operators saw.
 */
export async function walkOne(walk: Walk, kind: GenerationKind, rule: FaultRule) {
  const { pipeline } = walk;
  const creator = await createTestUser();
  const { socket, updates } = await connectUserSocket(pipeline.server.origin, creator.idToken);
  pipeline.simulator.clearFaults();
  pipeline.simulator.injectFault(rule);
  try {
    const response = await fetch(`${pipeline.server.origin}/api/generations`, {
      method: 'POST',
      headers: { ...bearer(creator), 'content-type': 'application/json' },
      body: JSON.stringify(REQUESTS[kind]),
    });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as Generation;
    await vi.waitUntil(
      () => updates.some((update) => update.id === id && ['failed', 'completed'].includes(update.status)),
      { timeout: 25_000, interval: 25 },
    );
    const record = await getJson<Generation>(walk, `/api/generations/${id}`, creator);
    const list = await getJson<{ items: Generation[] }>(walk, `/api/generations`, creator);
    return {
      record,
      seen: [...updates, record, ...list.items],
      operator: await getJson<OperatorGeneration>(walk, `/admin/api/generations/${id}`, walk.admin),
    };
  } finally {
    pipeline.simulator.clearFaults();
    socket.disconnect();
  }
}

export function expectCreatorView(rule: FaultRule, { record, seen, operator }: Awaited<ReturnType<typeof walkOne>>) {
  const view = JSON.stringify(seen);
  expect(view, 'what the creator saw').not.toMatch(OPERATOR_WORDS);
  expect(view).not.toContain('providerError');
  if (record.status !== 'failed') return;
  const message = record.error!.message;
  expect(CREATOR_MESSAGES, `a message written for creators, not "${message}"`).toContain(message);
  // The sentence on the token is the truth of the record.
  const sentence = TOKEN_SENTENCES.find((candidate) => message.endsWith(candidate));
  if (sentence !== undefined && record.token !== 'waived') {
    expect(sentence).toBe(TOKEN_ENDING_SENTENCES[record.token as 'refunded' | 'spent']);
  }
  // The operators read what the provider answered behind a plain message.
  expect(operator.error).toEqual(record.error);
  if (message.includes(' generation is unavailable right now.')) {
    expect(operator.providerError).not.toBeNull();
    if (rule.code !== undefined) expect(operator.providerError).toContain(String(rule.code));
    if (rule.billingCode !== undefined) expect(operator.providerError).toContain(rule.billingCode);
  }
}

export const rulesOf = (routes: readonly ProviderRoute[]) =>
  routes.flatMap(faultsOfRoute).map((rule) => [describeRule(rule), rule] as const);

function describeRule(rule: FaultRule): string {
  return [rule.route, rule.fault, rule.code, rule.billingCode].filter((part) => part !== undefined).join(' ');
}
