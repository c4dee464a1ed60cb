import { describe, expect, it } from 'vitest';
import type { GenerationEvent, ProgressEvent, GenerationState, Submission } from '@mediagen/core';
import type { Generation, QueuePosition, SpeechDetails } from '@mediagen/shared';
import { GenerationRelay, type RelaySource } from '../src/socket/generation-relay';

const ID = 'speech_0123456789abcdef0123456789abcdef';
const HELLO_READ_BY_CORAL: SpeechDetails = {
  model: 'gpt-realtime-2.1-mini',
  voice: 'nova',
  voiceUsed: 'coral',
  language: 'en-US',
  speed: 1,
  format: 'mp3',
};

function event(
  version: number,
  status: GenerationEvent['status'],
  extra: Partial<GenerationEvent> = {},
): GenerationEvent {
  return {
    id: ID,
    uid: 'alice',
    kind: 'speech',
    status,
    version,
    token: 'held',
    tokenCount: 1,
    tokensReturned: 0,
    outputs: null,
    paidCalls: 0,
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: new Date(Date.parse('2026-11-23T10:00:00.000Z') + version * 1000).toISOString(),
    error: null,
    artifact: null,
    artifactExpiredAt: null,
    removed: false,
    traceParent: null,
    ...extra,
  };
}

const progress = (version: number, value: number): ProgressEvent => ({
  id: ID,
  uid: 'alice',
  version,
  progress: value,
  at: Date.now(),
});

/** A record that answers slowly, to show that what the relay tells keeps its order anyway. */
function fakeSource(overrides: Partial<RelaySource> = {}) {
  const reads: string[] = [];
  const source: RelaySource = {
    async submission(id) {
      reads.push(`submission ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { prompt: 'Hello', speech: HELLO_READ_BY_CORAL };
    },
    async state() {
      reads.push('state');
      return null;
    },
    async queued() {
      return [];
    },
    async changedSince() {
      return [];
    },
    async queuePosition() {
      return { position: 3, etaMs: null };
    },
    ...overrides,
  };
  return { source, reads };
}

function relayFor(source: RelaySource, connected = ['alice']) {
  const sent: { uid: string; generation: Generation }[] = [];
  const removed: { uid: string; id: string }[] = [];
  const relay = new GenerationRelay({
    audience: { has: (uid) => connected.includes(uid), uids: () => connected },
    source,
    artifactUrl: (key) => `/artifacts/${key}`,
    emit: (uid, generation) => sent.push({ uid, generation: structuredClone(generation) }),
    emitRemoved: (uid, id) => removed.push({ uid, id }),
    log: { warn: () => undefined },
  });
  return { relay, sent, removed };
}

const settle = (relay: GenerationRelay) => relay.stop();

describe('the relay', () => {
  it('tells the owner connected here every version, in order, once, with the prompt read once', async () => {
    const { source, reads } = fakeSource();
    const { relay, sent } = relayFor(source);
    relay.transition(event(1, 'queued'));
    relay.transition(event(2, 'active'));
    relay.transition(event(2, 'active'));
    relay.transition(event(1, 'queued'));
    relay.transition(event(3, 'completed', { token: 'spent', artifact: { key: `${ID}.mp3`, mimeType: 'audio/mpeg' } }));
    await settle(relay);
    expect(sent.map(({ generation }) => [generation.version, generation.status])).toEqual([
      [1, 'queued'],
      [2, 'active'],
      [3, 'completed'],
    ]);
    expect(sent[0]!.generation).toMatchObject({
      prompt: 'Hello',
      speech: HELLO_READ_BY_CORAL,
      queue: { position: 3, etaMs: null },
    });
    expect(sent[2]!.generation).toMatchObject({
      progress: 100,
      token: 'spent',
      result: { url: `/artifacts/${ID}.mp3` },
    });
    expect(reads).toEqual([`submission ${ID}`]);
  });

  it('drops, unread, what belongs to users not connected here', async () => {
    const { source, reads } = fakeSource();
    const { relay, sent } = relayFor(source, ['bob']);
    relay.transition(event(1, 'queued'));
    relay.progress(progress(1, 50));
    await settle(relay);
    expect(sent).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('sends progress that rises on the version it belongs to, and keeps it across a new active version', async () => {
    const { source } = fakeSource();
    const { relay, sent } = relayFor(source);
    relay.transition(event(2, 'active'));
    relay.progress(progress(2, 10));
    relay.progress(progress(2, 30));
    relay.progress(progress(2, 20));
    relay.progress(progress(1, 90));
    relay.transition(event(3, 'active'));
    relay.progress(progress(3, 35));
    await settle(relay);
    expect(sent.map(({ generation }) => [generation.version, generation.progress])).toEqual([
      [2, 0],
      [2, 10],
      [2, 30],
      [3, 30],
      [3, 35],
    ]);
  });

  it('reads the state for progress of a generation it has told nothing of', async () => {
    const state: GenerationState & { uid: string; submission: Submission } = {
      ...event(2, 'active'),
      uid: 'alice',
      submission: { prompt: 'Hello' },
    };
    const { source } = fakeSource({ state: async () => state });
    const { relay, sent } = relayFor(source);
    relay.progress(progress(2, 40));
    relay.progress(progress(2, 45));
    await settle(relay);
    expect(sent.map(({ generation }) => generation.progress)).toEqual([40, 45]);
  });

  it('replays from the record what a lost stream missed, without repeating what was told', async () => {
    const changed = [
      { ...event(2, 'active'), uid: 'alice' },
      {
        ...event(4, 'failed', { error: { code: 'SPEECH_FAILED', message: 'Failed to generate speech' } }),
        uid: 'alice',
      },
    ];
    const { source } = fakeSource({ changedSince: async () => changed });
    const { relay, sent } = relayFor(source);
    relay.transition(event(2, 'active'));
    await relay.replay(new Date(0));
    await settle(relay);
    expect(sent.map(({ generation }) => [generation.version, generation.status])).toEqual([
      [2, 'active'],
      [4, 'failed'],
    ]);
  });

  it('tells queued generations their new place when one of their kind leaves the queue', async () => {
    const other = 'speech_fedcba9876543210fedcba9876543210';
    let place: QueuePosition = { position: 3, etaMs: null };
    const { source } = fakeSource({
      queuePosition: async () => place,
      queued: async () => [
        { state: { ...event(1, 'queued'), uid: 'alice', submission: { prompt: 'Hello' } }, queue: place },
      ],
    });
    const { relay, sent } = relayFor(source);
    relay.transition(event(1, 'queued'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    place = { position: 2, etaMs: 4000 };
    relay.transition({ ...event(2, 'active'), id: other, uid: 'bob' });
    await expectEventually(() => sent.length === 2);
    await settle(relay);
    expect(sent.map(({ generation }) => [generation.version, generation.queue?.position])).toEqual([
      [1, 3],
      [1, 2],
    ]);
  });
});

async function expectEventually(check: () => boolean) {
  await expect.poll(check, { timeout: 2000, interval: 20 }).toBe(true);
}
