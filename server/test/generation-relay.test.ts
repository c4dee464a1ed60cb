import { describe, expect, it } from 'vitest';
import type { Generation, GenerationKind } from '@mediagen/shared';
import type { CanceledStreamEvent, GenerationEventSource, QueueEventName } from '../src/queue/generation-queues';
import { GenerationRelay, type RelayAudience } from '../src/socket/generation-relay';

type Listener = (
  kind: GenerationKind,
  event: QueueEventName,
  jobId: string,
  eventId: string,
  progress?: number,
) => void;

class FakeSource implements GenerationEventSource {
  queueListeners: Listener[] = [];
  cancelListeners: ((kind: GenerationKind, event: CanceledStreamEvent, eventId: string) => void)[] = [];
  onQueueEvent(listener: Listener) {
    this.queueListeners.push(listener);
    return () => (this.queueListeners = this.queueListeners.filter((item) => item !== listener));
  }
  onCanceled(listener: (kind: GenerationKind, event: CanceledStreamEvent, eventId: string) => void) {
    this.cancelListeners.push(listener);
    return () => (this.cancelListeners = this.cancelListeners.filter((item) => item !== listener));
  }
  fire(event: QueueEventName, jobId = 'speech_1', progress?: number) {
    this.queueListeners.forEach((listener) => listener('speech', event, jobId, `${Date.now()}-0`, progress));
  }
}

const generation = (status: Generation['status'], progress: number): Generation => ({
  id: 'speech_1',
  kind: 'speech',
  status,
  progress,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  prompt: 'hi',
});

/** Sockets of these users are connected to this instance. */
const connected = (...uids: string[]): RelayAudience => ({
  any: () => uids.length > 0,
  has: (uid) => uids.includes(uid),
});

/** Every job belongs to u1, whose socket is here unless told otherwise. */
function setup(states: Generation[], audience = connected('u1', 'u9')) {
  const source = new FakeSource();
  const emitted: { uid: string; generation: Generation }[] = [];
  let reads = 0;
  let ownerReads = 0;
  const relay = new GenerationRelay({
    source,
    load: async () => {
      const next = states[Math.min(reads++, states.length - 1)];
      return next === undefined ? null : { uid: 'u1', generation: { ...next } };
    },
    ownerOf: async () => {
      ownerReads += 1;
      return 'u1';
    },
    audience,
    emit: (uid, update) => emitted.push({ uid, generation: update }),
    log: { warn: () => undefined },
  });
  relay.start();
  return { source, emitted, relay, reads: () => reads, ownerReads: () => ownerReads };
}

describe('GenerationRelay', () => {
  it('emits each update to the owner, in the order the events came', async () => {
    const { source, emitted, relay, reads } = setup([generation('queued', 0), generation('completed', 100)]);
    source.fire('waiting');
    source.fire('active');
    source.fire('progress', 'speech_1', 10);
    source.fire('completed');
    await relay.stop();
    expect(emitted.map(({ uid, generation: update }) => `${uid}:${update.status}:${update.progress}`)).toEqual([
      'u1:queued:0',
      'u1:active:0',
      'u1:active:10',
      'u1:completed:100',
    ]);
    // The first start of a job told as queued, and its progress, change nothing else: they are not read.
    expect(reads()).toBe(2);
  });

  it("tells its own submissions from the 202's state, and their start from that: nothing is read", async () => {
    const { source, emitted, relay, reads, ownerReads } = setup([generation('active', 10)]);
    const submitted = { ...generation('queued', 0), queue: { position: 2, etaMs: 4000 } };
    relay.enqueuing('u1', 'speech_1');
    source.fire('waiting');
    relay.enqueued('u1', submitted);
    await new Promise((resolve) => setTimeout(resolve, 10));
    source.fire('active');
    await relay.stop();
    expect([reads(), ownerReads()]).toEqual([0, 0]);
    expect(emitted.map(({ generation: update }) => update)).toEqual([
      submitted,
      { ...generation('active', 0), updatedAt: expect.any(String) },
    ]);
  });

  it('keeps the order when a worker takes a submission before its 202: queued first, then active', async () => {
    const { source, emitted, relay } = setup([generation('active', 10)]);
    relay.enqueuing('u1', 'speech_1');
    source.fire('waiting');
    source.fire('active');
    await new Promise((resolve) => setTimeout(resolve, 10));
    relay.enqueued('u1', generation('queued', 0));
    await relay.stop();
    expect(emitted.map(({ generation: update }) => update.status)).toEqual(['queued', 'active']);
  });

  it('drops a progress update that would go backwards and never lowers progress on other events', async () => {
    const { source, emitted, relay } = setup([
      generation('active', 50),
      generation('active', 30),
      generation('active', 20),
      generation('active', 60),
    ]);
    source.fire('progress');
    source.fire('progress');
    source.fire('active');
    source.fire('progress');
    await relay.stop();
    // The 'active' event, raised back to 50, shows the owner nothing new: it is not sent again.
    expect(emitted.map(({ generation: update }) => update.progress)).toEqual([50, 60]);
  });

  it("takes a running job's progress from its event, without reading the job again", async () => {
    const { source, emitted, relay, reads } = setup([generation('active', 10)]);
    source.fire('active');
    source.fire('progress', 'speech_1', 35);
    source.fire('progress', 'speech_1', 20);
    source.fire('progress', 'speech_1', 60);
    await relay.stop();
    expect(reads()).toBe(1);
    expect(emitted.map(({ uid, generation: update }) => `${uid}:${update.status}:${update.progress}`)).toEqual([
      'u1:active:10',
      'u1:active:35',
      'u1:active:60',
    ]);
  });

  it('sends a state the owner has already seen only once, however many queue events repeat it', async () => {
    const { source, emitted, relay } = setup([
      generation('active', 40),
      generation('active', 40),
      generation('active', 40),
      generation('active', 41),
    ]);
    source.fire('delayed');
    source.fire('waiting');
    source.fire('active');
    source.fire('progress');
    await relay.stop();
    expect(emitted.map(({ generation: update }) => `${update.status}:${update.progress}`)).toEqual([
      'active:40',
      'active:41',
    ]);
  });

  it('relays a cancel event from the stream as it is', async () => {
    const { source, emitted, relay } = setup([]);
    const canceled = {
      ...generation('canceled', 0),
      error: { code: 'CANCELED' as const, message: 'Generation canceled.' },
    };
    source.cancelListeners.forEach((listener) =>
      listener('speech', { jobId: 'speech_1', uid: 'u9', generation: JSON.stringify(canceled) }, `${Date.now()}-0`),
    );
    await relay.stop();
    expect(emitted).toEqual([{ uid: 'u9', generation: canceled }]);
  });

  it('ignores removed jobs and stops listening when stopped', async () => {
    const { source, emitted, relay } = setup([generation('queued', 0)]);
    source.fire('removed');
    await relay.stop();
    source.fire('waiting');
    expect(emitted).toEqual([]);
    expect(source.queueListeners).toHaveLength(0);
  });
});

describe("GenerationRelay: only the instance holding the owner's socket reads the job", () => {
  it('reads nothing at all while no socket is connected here', async () => {
    const { source, emitted, relay, reads, ownerReads } = setup([generation('active', 10)], connected());
    source.fire('waiting');
    source.fire('active');
    source.fire('progress', 'speech_1', 40);
    source.fire('completed');
    await relay.stop();
    expect([reads(), ownerReads(), emitted.length]).toEqual([0, 0, 0]);
  });

  it("reads only a job's owner, once, when that owner is connected elsewhere", async () => {
    const { source, emitted, relay, reads, ownerReads } = setup([generation('active', 10)], connected('u2'));
    source.fire('waiting');
    source.fire('active');
    source.fire('progress', 'speech_1', 40);
    await relay.stop();
    expect([reads(), ownerReads(), emitted.length]).toEqual([0, 1, 0]);
  });

  it('reads the job afresh for an owner who connects mid-run', async () => {
    const uids: string[] = ['u2'];
    const audience: RelayAudience = { any: () => true, has: (uid) => uids.includes(uid) };
    const { source, emitted, relay, reads } = setup([generation('active', 50)], audience);
    source.fire('active');
    source.fire('progress', 'speech_1', 30);
    await new Promise((resolve) => setTimeout(resolve, 10));
    uids.push('u1');
    source.fire('progress', 'speech_1', 50);
    await relay.stop();
    expect(reads()).toBe(1);
    expect(emitted.map(({ generation: update }) => update.progress)).toEqual([50]);
  });

  it('sends a cancel only where its owner is connected', async () => {
    const { source, emitted, relay } = setup([], connected('u1'));
    const canceled = { ...generation('canceled', 0), error: { code: 'CANCELED' as const, message: 'Canceled.' } };
    source.cancelListeners.forEach((listener) =>
      listener('speech', { jobId: 'speech_1', uid: 'u9', generation: JSON.stringify(canceled) }, `${Date.now()}-0`),
    );
    await relay.stop();
    expect(emitted).toEqual([]);
  });
});

describe('GenerationRelay: queue positions', () => {
  it('re-sends the position of the next waiting jobs once when the queue moves, and only to jobs still waiting', async () => {
    const source = new FakeSource();
    const emitted: Generation[] = [];
    let headReads = 0;
    const states: Record<string, Generation> = {
      speech_1: generation('active', 5),
      speech_2: { ...generation('queued', 0), id: 'speech_2', queue: { position: 1, etaMs: 900 } },
    };
    const relay = new GenerationRelay({
      source,
      load: async (_kind, id) => ({ uid: 'u1', generation: { ...states[id]! } }),
      ownerOf: async () => 'u1',
      audience: connected('u1'),
      emit: (_uid, update) => emitted.push(update),
      waitingHead: async () => {
        headReads += 1;
        return ['speech_1', 'speech_2'];
      },
      log: { warn: () => undefined },
    });
    relay.start();
    source.fire('active', 'speech_1');
    source.fire('progress', 'speech_1');
    source.fire('active', 'speech_1');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await relay.stop();
    expect(headReads).toBe(1);
    const positions = emitted.filter((update) => update.id === 'speech_2');
    expect(positions).toEqual([states.speech_2]);
  });
});
