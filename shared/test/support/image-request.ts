import type { ImageRequest } from '../../src/index';

/** An image request as the schema leaves it: a prompt, and whatever a test sets beside it. */
export const imageRequest = (fields: Partial<ImageRequest> = {}): ImageRequest => ({
  kind: 'image',
  prompt: 'a lighthouse',
  ...fields,
});
