import { isFinalStatus, type Generation } from '@mediagen/shared';
import { useId, useState } from 'react';
import { Modal } from '@/components/ui/Modal';
import { DownloadIcon, ResetIcon } from '@/components/ui/icons';
import { cancelAndAnnounce } from '../../cancel-and-announce';
import { CancelButton } from '../../components/CancelButton';
import { cancelOutcomeMessage, KIND_TEXTS } from '../../kind-texts';
import { speechSummary } from '../../speech-texts';
import { useGenerationsStore } from '../../stores/generations-store';
import { downloadFile } from '../../utils/download-file';
import { ApiRequestError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { deleteGeneration, runAgain } from '../api/library-api';
import { resultFileName } from '../result-file';
import { ResultPreview } from './ResultPreview';
import { StatusBadge } from './StatusBadge';

type Action = 'download' | 'again' | 'delete' | 'cancel';

const failureMessage = (error: unknown, fallback: string) =>
  error instanceof ApiRequestError ? error.message : fallback;

/** One generation in the library: its result, what it was asked for, and what can be done with it. */
export function LibraryItem({ generation }: { generation: Generation }) {
  const [busy, setBusy] = useState<Action | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const promptId = useId();
  const { label } = KIND_TEXTS[generation.kind];
  const made = new Date(generation.createdAt);

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
      try {
        await deleteGeneration(generation.id);
        setConfirmingDelete(false);
        useGenerationsStore.getState().removed(generation.id);
        notify.success(`${label} deleted`);
      } catch (error) {
        notify.error(failureMessage(error, 'Could not delete it - please try again'));
      }
    });

  return (
    <li className="card flex flex-col gap-3 p-3" aria-labelledby={promptId} data-generation-id={generation.id}>
      <ResultPreview generation={generation} />
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
        {generation.result !== undefined && (
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
        <Modal
          title={`Delete this ${generation.kind}?`}
          onClose={() => setConfirmingDelete(false)}
          closeOnBackdropClick
        >
          <p className="text-slate-600 dark:text-slate-300">
            {generation.status === 'queued' || generation.status === 'active'
              ? 'It is still in progress: it will be canceled, then deleted with its file. This cannot be undone.'
              : 'It is deleted with its file, and links to the file stop working. This cannot be undone.'}
          </p>
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className="btn-secondary" onClick={() => setConfirmingDelete(false)} data-autofocus>
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
