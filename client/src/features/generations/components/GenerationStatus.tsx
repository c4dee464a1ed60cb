import type { GenerationJob } from '../hooks/use-generation-job';
import { cancelOutcomeMessage, KIND_TEXTS } from '../kind-texts';
import { CancelButton } from './CancelButton';
import { GenerationProgress } from './GenerationProgress';
import { ResetRunningDialog } from './ResetRunningDialog';

/** A panel's generation while it runs (progress and Cancel), once canceled, and the reset question. */
export function GenerationStatus({ job }: { job: GenerationJob }) {
  const { generation } = job;
  return (
    <>
      <GenerationProgress generation={generation} />
      {job.running && generation !== undefined && (
        <CancelButton generation={generation} canceling={job.canceling} onCancel={() => void job.cancel()} />
      )}
      {generation?.status === 'canceled' && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {KIND_TEXTS[generation.kind].label} canceled. {cancelOutcomeMessage(generation)}
        </p>
      )}
      {job.resetDialog !== null && <ResetRunningDialog {...job.resetDialog} />}
    </>
  );
}
