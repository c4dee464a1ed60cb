import { useLiveConnectionStore } from '../stores/live-connection-store';

/**
 * Says that live updates dropped, until they are back and the page has caught up. The status region is
 * always there, empty while live, so a screen reader announces the words when they appear. It sits
 * low on the screen (above the phone's bottom bar), clear of the toasts and menus at the top.
 */
export function LiveUpdatesNotice() {
  const reconnecting = useLiveConnectionStore((state) => state.connection === 'reconnecting');
  return (
    <div
      role="status"
      className="pointer-events-none fixed inset-x-0 bottom-24 z-30 flex justify-center px-4 md:bottom-6"
    >
      {reconnecting && (
        <p className="flex max-w-full items-center gap-2 rounded-full border border-amber-300 bg-amber-50 px-4 py-2 text-sm font-medium text-amber-900 shadow-lg dark:border-amber-400/40 dark:bg-slate-900 dark:text-amber-200">
          <span
            className="size-3.5 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none"
            aria-hidden="true"
          />
          Live updates dropped. Reconnecting…
        </p>
      )}
    </div>
  );
}
