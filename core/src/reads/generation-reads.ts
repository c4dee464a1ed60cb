import type { Kysely } from 'kysely';
import type { GenerationKind } from '@mediagen/shared';
import type { Database } from '../db/schema';
import type { GenerationRecord } from '../lifecycle/generation-record';
import { artifactOwnership, type ArtifactOwnership } from './artifact-reads';
import { generationById } from './generation-by-id';
import { historyPage, ownGeneration, type HistoryQuery, type HistoryRows } from './history-reads';
import { changedSince, queuedForOwners, submittedRequest, type SubmittedRequest } from './live-update-reads';
import { byProviderTask, failedOldestFirst, latestOf } from './operator-reads';
import { placesInLine, waitingToAge, type AgingCandidates, type PlaceInLine } from './queue-line-reads';
import {
  inFlightOf,
  unfinishedCounts,
  untouchedUnfinished,
  type UnfinishedStatus,
  type UntouchedGeneration,
} from './unfinished-reads';

/**
 * The record's reads for the apps (docs/ARCHITECTURE.md, "Reading the record"): every query `server/`,
 * `worker/` and `ops/` make of the record's tables is one of these, named after what it is for, so an
 * index or a column change has one place to look. A lint rule (eslint-rules/record-queries-in-core.js)
 * refuses queries of those tables anywhere else outside core. Changes go through GenerationLifecycle.
 */
export class GenerationReads {
  constructor(private readonly db: Kysely<Database>) {}

  /** One generation, whoever owns it (generation-by-id.ts). */
  generation(id: string): Promise<GenerationRecord | null> {
    return generationById(this.db, id);
  }

  /** The user's own generation; someone else's reads like a missing one (history-reads.ts, as is the next). */
  ownGeneration(uid: string, id: string): Promise<GenerationRecord | null> {
    return ownGeneration(this.db, uid, id);
  }

  historyPage(uid: string, query: HistoryQuery): Promise<HistoryRows> {
    return historyPage(this.db, uid, query);
  }

  /** What a generation asked for, for the relay to rebuild its submission (live-update-reads.ts, and the next two). */
  submittedRequest(id: string): Promise<SubmittedRequest | null> {
    return submittedRequest(this.db, id);
  }

  queuedForOwners(kind: GenerationKind, uids: readonly string[], limit: number): Promise<GenerationRecord[]> {
    return queuedForOwners(this.db, kind, uids, limit);
  }

  changedSince(since: Date, uids: readonly string[]): Promise<GenerationRecord[]> {
    return changedSince(this.db, since, uids);
  }

  /** Places in line of the queued ones of `ids` (queue-line-reads.ts, as is the next). */
  placesInLine(ids: readonly string[]): Promise<PlaceInLine[]> {
    return placesInLine(this.db, ids);
  }

  waitingToAge(
    candidates: AgingCandidates,
  ): Promise<{ id: string; kind: GenerationKind; traceParent: string | null }[]> {
    return waitingToAge(this.db, candidates);
  }

  /** For the reconciler (unfinished-reads.ts, as are the next two). */
  untouchedUnfinished(before: Date, limit: number): Promise<UntouchedGeneration[]> {
    return untouchedUnfinished(this.db, before, limit);
  }

  unfinishedCounts(): Promise<{ kind: GenerationKind; status: UnfinishedStatus; count: number }[]> {
    return unfinishedCounts(this.db);
  }

  inFlightOf(uid: string): Promise<{ id: string; kind: GenerationKind; status: UnfinishedStatus }[]> {
    return inFlightOf(this.db, uid);
  }

  /** For `pnpm queues find` and `retry-failed` (operator-reads.ts, as are the next two). */
  latestOf(uid: string, limit: number): Promise<GenerationRecord[]> {
    return latestOf(this.db, uid, limit);
  }

  byProviderTask(taskId: string): Promise<GenerationRecord[]> {
    return byProviderTask(this.db, taskId);
  }

  failedOldestFirst(
    kinds: readonly GenerationKind[],
    limit: number,
  ): Promise<{ id: string; kind: GenerationKind; uid: string }[]> {
    return failedOldestFirst(this.db, kinds, limit);
  }

  /** Which file a result's link serves (artifact-reads.ts). */
  artifactOwnership(id: string): Promise<ArtifactOwnership | null> {
    return artifactOwnership(this.db, id);
  }
}
