import {
  GENERATION_KINDS,
  GENERATION_STATUSES,
  MAX_SEARCH_LENGTH,
  type GenerationKind,
  type GenerationStatus,
} from '@mediagen/shared';
import { useEffect, useState } from 'react';
import { KIND_TEXTS } from '../../kind-texts';
import type { LibraryFilters } from '../api/library-api';
import { STATUS_LABELS } from './StatusBadge';

/** Typing pauses this long before the search is sent. */
const SEARCH_DELAY_MS = 300;

interface LibraryFilterBarProps {
  filters: LibraryFilters;
  onChange: (filters: LibraryFilters) => void;
}

export function LibraryFilterBar({ filters, onChange }: LibraryFilterBarProps) {
  const [search, setSearch] = useState(filters.q ?? '');

  useEffect(() => {
    const wanted = search.trim() === '' ? undefined : search.trim();
    if (wanted === filters.q) return;
    const timer = setTimeout(() => onChange({ ...filters, q: wanted }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filters, onChange]);

  return (
    <form
      role="search"
      aria-label="Filter your library"
      className="grid gap-3 sm:grid-cols-[1fr_auto_auto]"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...filters, q: search.trim() === '' ? undefined : search.trim() });
      }}
    >
      <div>
        <label htmlFor="library-search" className="field-label">
          Search prompts
        </label>
        <input
          id="library-search"
          type="search"
          className="field"
          placeholder="e.g. lighthouse"
          maxLength={MAX_SEARCH_LENGTH}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <div>
        <label htmlFor="library-kind" className="field-label">
          Type
        </label>
        <select
          id="library-kind"
          className="field"
          value={filters.kind ?? ''}
          onChange={(event) =>
            onChange({
              ...filters,
              kind: event.target.value === '' ? undefined : (event.target.value as GenerationKind),
            })
          }
        >
          <option value="">All types</option>
          {GENERATION_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_TEXTS[kind].label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="library-status" className="field-label">
          Status
        </label>
        <select
          id="library-status"
          className="field"
          value={filters.status ?? ''}
          onChange={(event) =>
            onChange({
              ...filters,
              status: event.target.value === '' ? undefined : (event.target.value as GenerationStatus),
            })
          }
        >
          <option value="">Any status</option>
          {GENERATION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
