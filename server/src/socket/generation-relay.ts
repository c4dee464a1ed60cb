import { LRUCache } from 'lru-cache';
import {
  SPAN_ATTRIBUTES,
  inSpan,
  type GenerationEvent,
  type ProgressEvent,
  generationView,
  type GenerationState,
  type Submission,
} from '@mediagen/core';
import {
  MAX_PROGRESS_BEFORE_COMPLETION,
  isFinalStatus,
  type Generation,
  type GenerationKind,
  type QueuePosition,
} from '@mediagen/shared';

const MAX_TRACKED = 10_000;
/** Queue moves within this window are answered with one round of position updates per kind. */
const POSITION_REFRESH_DELAY_MS = 200;

export interface RelayLogger {
  warn(details: object, message: string): void;
}

/** Who is connected to this server instance. */
export interface RelayAudience {
  /** Whether the user has a socket connected here. */
  has(uid: string): boolean;
  /** Every user with a socket here. */
  uids(): string[];
}

/** What the relay reads from the record; only ever for owners connected here. */
export interface RelaySource {
  /** What a generation was asked for (fixed at submit); null when it no longer exists. */
  submission(id: string): Promise<Submission | null>;
  /** A generation's state now, for progress heard before any transition was told here. */
  state(id: string): Promise<(GenerationState & { uid: string; submission: Submission }) | null>;
  /** Queued generations of a kind owned by these users, with their places in line. */
  queued(
    kind: GenerationKind,
    uids: readonly string[],
  ): Promise<{ state: GenerationState & { uid: string; submission: Submission }; queue: QueuePosition }[]>;
  /** Generations of these users changed since a moment, to replay what a lost connection missed. */
  changedSince(since: Date, uids: readonly string[]): Promise<(GenerationState & { uid: string })[]>;
  /** The place in line of a queued generation; null when it is no longer queued. */
  queuePosition(id: string): Promise<QueuePosition | null>;
}

export interface RelayOptions {
  audience: RelayAudience;
  source: RelaySource;
  artifactUrl(key: string): string;
  emit(uid: string, generation: Generation, lagFromMs: number): void;
  /** Tells the owner's sockets here that a generation of theirs was deleted. */
  emitRemoved(uid: string, id: string): void;
  log: RelayLogger;
}

/**
 * Turns the lifecycle's announcements and the workers' progress into `generation:update` events for
 * owners connected to this instance; everyone else's are dropped unread. It only filters by owner, adds
 * what was asked for (the prompt and settings, read once per generation) and the signed artifact URL, and emits: the state itself comes
 * whole from the announcement, with its version. Per generation, updates go out in order, each version
 * once; progress rides on the version it belongs to and only rises.
 */
export class GenerationRelay {
  /** What each owner here was last told, per generation. */
  private readonly told = new LRUCache<string, { uid: string; generation: Generation }>({ max: MAX_TRACKED });
  private readonly submissions = new LRUCache<string, Submission>({ max: MAX_TRACKED });
  private readonly pending = new Map<string, Promise<void>>();
  private readonly positionRefreshes = new Map<GenerationKind, NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: RelayOptions) {}

  transition(event: GenerationEvent): void {
    if (event.status !== 'queued' || event.removed) this.schedulePositionRefresh(event.kind);
    if (!this.options.audience.has(event.uid)) return;
    if (event.removed) {
      this.sequence(event.id, async () => {
        this.told.delete(event.id);
        this.submissions.delete(event.id);
        this.options.emitRemoved(event.uid, event.id);
      });
      return;
    }
    const tell = () => this.tell(event.uid, event, Date.parse(event.updatedAt));
    // The final state's emit closes the generation's trace: one span, in the submission's trace (progress and
    // the states before it are many and say nothing a trace needs).
    if (!isFinalStatus(event.status) || event.traceParent === null) {
      this.sequence(event.id, tell);
      return;
    }
    const attributes = {
      [SPAN_ATTRIBUTES.generationId]: event.id,
      [SPAN_ATTRIBUTES.status]: event.status,
      'mediagen.generation.version': event.version,
    };
    this.sequence(event.id, () => inSpan('emit generation:update', { parent: event.traceParent, attributes }, tell));
  }

  progress(event: ProgressEvent): void {
    if (!this.options.audience.has(event.uid)) return;
    this.sequence(event.id, async () => {
      const told = this.told.get(event.id);
      if (told === undefined) {
        // Progress of a generation this instance has told nothing of yet: its state comes from the record.
        const state = await this.options.source.state(event.id);
        if (state === null || state.status !== 'active' || state.version !== event.version) return;
        this.submissions.set(event.id, state.submission);
        this.send(
          state.uid,
          generationView(state, state.submission, this.options.artifactUrl, { progress: event.progress }),
          event.at,
        );
        return;
      }
      const { generation } = told;
      const progress = Math.min(MAX_PROGRESS_BEFORE_COMPLETION, Math.round(event.progress));
      if (generation.status !== 'active' || event.version !== generation.version || progress <= generation.progress)
        return;
      this.send(told.uid, { ...generation, progress }, event.at);
    });
  }

  /** After a lost update stream: the record's state of everyone connected here, changed since `since`. */
  async replay(since: Date): Promise<void> {
    const uids = this.options.audience.uids();
    if (uids.length === 0) return;
    const changed = await this.options.source.changedSince(since, uids);
    for (const state of changed) {
      this.sequence(state.id, () => this.tell(state.uid, state, Date.now()));
    }
  }

  private async tell(uid: string, state: GenerationState, lagFromMs: number): Promise<void> {
    const told = this.told.get(state.id)?.generation;
    if (told !== undefined && told.version >= state.version) return;
    let submission = this.submissions.get(state.id);
    if (submission === undefined) {
      const read = await this.options.source.submission(state.id);
      if (read === null) return;
      submission = read;
      this.submissions.set(state.id, submission);
    }
    const queue = state.status === 'queued' ? await this.options.source.queuePosition(state.id) : null;
    this.send(
      uid,
      generationView(state, submission, this.options.artifactUrl, {
        // A new version of a running generation keeps the progress its owner has seen.
        progress: told?.status === 'active' && state.status === 'active' ? told.progress : undefined,
        queue: queue ?? undefined,
      }),
      lagFromMs,
    );
  }

  private send(uid: string, generation: Generation, lagFromMs: number): void {
    this.told.set(generation.id, { uid, generation });
    this.options.emit(uid, generation, lagFromMs);
  }

  /**
   * A generation left its queue: the queued ones of that kind moved up. Their owners connected here hear
   * their new place (same version: a place in line is not a transition). Moves close together share one
   * round.
   */
  private schedulePositionRefresh(kind: GenerationKind): void {
    if (this.stopped || this.positionRefreshes.has(kind)) return;
    const timer = setTimeout(() => {
      this.positionRefreshes.delete(kind);
      const uids = this.options.audience.uids();
      if (this.stopped || uids.length === 0) return;
      this.options.source.queued(kind, uids).then(
        (waiting) => {
          for (const { state, queue } of waiting) {
            this.sequence(state.id, async () => {
              const told = this.told.get(state.id)?.generation;
              if (told === undefined || told.version !== state.version || told.queue?.position === queue.position)
                return;
              this.send(state.uid, { ...told, queue }, Date.now());
            });
          }
        },
        (error: unknown) => this.options.log.warn({ err: error, kind }, 'could not refresh queue positions'),
      );
    }, POSITION_REFRESH_DELAY_MS);
    this.positionRefreshes.set(kind, timer);
  }

  /** Runs `task` after the earlier ones of the same generation, so its owner hears them in order. */
  private sequence(id: string, task: () => Promise<void>): void {
    if (this.stopped) return;
    const previous = this.pending.get(id) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((error: unknown) => this.options.log.warn({ err: error, generationId: id }, 'could not relay an update'))
      .finally(() => {
        if (this.pending.get(id) === next) this.pending.delete(id);
      });
    this.pending.set(id, next);
  }

  /** Stops relaying and waits for the updates already under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.positionRefreshes.forEach((timer) => clearTimeout(timer));
    this.positionRefreshes.clear();
    await Promise.allSettled([...this.pending.values()]);
  }
}
