import {
  GENERATION_KINDS,
  isFinalStatus,
  mergeGenerationUpdate,
  type Generation,
  type GenerationKind,
} from '@mediagen/shared';

export interface GenerationsState {
  byId: Record<string, Generation>;
  /** The generation each panel shows: the one started here, or one resumed after a reload. */
  currentIdByKind: Partial<Record<GenerationKind, string>>;
  /** Generations whose panel was reset; a resync must not bring them back. */
  dismissedIds: Record<string, true>;
}

export const EMPTY_GENERATIONS: GenerationsState = { byId: {}, currentIdByKind: {}, dismissedIds: {} };

/**
 * Folds one update into what is held. Events arrive in any order (socket, POST answer, resync), so the
 * contract's version rule decides (mergeGenerationUpdate).
 */
export function applyUpdate(state: GenerationsState, update: Generation): GenerationsState {
  const held = state.byId[update.id];
  const merged = mergeGenerationUpdate(held, update);
  if (merged === held) return state;
  return { ...state, byId: { ...state.byId, [update.id]: merged } };
}

/** A generation this tab just started becomes its panel's current one. */
export function applyStarted(state: GenerationsState, started: Generation): GenerationsState {
  const next = applyUpdate(state, started);
  return { ...next, currentIdByKind: { ...next.currentIdByKind, [started.kind]: started.id } };
}

/**
 * After a load or reconnect: refresh what is held, and per kind follow the newest generation if it
 * is still running (a reload mid-job resumes it) or newer than the one shown (it started elsewhere).
 */
export function applyResync(state: GenerationsState, items: readonly Generation[]): GenerationsState {
  let next = items.reduce(applyUpdate, state);
  for (const kind of GENERATION_KINDS) {
    const newest = newestOfKind(items, kind, next.dismissedIds);
    if (newest === undefined) continue;
    const currentId = next.currentIdByKind[kind];
    const current = currentId === undefined ? undefined : next.byId[currentId];
    const follow =
      current === undefined
        ? !isFinalStatus(newest.status)
        : Date.parse(newest.createdAt) > Date.parse(current.createdAt);
    if (follow) next = { ...next, currentIdByKind: { ...next.currentIdByKind, [kind]: newest.id } };
  }
  return next;
}

/** Pages read by the library: what they hold is folded in by the version rule, panels stay as they are. */
export function applyLoaded(state: GenerationsState, items: readonly Generation[]): GenerationsState {
  return items.reduce(applyUpdate, state);
}

/** A generation its owner deleted (here, in another tab or on another device) is forgotten everywhere. */
export function applyRemoved(state: GenerationsState, id: string): GenerationsState {
  const held = state.byId[id];
  if (held === undefined) return state;
  const { [id]: _removed, ...byId } = state.byId;
  const currentIdByKind =
    state.currentIdByKind[held.kind] === id
      ? Object.fromEntries(Object.entries(state.currentIdByKind).filter(([kind]) => kind !== held.kind))
      : state.currentIdByKind;
  return { ...state, byId, currentIdByKind };
}

export function applyDismissed(state: GenerationsState, kind: GenerationKind): GenerationsState {
  const currentId = state.currentIdByKind[kind];
  if (currentId === undefined) return state;
  const { [kind]: _dismissed, ...remaining } = state.currentIdByKind;
  return { ...state, currentIdByKind: remaining, dismissedIds: { ...state.dismissedIds, [currentId]: true } };
}

function newestOfKind(
  items: readonly Generation[],
  kind: GenerationKind,
  dismissedIds: GenerationsState['dismissedIds'],
): Generation | undefined {
  return items
    .filter((item) => item.kind === kind && !dismissedIds[item.id])
    .reduce<Generation | undefined>(
      (newest, item) =>
        newest === undefined || Date.parse(item.createdAt) > Date.parse(newest.createdAt) ? item : newest,
      undefined,
    );
}
