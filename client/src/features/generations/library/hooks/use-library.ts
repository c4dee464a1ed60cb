import type { Generation } from '@mediagen/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/api-client';
import { useGenerationsStore } from '../../stores/generations-store';
import { listGenerations, type LibraryFilters } from '../api/library-api';
import { libraryItems } from '../library-order';

const PAGE_SIZE = 24;

export interface Library {
  items: Generation[];
  /** The first page is on its way (nothing to show yet). */
  loading: boolean;
  /** A later page is on its way. */
  loadingMore: boolean;
  error: string | null;
  hasMore: boolean;
  loadMore: () => void;
  retry: () => void;
}

interface Pages {
  ids: string[];
  nextCursor: string | null;
  /** Nothing read yet for these filters. */
  started: boolean;
  inFlight: boolean;
  error: string | null;
  loadedSince: number;
}

const FIRST_PAGE: Omit<Pages, 'loadedSince'> = {
  ids: [],
  nextCursor: null,
  started: false,
  inFlight: false,
  error: null,
};

/**
 * The signed-in user's generations a page at a time (the API's cursor), for the given filters. Pages go
 * into the generations store, so the socket keeps every item live; those made since the first page
 * appear on top, and deleted ones go.
 */
export function useLibrary(filters: LibraryFilters, enabled: boolean): Library {
  const byId = useGenerationsStore((state) => state.byId);
  const [pages, setPages] = useState<Pages>(() => ({ ...FIRST_PAGE, loadedSince: Date.now() }));
  const filtersKey = JSON.stringify(filters);
  // The filters a page was asked for: an answer for filters no longer shown is dropped.
  const currentKey = useRef(filtersKey);

  const fetchPage = useCallback((cursor: string | null) => {
    const key = currentKey.current;
    setPages((state) => ({ ...state, inFlight: true, error: null }));
    listGenerations(JSON.parse(key) as LibraryFilters, cursor, PAGE_SIZE).then(
      (page) => {
        if (currentKey.current !== key) return;
        useGenerationsStore.getState().loaded(page.items);
        setPages((state) => ({
          ...state,
          ids: [...state.ids, ...page.items.map((item) => item.id).filter((id) => !state.ids.includes(id))],
          nextCursor: page.nextCursor,
          started: true,
          inFlight: false,
        }));
      },
      (error: unknown) => {
        if (currentKey.current !== key) return;
        const message = error instanceof ApiRequestError ? error.message : 'Could not load your library.';
        setPages((state) => ({ ...state, inFlight: false, error: message }));
      },
    );
  }, []);

  useEffect(() => {
    if (!enabled) return;
    currentKey.current = filtersKey;
    setPages({ ...FIRST_PAGE, loadedSince: Date.now() });
    fetchPage(null);
  }, [enabled, filtersKey, fetchPage]);

  const items = useMemo(
    () => libraryItems(pages.ids, byId, JSON.parse(filtersKey) as LibraryFilters, pages.loadedSince),
    [pages.ids, pages.loadedSince, byId, filtersKey],
  );
  const hasMore = pages.nextCursor !== null;
  const loadMore = useCallback(() => {
    if (!pages.inFlight && pages.nextCursor !== null && pages.error === null) fetchPage(pages.nextCursor);
  }, [pages.inFlight, pages.nextCursor, pages.error, fetchPage]);
  const retry = useCallback(() => fetchPage(pages.started ? pages.nextCursor : null), [fetchPage, pages]);

  return {
    items,
    loading: !pages.started && pages.error === null,
    loadingMore: pages.started && pages.inFlight,
    error: pages.error,
    hasMore,
    loadMore,
    retry,
  };
}
