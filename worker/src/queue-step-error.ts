/**
 * A step of a run that only the queue's Redis can take (saving the job's step, delaying it, reading the
 * spend controls) failed: Redis is away or failing over, or this run's lock is gone with the old primary.
 * That is no fault of the generation, so the run stops without telling the record anything: the job comes
 * back through BullMQ (a retry, or the stalled-job check once its lock lapses) or, failing that, the
 * reconciler. Counting it as a failed attempt would fail, and charge, generations for our own outage.
 */
export class QueueStepError extends Error {
  constructor(step: string, cause: unknown) {
    super(`the queue could not ${step} (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'QueueStepError';
  }
}

/** Runs one queue-side step of a run, its failure marked as the queue's. */
export async function queueStep<T>(step: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw new QueueStepError(step, error);
  }
}
