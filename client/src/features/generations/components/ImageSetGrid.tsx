import type { Generation, GenerationOutput, ImageMissingReason } from '@mediagen/shared';
import { DownloadIcon, ResetIcon } from '@/components/ui/icons';
import { notify } from '@/lib/notify';
import { resultFileName } from '../result-file-name';
import { downloadFile } from '../utils/download-file';

interface ImageSetGridProps {
  generation: Generation;
  /** "Same seed again" on each image (the library); absent in the panel. */
  onSameSeed?: (seed: number) => void;
}

/**
 * An image set as a grid: each image with its own download (and, in the library, "same seed again"); an
 * image not made (the provider filtered it, or failed on it) says why and that its token was returned, never
 * shown as a missing file.
 */
export function ImageSetGrid({ generation, onSameSeed }: ImageSetGridProps) {
  const outputs = generation.outputs ?? [];
  const count = outputs.length;
  return (
    <ul
      className={`grid w-full gap-2 ${count === 1 ? 'grid-cols-1' : count <= 4 ? 'grid-cols-2' : 'grid-cols-2 sm:grid-cols-3'}`}
      aria-label={`${count} images`}
    >
      {outputs.map((output, index) => (
        <li key={index} className="relative min-w-0">
          <SetImage
            output={output}
            label={`image ${index + 1} of ${count}`}
            prompt={generation.prompt}
            fileName={resultFileName(generation, index)}
            onSameSeed={onSameSeed}
          />
        </li>
      ))}
    </ul>
  );
}

/** What the creator reads of an image of the set that was not made, by why (`missing`). */
const MISSING_WORDS: Record<ImageMissingReason, { why: string; sentence: string }> = {
  filtered: { why: 'filtered by the provider', sentence: 'Filtered by the provider. Its token was returned.' },
  failed: {
    why: 'not made, the provider failed',
    sentence: 'Not made: the provider failed on this image. Its token was returned.',
  },
};

function SetImage({
  output,
  label,
  prompt,
  fileName,
  onSameSeed,
}: {
  output: GenerationOutput;
  label: string;
  prompt: string;
  fileName: string;
  onSameSeed: ((seed: number) => void) | undefined;
}) {
  if ('missing' in output) {
    const { why, sentence } = MISSING_WORDS[output.missing];
    return (
      <div
        role="img"
        aria-label={`${label}: ${why}, its token returned`}
        className="grid aspect-square place-items-center rounded-lg border border-dashed border-slate-300 bg-slate-100/60 p-2 text-center text-xs text-slate-600 dark:border-slate-700 dark:bg-slate-800/40 dark:text-slate-300"
      >
        {sentence}
      </div>
    );
  }
  const { seed, url } = output;
  async function download() {
    try {
      await downloadFile(url, fileName);
      notify.success('Image downloaded successfully!');
    } catch {
      notify.error('Failed to download image');
    }
  }
  return (
    <>
      <img
        src={url}
        alt={`Generated ${label}: ${prompt}`}
        loading="lazy"
        className="aspect-square w-full rounded-lg object-cover"
      />
      <div className="absolute inset-x-1 bottom-1 flex flex-wrap justify-end gap-1">
        {onSameSeed !== undefined && seed !== undefined && (
          <button
            type="button"
            className="btn-icon bg-white/90 dark:bg-slate-900/90"
            aria-label={`Same seed again: ${label}, seed ${seed}`}
            title={`Same seed again (${seed})`}
            onClick={() => onSameSeed(seed)}
          >
            <ResetIcon className="size-4" />
          </button>
        )}
        <button
          type="button"
          className="btn-icon bg-white/90 dark:bg-slate-900/90"
          aria-label={`Download ${label}`}
          title="Download"
          onClick={() => void download()}
        >
          <DownloadIcon className="size-4" />
        </button>
      </div>
    </>
  );
}
