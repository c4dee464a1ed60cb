import { isFinalStatus, type Generation, type PlanId } from '@mediagen/shared';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Modal } from '@/components/ui/Modal';
import { DownloadIcon, ResetIcon } from '@/components/ui/icons';
import { cancelAndAnnounce } from '../../cancel-and-announce';
import { CancelButton } from '../../components/CancelButton';
import { FreeMarkNotice } from '../../components/FreeMarkNotice';
import { cancelOutcomeMessage, KIND_TEXTS } from '../../kind-texts';
import { speechSummary } from '../../speech-texts';
import { useGenerationsStore } from '../../stores/generations-store';
import { useImageDraftStore } from '../../stores/image-draft-store';
import { downloadFile } from '../../utils/download-file';
import { ApiRequestError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { deleteGeneration, runAgain } from '../api/library-api';
import { resultFileName } from '../../result-file-name';
import { ContentCredentials } from './ContentCredentials';
import { ResultPreview } from './ResultPreview';
import { StatusBadge } from './StatusBadge';

type Action = 'download' | 'again' | 'delete' | 'cancel';

const failureMessage = (error: unknown, fallback: string) =>
  error instanceof ApiRequestError ? error.message : fallback;

/**
 * One generation in the library: its result, what it was asked for, and what can be done with it.
 * `plan`: the owner's plan now, which decides whether its file is served marked; absent until known.
 */
export function LibraryItem({ generation, plan }: { generation: Generation; plan?: PlanId | undefined }) {
  const [busy, setBusy] = useState<Action | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  /** A failed delete is said in its dialog, which stays open to try again: a toast would sit over it. */
  const [deleteProblem, setDeleteProblem] = useState<string | null>(null);
  const promptId = useId();
  const { label } = KIND_TEXTS[generation.kind];
  const made = new Date(generation.createdAt);
  const navigate = useNavigate();

  async function run(action: Action, work: () => Promise<void>) {
    setBusy(action);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  }

  const download = () =>
    run('download', async () => {
      const { result } = generation;
      if (result === undefined) return;
      await downloadFile(result.url, resultFileName(generation)).catch(() =>
        notify.error('The download failed - please try again'),
      );
    });

  const copyPrompt = () =>
    navigator.clipboard.writeText(generation.prompt).then(
      () => notify.success('Prompt copied'),
      () => notify.error('Could not copy the prompt'),
    );

  // Prefilled, not sent: the creator sees the prompt, settings and seed on the dashboard and presses Generate.
  const sameSeedAgain = (seed: number) => {
    if (generation.image === undefined) return;
    useImageDraftStore.getState().prefill({ prompt: generation.prompt, image: generation.image, seed });
    void navigate('/dashboard');
  };
  const singleImageSeed =
    generation.kind === 'image' && (generation.outputs?.length ?? 0) === 1 ? generation.outputs?.[0]?.seed : undefined;

  const again = () =>
    run('again', async () => {
      try {
        const started = await runAgain(generation.id);
        useGenerationsStore.getState().received(started);
        notify.success(`${label} queued again with the same settings`);
      } catch (error) {
        notify.error(failureMessage(error, 'Could not run it again - please try again'));
      }
    });

  const cancel = () =>
    run('cancel', async () => {
      await cancelAndAnnounce(generation);
    });

  const remove = () =>
    run('delete', async () => {
      setDeleteProblem(null);
      try {
        await deleteGeneration(generation.id);
        setConfirmingDelete(false);
        useGenerationsStore.getState().removed(generation.id);
        notify.success(`${label} deleted`);
      } catch (error) {
        setDeleteProblem(failureMessage(error, 'Could not delete it - please try again'));
      }
    });

  function closeDeleteDialog() {
    setConfirmingDelete(false);
    setDeleteProblem(null);
  }

  return (
    <li className="card flex flex-col gap-3 p-3" aria-labelledby={promptId} data-generation-id={generation.id}>
      <ResultPreview generation={generation} onSameSeed={sameSeedAgain} />
      {generation.status === 'completed' && generation.result !== undefined && (
        <>
          <FreeMarkNotice plan={plan} />
          <ContentCredentials generation={generation} plan={plan} />
        </>
      )}
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="font-semibold text-slate-700 dark:text-slate-200">{label}</span>
        <StatusBadge status={generation.status} />
        <time dateTime={generation.createdAt} className="ml-auto">
          {made.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}{' '}
          {made.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
        </time>
      </div>
      <p id={promptId} className="line-clamp-3 text-sm text-slate-800 dark:text-slate-100" title={generation.prompt}>
        {generation.prompt}
      </p>
      {generation.speech !== undefined && (
        <p className="text-xs text-slate-500 dark:text-slate-400">{speechSummary(generation.speech)}</p>
      )}
      {generation.status === 'canceled' && (
        <p className="text-xs text-slate-600 dark:text-slate-400">{cancelOutcomeMessage(generation)}</p>
      )}
      {!isFinalStatus(generation.status) && (
        <CancelButton generation={generation} canceling={busy === 'cancel'} onCancel={() => void cancel()} />
      )}
      <div className="mt-auto flex flex-wrap gap-2">
        {generation.result !== undefined && (generation.outputs?.length ?? 1) <= 1 && (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5 text-sm"
            onClick={() => void download()}
            disabled={busy !== null}
          >
            <DownloadIcon className="size-4" />
            Download
          </button>
        )}
        {singleImageSeed !== undefined && (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5 text-sm"
            title={`Seed ${singleImageSeed}`}
            onClick={() => sameSeedAgain(singleImageSeed)}
          >
            Same seed again
          </button>
        )}
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => void copyPrompt()}>
          Copy prompt
        </button>
        <button
          type="button"
          className="btn-secondary px-3 py-1.5 text-sm"
          onClick={() => void again()}
          disabled={busy !== null}
        >
          <ResetIcon className="size-4" />
          {busy === 'again' ? 'Starting…' : 'Run again'}
        </button>
        <button
          type="button"
          className="btn-secondary px-3 py-1.5 text-sm text-rose-700 dark:text-rose-300"
          onClick={() => setConfirmingDelete(true)}
          disabled={busy !== null}
        >
          Delete
        </button>
      </div>
      {confirmingDelete && (
        <Modal title={`Delete this ${generation.kind}?`} onClose={closeDeleteDialog} closeOnBackdropClick>
          <p className="text-slate-600 dark:text-slate-300">
            {generation.status === 'queued' || generation.status === 'active'
              ? 'It is still in progress: it will be canceled, then deleted with its file. This cannot be undone.'
              : 'It is deleted with its file, and links to the file stop working. This cannot be undone.'}
          </p>
          {deleteProblem !== null && (
            <p role="alert" className="mt-4 text-sm font-medium text-rose-700 dark:text-rose-300">
              {deleteProblem}
            </p>
          )}
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className="btn-secondary" onClick={closeDeleteDialog} data-autofocus>
              Keep it
            </button>
            <button
              type="button"
              className="btn-primary from-rose-600 to-rose-600 hover:from-rose-500 hover:to-rose-500"
              onClick={() => void remove()}
              disabled={busy === 'delete'}
            >
              {busy === 'delete' ? 'Deleting…' : 'Delete'}
            </button>
          </div>
        </Modal>
      )}
    </li>
  );
}
