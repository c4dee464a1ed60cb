import { describe, expect, it } from 'vitest';
import type { Generation, GenerationKind } from '@mediagen/shared';
import type { CanceledStreamEvent, GenerationEventSource, QueueEventName } from '../src/queue/generation-queues';
import { GenerationRelay } from '../src/socket/generation-relay';

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

function setup(states: Generation[]) {
  const source = new FakeSource();
  const emitted: { uid: string; generation: Generation }[] = [];
  let reads = 0;
  const relay = new GenerationRelay({
    source,
    load: async () => {
      const next = states[Math.min(reads++, states.length - 1)];
      return next === undefined ? null : { uid: 'u1', generation: { ...next } };
    },
    emit: (uid, update) => emitted.push({ uid, generation: update }),
    log: { warn: () => undefined },
  });
  relay.start();
  return { source, emitted, relay, reads: () => reads };
}

describe('GenerationRelay', () => {
  it('emits each update to the owner, in the order the events came', async () => {
    const { source, emitted, relay } = setup([
      generation('queued', 0),
      generation('active', 10),
      generation('completed', 100),
    ]);
    source.fire('waiting');
    source.fire('active');
    source.fire('completed');
    await relay.stop();
    expect(emitted.map(({ uid, generation: update }) => `${uid}:${update.status}:${update.progress}`)).toEqual([
      'u1:queued:0',
      'u1:active:10',
      'u1:completed:100',
    ]);
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

describe('GenerationRelay: ends and queue positions', () => {
  it('reports each end it sees, so the in-flight slot is freed', async () => {
    const source = new FakeSource();
    const finished: string[] = [];
    const relay = new GenerationRelay({
      source,
      load: async () => ({ uid: 'u1', generation: generation('completed', 100) }),
      emit: () => undefined,
      onFinished: (uid, update) => void finished.push(`${uid}:${update.id}:${update.status}`),
      log: { warn: () => undefined },
    });
    relay.start();
    source.fire('completed');
    await relay.stop();
    expect(finished).toEqual(['u1:speech_1:completed']);
  });

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
