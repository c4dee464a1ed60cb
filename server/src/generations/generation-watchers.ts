import { isFinalStatus, mergeGenerationUpdate, type Generation } from '@mediagen/shared';
import type { RelayAudience } from '../socket/generation-relay';

/** Why following a generation stopped before its final state. */
export type FollowEnd = 'removed' | 'closed';

interface Watch {
  update(generation: Generation): void;
  end(reason: FollowEnd): void;
}

/**
 * Who on this server instance follows one generation outside Socket.IO: an event stream
 * (GET /api/generations/:id/events) or a submission waiting under `Prefer: wait`. The relay that feeds the
 * sockets feeds these too (it counts their owners as connected here), so both see the same updates, in
 * the same order, from the same announcements.
 */
export class GenerationWatchers implements RelayAudience {
  private readonly byUser = new Map<string, Map<string, Set<Watch>>>();

  has(uid: string): boolean {
    return this.byUser.has(uid);
  }

  uids(): string[] {
    return [...this.byUser.keys()];
  }

  /** An update the relay tells the owner. */
  deliver(uid: string, generation: Generation): void {
    for (const watch of [...(this.byUser.get(uid)?.get(generation.id) ?? [])]) watch.update(generation);
  }

  /** The generation was deleted. */
  removed(uid: string, id: string): void {
    for (const watch of [...(this.byUser.get(uid)?.get(id) ?? [])]) watch.end('removed');
  }

  /** The owner's account was closed. */
  endUser(uid: string): void {
    for (const watches of [...(this.byUser.get(uid)?.values() ?? [])])
      for (const watch of [...watches]) watch.end('closed');
  }

  /** The server is closing: open streams would keep it from closing. */
  endAll(): void {
    for (const uid of this.uids()) this.endUser(uid);
  }

  /**
   * Follows a generation from `current` (read after watching began, so no update falls between) to its
   * final state. `changed` hears each state that differs from the one before, by the contract's update
   * rule, the first one included; `first` is that read (rejecting as it did: then nothing is followed);
   * `done` resolves with the final state, or why it will never come.
   */
  follow(
    uid: string,
    id: string,
    current: () => Promise<Generation>,
    changed: (generation: Generation) => void = () => undefined,
  ): { first: Promise<Generation>; done: Promise<Generation | FollowEnd>; stop(): void } {
    let held: Generation | undefined;
    let settle: (outcome: Generation | FollowEnd) => void = () => undefined;
    const done = new Promise<Generation | FollowEnd>((resolve) => (settle = resolve));
    const watch: Watch = {
      update: (generation) => {
        const merged = mergeGenerationUpdate(held, generation);
        // The same state again (a queue refresh that moved nothing) is not news.
        if (merged === held || JSON.stringify(merged) === JSON.stringify(held)) return;
        held = merged;
        changed(merged);
        if (isFinalStatus(merged.status)) finish(merged);
      },
      end: (reason) => finish(reason),
    };
    const finish = (outcome: Generation | FollowEnd) => {
      this.unwatch(uid, id, watch);
      settle(outcome);
    };
    this.watch(uid, id, watch);
    const first = current();
    first.then(watch.update, () => finish('closed'));
    return { first, done, stop: () => finish('closed') };
  }

  private watch(uid: string, id: string, watch: Watch): void {
    const generations = this.byUser.get(uid) ?? new Map<string, Set<Watch>>();
    this.byUser.set(uid, generations);
    const watches = generations.get(id) ?? new Set<Watch>();
    generations.set(id, watches);
    watches.add(watch);
  }

  private unwatch(uid: string, id: string, watch: Watch): void {
    const generations = this.byUser.get(uid);
    const watches = generations?.get(id);
    if (generations === undefined || watches === undefined) return;
    watches.delete(watch);
    if (watches.size === 0) generations.delete(id);
    if (generations.size === 0) this.byUser.delete(uid);
  }
}
