import { Link } from 'react-router-dom';

/** The mark and the name; the mark alone below the sm breakpoint, where the top bar's two buttons need the room. */
export function Logo() {
  return (
    <Link
      to="/"
      className="flex items-center gap-2 rounded-lg font-extrabold tracking-tight"
      aria-label="MediaGen home"
    >
      <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
      <span className="hidden text-lg text-slate-900 sm:inline dark:text-white">
        Media<span className="text-gradient">Gen</span>
      </span>
    </Link>
  );
}
