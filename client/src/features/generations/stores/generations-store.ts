import type { Generation, GenerationKind } from '@mediagen/shared';
import { create } from 'zustand';
import {
  applyDismissed,
  applyLoaded,
  applyRemoved,
  applyResync,
  applyStarted,
  applyUpdate,
  EMPTY_GENERATIONS,
  type GenerationsState,
} from './generation-reducer';

interface GenerationsActions {
  received: (update: Generation) => void;
  started: (generation: Generation) => void;
  resynced: (items: readonly Generation[]) => void;
  loaded: (items: readonly Generation[]) => void;
  removed: (id: string) => void;
  dismissed: (kind: GenerationKind) => void;
  cleared: () => void;
}

/**
 * Live state of the user's generations as the socket and the API report it. Not persisted: the
 * server owns it, and a reload resyncs from GET /api/generations.
 */
export const useGenerationsStore = create<GenerationsState & GenerationsActions>()((set) => ({
  ...EMPTY_GENERATIONS,
  received: (update) => set((state) => applyUpdate(state, update)),
  started: (generation) => set((state) => applyStarted(state, generation)),
  resynced: (items) => set((state) => applyResync(state, items)),
  loaded: (items) => set((state) => applyLoaded(state, items)),
  removed: (id) => set((state) => applyRemoved(state, id)),
  dismissed: (kind) => set((state) => applyDismissed(state, kind)),
  cleared: () => set(EMPTY_GENERATIONS),
}));

export function useCurrentGeneration(kind: GenerationKind): Generation | undefined {
  return useGenerationsStore((state) => {
    const id = state.currentIdByKind[kind];
    return id === undefined ? undefined : state.byId[id];
  });
}
