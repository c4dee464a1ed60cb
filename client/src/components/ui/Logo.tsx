import { Link } from 'react-router-dom';

/** `compact`: the mark alone below the sm breakpoint, where the signed-in top bar needs the room. */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Link
      to="/"
      className="flex items-center gap-2 rounded-lg font-extrabold tracking-tight"
      aria-label="MediaGen home"
    >
      <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
      <span className={`text-lg text-slate-900 dark:text-white ${compact ? 'hidden sm:inline' : ''}`}>
        Media<span className="text-gradient">Gen</span>
      </span>
    </Link>
  );
}
