const INTERACTIONS = ['pointerdown', 'keydown'] as const;

/**
 * Runs work once, at the visitor's first press of a pointer or a key: what only matters once they act
 * (the toaster) is fetched while they act, not by every visitor who only reads.
 */
export function onFirstInteraction(work: () => void): () => void {
  const stop = () => {
    for (const type of INTERACTIONS) window.removeEventListener(type, run, { capture: true });
  };
  function run() {
    stop();
    work();
  }
  for (const type of INTERACTIONS) window.addEventListener(type, run, { capture: true, passive: true });
  return stop;
}
