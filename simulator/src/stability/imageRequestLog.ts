// Enough for any test or a look at a development session, without growing for ever.
const KEPT_REQUESTS = 200;

/**
 * The image requests Stability would have served (v1 text-to-image, v2beta generate and upscale), for tests
 * and /__sim/stability/requests: what a provider receives (the weighted prompts above all) is shown there,
 * not guessed from the worker.
 */
export class ImageRequestLog<Entry> {
  private requests: Entry[] = [];

  add(record: Entry): void {
    this.requests.push(record);
    if (this.requests.length > KEPT_REQUESTS) this.requests.splice(0, this.requests.length - KEPT_REQUESTS);
  }

  /** A copy of the kept requests, oldest first. */
  list(): Entry[] {
    return structuredClone(this.requests);
  }

  clear(): void {
    this.requests = [];
  }
}
