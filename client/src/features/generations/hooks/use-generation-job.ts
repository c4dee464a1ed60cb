import {
  ERROR_MESSAGES,
  isFinalStatus,
  LONG_TOAST_DURATION_MS,
  tokensExhaustedMessage,
  type Generation,
  type GenerationKind,
  type GenerationRequestInput,
} from '@mediagen/shared';
import { useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/api-client';
import { notify, type ToastId } from '@/lib/notify';
import { createGeneration } from '../api/create-generation';
import { cancelAndAnnounce, type CancelOutcome } from '../cancel-and-announce';
import type { PanelBalance } from '../components/generator-panel-props';
import type { ResetRunningDialogProps } from '../components/ResetRunningDialog';
import { keptRunningMessage, KIND_TEXTS, resetMessage, tokenOutcomeMessage } from '../kind-texts';
import { useCurrentGeneration, useGenerationsStore } from '../stores/generations-store';

export interface GenerationJob {
  generation: Generation | undefined;
  /** Waiting for the API's answer or for the generation to finish. */
  busy: boolean;
  submit: (input: GenerationRequestInput) => Promise<void>;
  /** Says the kind's tokens are spent, as the server would (its balance says 0 until `resetsAt`). */
  refuseExhausted: (balance: PanelBalance) => void;
  /** The generation is queued or running: it can be canceled. */
  running: boolean;
  /** A cancel is on its way to the API. */
  canceling: boolean;
  cancel: () => Promise<CancelOutcome>;
  /** Clears the panel; while its generation runs, asks first whether to cancel it or keep it running. */
  reset: () => void;
  /** The question a reset asked while the generation runs, if it is open. */
  resetDialog: ResetRunningDialogProps | null;
}

/**
 * One panel's generation: submit it, follow it through the store, cancel it, and announce how it ended.
 * `onSettled` runs when a generation was accepted or ended, when token balances change; `clearInputs`
 * when the panel is reset.
 */
export function useGenerationJob(
  kind: GenerationKind,
  onSettled: () => void,
  clearInputs: () => void = () => undefined,
): GenerationJob {
  const generation = useCurrentGeneration(kind);
  const [submitting, setSubmitting] = useState(false);
  const [canceling, setCanceling] = useState(false);
  const [askingReset, setAskingReset] = useState(false);
  // Generations seen running here, with their loading toast if any: only these get an ending toast,
  // so a resync that finds an old finished job stays quiet.
  const watched = useRef(new Map<string, ToastId | undefined>());
  const onSettledRef = useRef(onSettled);
  onSettledRef.current = onSettled;
  const texts = KIND_TEXTS[kind];

  useEffect(() => {
    if (generation === undefined) return;
    if (!isFinalStatus(generation.status)) {
      if (!watched.current.has(generation.id)) watched.current.set(generation.id, undefined);
      return;
    }
    if (!watched.current.has(generation.id)) return;
    const toastId = watched.current.get(generation.id);
    watched.current.delete(generation.id);
    announceEnding(generation, texts, toastId);
    onSettledRef.current();
  }, [generation, texts]);

  async function submit(input: GenerationRequestInput) {
    setSubmitting(true);
    const toastId = texts.preparing === undefined ? undefined : notify.loading(texts.preparing);
    try {
      const started = await createGeneration(input);
      watched.current.set(started.id, toastId);
      useGenerationsStore.getState().started(started);
      onSettledRef.current();
    } catch (error) {
      announceRefusal(error, toastId);
    } finally {
      setSubmitting(false);
    }
  }

  function refuseExhausted({ plan, resetsAt }: PanelBalance) {
    const renewsInMs = Date.parse(resetsAt) - Date.now();
    notify.error(tokensExhaustedMessage({ plan, kind, renewsInMs }), { duration: LONG_TOAST_DURATION_MS });
  }

  const running = generation !== undefined && !isFinalStatus(generation.status);
  // A question left open when its generation ended must not come back with the next one.
  useEffect(() => {
    if (!running) setAskingReset(false);
  }, [running]);

  /** Stops watching the panel's generation: what follows is said by whoever stopped watching it. */
  function unwatch(id: string) {
    const toastId = watched.current.get(id);
    if (toastId !== undefined) notify.dismiss(toastId);
    watched.current.delete(id);
  }

  async function cancel(): Promise<CancelOutcome> {
    if (generation === undefined || isFinalStatus(generation.status)) return 'not-canceled';
    const { id } = generation;
    // The cancel's own toast says how it ended, from the API's answer; the ending toast would say it twice.
    unwatch(id);
    setCanceling(true);
    try {
      const outcome = await cancelAndAnnounce(generation);
      const now = useGenerationsStore.getState().byId[id];
      if (outcome === 'not-canceled' && now !== undefined && !isFinalStatus(now.status)) {
        watched.current.set(id, undefined);
      } else {
        onSettledRef.current();
      }
      return outcome;
    } finally {
      setCanceling(false);
    }
  }

  function clearPanel() {
    if (generation !== undefined) unwatch(generation.id);
    useGenerationsStore.getState().dismissed(kind);
    clearInputs();
  }

  function reset() {
    if (running) {
      setAskingReset(true);
      return;
    }
    clearPanel();
    notify.success(resetMessage(kind));
  }

  async function cancelAndReset() {
    const outcome = await cancel();
    setAskingReset(false);
    // The cancel's toast already says what happened; a failed cancel leaves the panel as it was.
    if (outcome !== 'not-canceled') clearPanel();
  }

  function keepRunning() {
    setAskingReset(false);
    clearPanel();
    // Not the spec's reset toast: "has been reset" would read as if the work stopped.
    notify.message(keptRunningMessage(kind));
  }

  // The question is about a running generation: once it ends, there is nothing left to ask.
  const resetDialog: ResetRunningDialogProps | null =
    askingReset && running && generation !== undefined
      ? {
          generation,
          canceling,
          onCancelIt: () => void cancelAndReset(),
          onKeepRunning: keepRunning,
          onClose: () => setAskingReset(false),
        }
      : null;

  return {
    generation,
    busy: submitting || running,
    submit,
    refuseExhausted,
    running,
    canceling,
    cancel,
    reset,
    resetDialog,
  };
}

function announceEnding(
  generation: Generation,
  texts: (typeof KIND_TEXTS)[GenerationKind],
  toastId: ToastId | undefined,
) {
  const tokenOutcome = tokenOutcomeMessage(generation);
  const options = {
    ...(toastId === undefined ? {} : { id: toastId }),
    ...(tokenOutcome === undefined ? {} : { description: tokenOutcome }),
  };
  if (generation.status === 'completed') {
    if (texts.completed !== undefined) notify.success(texts.completed, options);
    else if (toastId !== undefined) notify.dismiss(toastId);
  } else if (generation.status === 'canceled') {
    notify.message(generation.error?.message ?? ERROR_MESSAGES.CANCELED, options);
  } else {
    notify.error(generation.error?.message ?? texts.failedFallback, options);
  }
}

function announceRefusal(error: unknown, toastId: ToastId | undefined) {
  const message = error instanceof ApiRequestError ? error.message : ERROR_MESSAGES.INTERNAL;
  // Spec §8: the exhausted-tokens toast stays for 5 seconds.
  const exhausted = error instanceof ApiRequestError && error.code === 'TOKENS_EXHAUSTED';
  notify.error(message, {
    ...(toastId === undefined ? {} : { id: toastId }),
    ...(exhausted ? { duration: LONG_TOAST_DURATION_MS } : {}),
  });
}
