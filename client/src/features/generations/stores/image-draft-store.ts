import type { ImageDetails } from '@mediagen/shared';
import { create } from 'zustand';

/**
 * A prompt, the settings an image was made with and the seed of the picture chosen, for the image panel
 * to open with: "same seed again" from the library. The panel reads the settings for the creator's plan.
 */
export interface ImageDraft {
  prompt: string;
  image: ImageDetails;
  seed: number;
}

interface ImageDraftState {
  draft: ImageDraft | null;
  prefill: (draft: ImageDraft) => void;
  /** The draft, once: the panel fills itself with it and it is gone. */
  take: () => ImageDraft | null;
}

/** UI state only, handed from the library to the dashboard's image panel; nothing is sent until Generate. */
export const useImageDraftStore = create<ImageDraftState>()((set, get) => ({
  draft: null,
  prefill: (draft) => set({ draft }),
  take: () => {
    const { draft } = get();
    if (draft !== null) set({ draft: null });
    return draft;
  },
}));
