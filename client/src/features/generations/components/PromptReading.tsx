import type { PromptPart, PromptSyntaxReading } from '@mediagen/shared';

/**
 * How an image prompt that uses the Prompt Guide's syntax will be read: its parts with their weights, what
 * it keeps out, or why it cannot be read. Empty, and no height, for a plain prompt, which is sent as it is
 * written. The region stays in the page, so screen readers hear the reading change as the creator types.
 */
export function PromptReading({ id, reading }: { id: string; reading: PromptSyntaxReading }) {
  return (
    <div id={id} aria-live="polite" className="text-xs">
      {!reading.ok ? (
        <p className="mt-2 text-amber-700 dark:text-amber-300">Can’t read this prompt: {reading.message}</p>
      ) : (
        reading.usesSyntax && (
          <div className="mt-2 flex flex-wrap items-center gap-1.5">
            <span className="font-medium text-slate-600 dark:text-slate-300">Read as:</span>
            <ul aria-label="Prompt parts" className="contents">
              {reading.parts.map((part, index) => (
                <PartChip key={index} part={part} />
              ))}
            </ul>
          </div>
        )
      )}
    </div>
  );
}

function PartChip({ part }: { part: PromptPart }) {
  const keptOut = part.weight < 0;
  return (
    <li
      className={
        keptOut
          ? 'rounded-full bg-rose-50 px-2 py-0.5 text-rose-800 dark:bg-rose-500/10 dark:text-rose-200'
          : 'rounded-full bg-violet-50 px-2 py-0.5 text-violet-800 dark:bg-violet-500/10 dark:text-violet-200'
      }
    >
      {keptOut && <span className="font-medium">without </span>}
      {part.text} <span className="sr-only">weight </span>
      <span aria-hidden="true">×</span>
      {Math.abs(part.weight)}
    </li>
  );
}
