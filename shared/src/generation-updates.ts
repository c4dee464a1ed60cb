import type { Generation } from './contract';

/**
 * The contract's rule for folding a `generation:update` (or a list item, or a 202 answer) into what a
 * client holds, whatever order they arrive in: a newer `version` (a new state) wins; at the same version
 * only progress and queue position refresh, and progress never goes back. Returns `held` itself when the
 * update brings nothing newer, so a store can skip a render.
 */
export function mergeGenerationUpdate(held: Generation | undefined, update: Generation): Generation {
  if (held === undefined || update.version > held.version) return update;
  if (update.version < held.version || update.progress < held.progress) return held;
  return update;
}
