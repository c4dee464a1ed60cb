import {
  daysUntilReset,
  ERROR_MESSAGES,
  isFinalStatus,
  LONG_TOAST_DURATION_MS,
  TOKEN_RESET_PERIOD_MS,
  tokensExhaustedMessage,
  type Generation,
  type GenerationKind,
  type GenerationRequestInput,
} from '@mediagen/shared';
import { useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/api-client';
import { notify, type ToastId } from '@/lib/notify';
import { createGeneration } from '../api/create-generation';
import { KIND_TEXTS, resetMessage, tokenOutcomeMessage } from '../kind-texts';
import { useCurrentGeneration, useGenerationsStore } from '../stores/generations-store';

export interface GenerationJob {
  generation: Generation | undefined;
  /** Waiting for the API's answer or for the generation to finish. */
  busy: boolean;
  submit: (input: GenerationRequestInput) => Promise<void>;
  /** Says the kind's tokens are spent, as the server would (its balance says 0 until `resetsAt`). */
  refuseExhausted: (resetsAt: string) => void;
  reset: () => void;
}

/**
 * One panel's generation: submit it, follow it through the store, and announce how it ended.
 * `onSettled` runs when a generation was accepted or ended, when token balances change.
 */
export function useGenerationJob(kind: GenerationKind, onSettled: () => void): GenerationJob {
  const generation = useCurrentGeneration(kind);
  const [submitting, setSubmitting] = useState(false);
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

  function refuseExhausted(resetsAt: string) {
    const days = daysUntilReset(Date.parse(resetsAt) - TOKEN_RESET_PERIOD_MS, Date.now());
    notify.error(tokensExhaustedMessage(days), { duration: LONG_TOAST_DURATION_MS });
  }

  function reset() {
    if (generation !== undefined) {
      const toastId = watched.current.get(generation.id);
      if (toastId !== undefined) notify.dismiss(toastId);
      watched.current.delete(generation.id);
    }
    useGenerationsStore.getState().dismissed(kind);
    notify.success(resetMessage(kind));
  }

  const running = generation !== undefined && !isFinalStatus(generation.status);
  return { generation, busy: submitting || running, submit, refuseExhausted, reset };
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
