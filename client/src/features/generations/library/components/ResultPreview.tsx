import { isFinalStatus, type Generation } from '@mediagen/shared';
import { ImageIcon, VideoIcon, WaveIcon } from '@/components/ui/icons';
import { ProgressBar } from '@/components/ui/ProgressBar';
import { ImageSetGrid } from '../../components/ImageSetGrid';
import { progressMessage, queueMessage } from '../../kind-texts';

const KIND_ICONS = { image: ImageIcon, video: VideoIcon, speech: WaveIcon };

/**
 * The result itself (view or play), or what stands in for it: progress, the error, or an expired file. An
 * image set shows as a grid with its count, each image downloadable and asked for again by its seed.
 */
export function ResultPreview({
  generation,
  onSameSeed,
}: {
  generation: Generation;
  onSameSeed?: (seed: number) => void;
}) {
  const { kind, result, prompt } = generation;
  const setSize = generation.outputs?.length ?? 0;
  if (kind === 'image' && setSize > 1) {
    return (
      <div className="relative">
        <ImageSetGrid generation={generation} {...(onSameSeed === undefined ? {} : { onSameSeed })} />
        <span className="absolute left-2 top-2 rounded-full bg-slate-900/80 px-2 py-0.5 text-xs font-semibold text-white">
          {setSize} images
        </span>
      </div>
    );
  }
  if (result !== undefined) {
    if (kind === 'image') {
      return (
        <img src={result.url} alt={prompt} loading="lazy" className="aspect-square w-full rounded-xl object-cover" />
      );
    }
    if (kind === 'video') {
      return (
        <video
          src={result.url}
          controls
          preload="metadata"
          aria-label={`Video: ${prompt}`}
          className="aspect-video w-full rounded-xl bg-black"
        />
      );
    }
    return (
      <div className="grid aspect-video place-items-center rounded-xl bg-slate-100 px-3 dark:bg-slate-800/60">
        <audio src={result.url} controls preload="none" aria-label={`Speech: ${prompt}`} className="w-full" />
      </div>
    );
  }
  const Icon = KIND_ICONS[kind];
  return (
    <div className="grid aspect-video place-items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-slate-100/60 p-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:bg-slate-800/40 dark:text-slate-300">
      <Icon className="size-8 opacity-60" />
      <Placeholder generation={generation} />
    </div>
  );
}

function Placeholder({ generation }: { generation: Generation }) {
  const { kind, status, progress, queue, error, resultExpiredAt } = generation;
  if (!isFinalStatus(status)) {
    const message = status === 'queued' && queue !== undefined ? queueMessage(queue) : progressMessage(kind, progress);
    return (
      <div className="grid w-full gap-2">
        <ProgressBar label={`${kind} generation progress`} value={progress} valueText={message} />
        <span>{message}</span>
      </div>
    );
  }
  if (resultExpiredAt !== undefined) {
    return <span>File deleted on {new Date(resultExpiredAt).toLocaleDateString()} (retention period over)</span>;
  }
  return <span>{error?.message ?? 'No file'}</span>;
}
