/** A transition of the record that must happen: retried while the database is briefly away. */
export type RecordStep = <T>(what: string, transition: () => Promise<T>) => Promise<T>;

/** A transition the record could not take right now is tried again this often before the job gives up. */
const RECORD_RETRY_DELAYS_MS = [100, 500, 2000];

export function recordStep(log: (message: string) => void): RecordStep {
  return async function record<T>(what: string, transition: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await transition();
      } catch (error) {
        const delay = RECORD_RETRY_DELAYS_MS[attempt];
        if (delay === undefined) throw error;
        log(`could not ${what} (${error instanceof Error ? error.message : String(error)}); trying again`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };
}
