import type { ImageRequestRecord } from '../types';

// Enough for any test or a look at a development session, without growing for ever.
const KEPT_REQUESTS = 200;

/**
 * The text-to-image requests Stability would have rendered, for tests and /__sim/stability/requests:
 * what a provider receives (the weighted text_prompts above all) is shown there, not guessed from the worker.
 */
export class ImageRequestLog {
  private requests: ImageRequestRecord[] = [];

  add(record: ImageRequestRecord): void {
    this.requests.push(record);
    if (this.requests.length > KEPT_REQUESTS) this.requests.splice(0, this.requests.length - KEPT_REQUESTS);
  }

  /** A copy of the kept requests, oldest first. */
  list(): ImageRequestRecord[] {
    return structuredClone(this.requests);
  }

  clear(): void {
    this.requests = [];
  }
}
