import { Link } from 'react-router-dom';
import { useMemo } from 'react';
import { useGenerationsStore } from '../../stores/generations-store';
import { KIND_TEXTS } from '../../kind-texts';
import { newestFirst } from '../library-order';
import { StatusBadge } from './StatusBadge';

const STRIP_SIZE = 6;

/** The dashboard's glance at recent work, under the generator panels, with the way to the whole library. */
export function LibraryStrip() {
  const byId = useGenerationsStore((state) => state.byId);
  const recent = useMemo(() => Object.values(byId).sort(newestFirst).slice(0, STRIP_SIZE), [byId]);
  if (recent.length === 0) return null;
  return (
    <section aria-labelledby="recent-heading" className="mt-10">
      <div className="mb-3 flex items-baseline justify-between gap-4">
        <h2 id="recent-heading" className="text-lg font-bold text-slate-900 dark:text-white">
          Recent
        </h2>
        <Link to="/library" className="text-sm font-semibold text-violet-700 hover:underline dark:text-violet-300">
          Open your library →
        </Link>
      </div>
      <ul className="flex gap-3 overflow-x-auto pb-2">
        {recent.map((generation) => (
          <li key={generation.id} className="card grid w-44 shrink-0 gap-2 p-2.5">
            {generation.kind === 'image' && generation.result !== undefined ? (
              <img
                src={generation.result.url}
                alt={generation.prompt}
                loading="lazy"
                className="aspect-square w-full rounded-lg object-cover"
              />
            ) : (
              <span className="grid aspect-square place-items-center rounded-lg bg-slate-100 text-sm font-semibold text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                {KIND_TEXTS[generation.kind].label}
              </span>
            )}
            <span className="justify-self-start">
              <StatusBadge status={generation.status} />
            </span>
            <p className="truncate text-xs text-slate-700 dark:text-slate-200" title={generation.prompt}>
              {generation.prompt}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
