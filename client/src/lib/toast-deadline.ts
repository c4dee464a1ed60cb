import { TOAST_DURATION_MS } from '@mediagen/shared';

/**
 * Sonner pauses a toast's clock while its list is expanded or pressed, and both can latch on with nobody
 * there: `expanded` is set by a pointer move (also the one Chrome fakes when a toast appears under a still
 * pointer) or the Alt+T hotkey and cleared only by a pointer leaving, and `interacting` by a press that must
 * be released on the list. A latched toast would then stay up for good. So every toast also has a deadline
 * of its own: its time plus a moment, after which it goes unless the pointer is on the toasts or focus is
 * in them (someone reading), or the page is hidden (nobody has seen it yet), in which case it is asked again.
 */
const GRACE_MS = 1000;
const ASK_AGAIN_MS = 1000;

const deadlines = new Map<string | number, ReturnType<typeof setTimeout>>();

/** Dismisses the toast `id` once its `durationMs` is well over and nobody is reading it. */
export function setToastDeadline(
  id: string | number,
  dismiss: (id: string | number) => void,
  durationMs: number = TOAST_DURATION_MS,
): void {
  clearToastDeadline(id);
  const check = () => {
    if (someoneIsReadingToasts()) {
      deadlines.set(id, setTimeout(check, ASK_AGAIN_MS));
      return;
    }
    deadlines.delete(id);
    dismiss(id);
  };
  deadlines.set(id, setTimeout(check, durationMs + GRACE_MS));
}

/** The toast was dismissed, or became one without a time (loading). */
export function clearToastDeadline(id: string | number): void {
  clearTimeout(deadlines.get(id));
  deadlines.delete(id);
}

function someoneIsReadingToasts(): boolean {
  if (document.hidden) return true;
  return [...document.querySelectorAll('[data-sonner-toaster]')].some(
    (toaster) => toaster.matches(':hover') || toaster.contains(document.activeElement),
  );
}

/** Every deadline, when the document that shows the toasts goes away (the end of a test's page). */
export function clearAllToastDeadlines(): void {
  for (const id of [...deadlines.keys()]) clearToastDeadline(id);
}
