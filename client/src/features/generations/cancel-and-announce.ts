import type { Generation } from '@mediagen/shared';
import { ApiRequestError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { cancelGeneration, getGeneration } from './api/cancel-generation';
import { cancelOutcomeMessage, finishedFirstMessage, KIND_TEXTS } from './kind-texts';
import { useGenerationsStore } from './stores/generations-store';

/** `finished-first`: it ended before the cancel reached it (409), and is shown as it ended. */
export type CancelOutcome = 'canceled' | 'finished-first' | 'not-canceled';

/**
 * Cancels a queued or running generation and says what became of its token, from the API's answer (not
 * from what was said before: a paid call may have begun in between). The panel and the library share it.
 */
export async function cancelAndAnnounce(generation: Generation): Promise<CancelOutcome> {
  const { label } = KIND_TEXTS[generation.kind];
  const store = useGenerationsStore.getState();
  try {
    const canceled = await cancelGeneration(generation.id);
    store.received(canceled);
    notify.success(`${label} canceled`, { description: cancelOutcomeMessage(canceled) });
    return 'canceled';
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'ALREADY_FINISHED') {
      // The socket brings the ending too; reading it here shows the result even if that update is late.
      const finished = await getGeneration(generation.id).catch(() => undefined);
      if (finished !== undefined) store.received(finished);
      notify.message(`The ${generation.kind} finished before it could be canceled`, {
        description: finishedFirstMessage(finished),
      });
      return 'finished-first';
    }
    notify.error(error instanceof ApiRequestError ? error.message : 'Could not cancel it - please try again');
    return 'not-canceled';
  }
}
