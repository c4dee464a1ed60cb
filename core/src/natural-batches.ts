import DataLoader from 'dataloader';

/** One call of a batch: what it gives back for each item, in order (an Error fails only its own item). */
export type BatchRun<In, Out> = (items: readonly In[]) => Promise<readonly (Out | Error)[]>;

/**
 * Natural batching: items handed in while a run is under way wait for it to end and then go together in
 * the next run, so under load one round trip serves many callers, and a lone caller waits no longer than
 * one turn of the event loop. One run at a time per batcher (unless more than `maxBatchSize` items
 * wait: those leave in several runs at once); each item's promise settles with its own result. Built on
 * DataLoader with its cache off (every item is its own request, never shared).
 */
export function naturalBatches<In, Out>(run: BatchRun<In, Out>, maxBatchSize = 200): (item: In) => Promise<Out> {
  let running: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<In, Out>(
    (items) => {
      const work = run(items);
      running = work.catch(() => undefined);
      return work as Promise<(Out | Error)[]>;
    },
    {
      cache: false,
      maxBatchSize,
      // DataLoader asks once per new batch; it is sent once the run before it has ended.
      batchScheduleFn: (send) => void running.then(() => setImmediate(send)),
    },
  );
  return (item) => loader.load(item);
}
