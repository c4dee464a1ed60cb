/**
 * Soft colour fields behind the dashboard; purely decorative. They hold still: blurred fields that drift
 * repaint the whole page on every frame for as long as the dashboard is open, which costs a laptop's
 * battery (and a headless browser a third of a core) for nothing the creator came for.
 */
export function DashboardBackground() {
  return (
    <div className="pointer-events-none fixed inset-0 -z-10 overflow-hidden" aria-hidden="true">
      <div className="absolute -top-32 -left-24 size-[28rem] rounded-full bg-violet-400/25 blur-3xl dark:bg-violet-600/20" />
      <div className="absolute top-1/3 -right-32 size-[32rem] rounded-full bg-fuchsia-400/20 blur-3xl dark:bg-fuchsia-600/15" />
      <div className="absolute -bottom-40 left-1/4 size-[26rem] rounded-full bg-sky-300/20 blur-3xl dark:bg-indigo-600/15" />
      <div className="absolute inset-0 bg-[radial-gradient(circle_at_1px_1px,rgb(100_116_139/0.12)_1px,transparent_0)] [background-size:24px_24px]" />
    </div>
  );
}
