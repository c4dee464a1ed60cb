import type { GenerationKind } from '@mediagen/shared';
import { markImage } from './image-marks';
import { markSpeech, markVideo } from './media-marks';

export { AI_CONTENT_STATEMENT, DIGITAL_SOURCE_TYPE } from './ai-content-marks';

/** A provider's output as it is stored: `clean` carries the AI-content metadata, `marked` also the mark. */
export interface MarkedOutput {
  clean: Buffer;
  marked: Buffer;
}

/**
 * Marks an output once, at completion, whatever the owner's plan: the served file is chosen per request
 * from the owner's plan as it is then, so an upgrade or a downgrade needs no new rendering.
 */
export function markOutput(kind: GenerationKind, output: Uint8Array, extension: string): Promise<MarkedOutput> {
  switch (kind) {
    case 'image':
      return markImage(output);
    case 'video':
      return markVideo(output);
    case 'speech':
      return markSpeech(output, extension);
  }
}
