import { isFinalStatus, nextProgress, type Generation, type GenerationKind } from '@mediagen/shared';
import type { SubmissionObserver } from '../generations/generation-service';
import type { GenerationEventSource, QueueEventName } from '../queue/generation-queues';

const MAX_TRACKED_JOBS = 10_000;
/** How many of the next jobs of a kind hear their new place when the queue moves. */
export const POSITION_UPDATES_PER_KIND = 50;
/** Queue moves within this window are answered with one round of position updates. */
const POSITION_REFRESH_DELAY_MS = 200;
/** How long a submission's 'waiting' event waits for the submission's own state before reading the job. */
const SUBMISSION_WAIT_MS = 5000;

/** Where an update came from: the queue event behind it, for the delivery lag. */
export interface UpdateOrigin {
  kind: GenerationKind;
  event: string;
  eventId?: string | undefined;
}

export interface RelayLogger {
  warn(details: object, message: string): void;
}

/** Who is connected to this instance. */
export interface RelayAudience {
  /** Whether any socket at all is connected here. */
  any(): boolean;
  /** Whether the user has a socket connected here. */
  has(uid: string): boolean;
}

interface Options {
  source: GenerationEventSource;
  /** Reads the current state of a generation and its owner; null when the job no longer exists. */
  load(kind: GenerationKind, id: string): Promise<{ uid: string; generation: Generation } | null>;
  /** Reads only who owns a generation; null when the job no longer exists. */
  ownerOf(kind: GenerationKind, id: string): Promise<string | null>;
  audience: RelayAudience;
  emit(uid: string, generation: Generation, origin?: UpdateOrigin): void;
  /** The next jobs of a kind, first one first; with it, waiting jobs hear their position as the queue moves. */
  waitingHead?(kind: GenerationKind, count: number): Promise<string[]>;
  log: RelayLogger;
}

const QUEUE_MOVES: ReadonlySet<QueueEventName> = new Set(['active', 'completed', 'failed', 'removed']);

/**
 * Turns queue events into `generation:update` events for the owner. Each event but progress re-reads the
 * whole job, so a late or repeated event still carries the current state. Per job, events are handled in order and
 * progress never goes backwards (state is kept only until the job ends).
 *
 * Every instance hears every event, but only the one holding the owner's socket needs the job: the
 * others learn the owner once (one field read, then remembered) and drop the event without reading
 * more. An owner who connects later loses nothing: the client fetches its list on every connect.
 *
 * A generation submitted through this instance is told to its owner from the submission itself: its
 * first 'waiting' event waits for the 202's state and sends that instead of reading the job back.
 */
export class GenerationRelay implements SubmissionObserver {
  /** Per running job: what its owner last saw. Dropped when the job ends. */
  private readonly lastSent = new Map<string, { uid: string; generation: Generation; fingerprint: string }>();
  /** Job id → owner, for the jobs this instance has heard of; an owner never changes. */
  private readonly owners = new Map<string, string>();
  /** Submissions of this instance whose first 'waiting' event has not been handled yet: their state, once known. */
  private readonly submissions = new Map<string, Submission>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly detach: (() => void)[] = [];
  private readonly positionRefreshes = new Map<GenerationKind, NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: Options) {}

  start(): void {
    this.detach.push(
      this.options.source.onQueueEvent((kind, event, jobId, eventId, progress) => {
        this.enqueue(jobId, () => this.relay(kind, event, jobId, eventId, progress));
        if (QUEUE_MOVES.has(event)) this.schedulePositionRefresh(kind);
      }),
      this.options.source.onCanceled((kind, event, eventId) => {
        this.enqueue(event.jobId, async () => {
          this.forget(event.jobId);
          if (!this.options.audience.has(event.uid)) return;
          const generation = JSON.parse(event.generation) as Generation;
          this.options.emit(event.uid, generation, { kind, event: 'canceled', eventId });
        });
        this.schedulePositionRefresh(kind);
      }),
    );
  }

  /**
   * Re-sends the state (with its new `queue` position) of the next few waiting jobs of a kind. Moves
   * that come close together share one refresh, and only the first POSITION_UPDATES_PER_KIND jobs are
   * read, so a long queue costs the same as a short one.
   */
  private schedulePositionRefresh(kind: GenerationKind): void {
    const waitingHead = this.options.waitingHead;
    if (waitingHead === undefined || this.stopped || this.positionRefreshes.has(kind)) return;
    const timer = setTimeout(() => {
      this.positionRefreshes.delete(kind);
      if (this.stopped) return;
      waitingHead(kind, POSITION_UPDATES_PER_KIND).then(
        (ids) => ids.forEach((id) => this.enqueue(id, () => this.relay(kind, 'position', id, undefined))),
        (error: unknown) => this.options.log.warn({ err: error, kind }, 'could not read the waiting jobs'),
      );
    }, POSITION_REFRESH_DELAY_MS);
    this.positionRefreshes.set(kind, timer);
  }

  /**
   * The events that change only what they say, applied to what this relay last told without reading the
   * job back from Redis: progress (most of the traffic, and its event carries the new value) of a running
   * job, and the first start of a job last told as queued (a job that never started has nothing else to
   * show: no result, no error, no progress).
   */
  private fromKnownState(
    jobId: string,
    event: QueueEventName | 'position',
    reportedProgress: number | undefined,
  ): { uid: string; generation: Generation } | null {
    const known = this.lastSent.get(jobId);
    if (known === undefined) return null;
    const { uid, generation } = known;
    if (event === 'progress' && reportedProgress !== undefined && generation.status === 'active') {
      return { uid, generation: { ...generation, progress: nextProgress(0, reportedProgress) } };
    }
    if (event === 'active' && generation.status === 'queued') {
      const { queue: _position, ...started } = generation;
      return { uid, generation: { ...started, status: 'active', updatedAt: new Date().toISOString() } };
    }
    return null;
  }

  enqueuing(uid: string, id: string): void {
    this.rememberOwner(id, uid);
    this.submissions.set(id, newSubmission(uid));
    // A 'waiting' event that never came (the stream was trimmed past it) must not pile up.
    if (this.submissions.size > MAX_TRACKED_JOBS) this.submissions.delete(this.submissions.keys().next().value!);
  }

  enqueued(_uid: string, generation: Generation): void {
    this.submissions.get(generation.id)?.settle(generation);
  }

  notEnqueued(id: string): void {
    this.submissions.get(id)?.settle(null);
    this.submissions.delete(id);
    this.owners.delete(id);
  }

  /** The 202's state of a submission of this instance, when it comes in time; null otherwise. */
  private async submittedState(jobId: string): Promise<{ uid: string; generation: Generation } | null> {
    const submission = this.submissions.get(jobId)!;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SUBMISSION_WAIT_MS)));
    try {
      const generation = await Promise.race([submission.state, late]);
      return generation === null ? null : { uid: submission.uid, generation };
    } finally {
      clearTimeout(timer);
      this.submissions.delete(jobId);
    }
  }

  private rememberOwner(jobId: string, uid: string): void {
    this.owners.set(jobId, uid);
    // Jobs that end without this server hearing it (removed by retention) must not pile up.
    if (this.owners.size > MAX_TRACKED_JOBS) this.owners.delete(this.owners.keys().next().value!);
  }

  private async ownerListensHere(kind: GenerationKind, jobId: string): Promise<boolean> {
    const { audience } = this.options;
    if (!audience.any()) return false;
    let owner = this.owners.get(jobId);
    if (owner === undefined) {
      const read = await this.options.ownerOf(kind, jobId);
      if (read === null) return false;
      owner = read;
      this.rememberOwner(jobId, owner);
    }
    return audience.has(owner);
  }

  private forget(jobId: string): void {
    this.lastSent.delete(jobId);
    this.owners.delete(jobId);
    this.submissions.delete(jobId);
  }

  /** Stops listening and waits for the updates already being handled. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.detach.splice(0).forEach((off) => off());
    this.positionRefreshes.forEach((timer) => clearTimeout(timer));
    this.positionRefreshes.clear();
    // Submissions still being answered are read back instead of waited for.
    this.submissions.forEach((submission) => submission.settle(null));
    await Promise.allSettled([...this.pending.values()]);
  }

  private enqueue(jobId: string, task: () => Promise<void>): void {
    if (this.stopped) return;
    const previous = this.pending.get(jobId) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((error: unknown) =>
        this.options.log.warn({ err: error, generationId: jobId }, 'could not relay a generation update'),
      )
      .finally(() => {
        if (this.pending.get(jobId) === next) this.pending.delete(jobId);
      });
    this.pending.set(jobId, next);
  }

  private async relay(
    kind: GenerationKind,
    event: QueueEventName | 'position',
    jobId: string,
    eventId: string | undefined,
    reportedProgress?: number,
  ): Promise<void> {
    const submitted = event === 'waiting' && this.submissions.has(jobId) ? await this.submittedState(jobId) : null;
    if (event === 'removed') {
      // A canceled job's update comes with the cancel event; a removed job has nothing left to show.
      this.forget(jobId);
      return;
    }
    if (!(await this.ownerListensHere(kind, jobId))) {
      // What the owner saw is unknown from here on: the next update they hear is read afresh.
      this.lastSent.delete(jobId);
      if (event === 'completed' || event === 'failed') this.owners.delete(jobId);
      return;
    }
    const loaded =
      submitted ?? this.fromKnownState(jobId, event, reportedProgress) ?? (await this.options.load(kind, jobId));
    if (loaded === null) {
      this.forget(jobId);
      return;
    }
    const { uid, generation } = loaded;
    const origin: UpdateOrigin = { kind, event, eventId };
    if (isFinalStatus(generation.status)) {
      this.forget(jobId);
      this.options.emit(uid, generation, origin);
      return;
    }
    // A position refresh only speaks to jobs still waiting; anything else has its own events.
    if (event === 'position' && (generation.status !== 'queued' || generation.queue === undefined)) return;
    // A worker often takes a job before its 'waiting' event is read back; the owner still hears that it
    // was queued first, and the 'active' event that follows brings the current state.
    if (event === 'waiting' && generation.status === 'active' && !this.lastSent.has(jobId)) {
      generation.status = 'queued';
    }
    const last = this.lastSent.get(jobId);
    if (last !== undefined && generation.progress < last.generation.progress) {
      if (event === 'progress') return;
      generation.progress = last.generation.progress;
    }
    // A video poll alone raises four queue events (delayed, waiting, active, progress); the owner hears
    // only the ones that change what they see.
    const fingerprint = visibleState(generation);
    if (last?.fingerprint === fingerprint) return;
    this.lastSent.delete(jobId);
    this.lastSent.set(jobId, { uid, generation, fingerprint });
    // Jobs that end without this server hearing it (removed by retention) must not pile up.
    if (this.lastSent.size > MAX_TRACKED_JOBS) this.lastSent.delete(this.lastSent.keys().next().value!);
    this.options.emit(uid, generation, origin);
  }
}

/** A submission's owner, and its state as the 202 answers it (null when it was not enqueued). */
interface Submission {
  uid: string;
  state: Promise<Generation | null>;
  settle(state: Generation | null): void;
}

function newSubmission(uid: string): Submission {
  let settle!: (state: Generation | null) => void;
  const state = new Promise<Generation | null>((resolve) => (settle = resolve));
  return { uid, state, settle };
}

/** The parts of a running generation its owner can see change. */
function visibleState(generation: Generation): string {
  return `${generation.status}|${generation.progress}|${generation.queue?.position ?? ''}|${generation.queue?.etaMs ?? ''}`;
}
