/**
 * Request and response examples from the providers' own API references, each with its source. The
 * simulator's contract tests replay the requests against it and compare its answers with these; the
 * worker's contract tests serve these answers to the real clients and compare what the clients send
 * with the documented request fields. Values the documents leave as placeholders are noted where
 * they are replaced.
 */

export { ONE_PIXEL_PNG_BASE64, stability, stableImage } from './stability-examples';
export { minimax } from './minimax-examples';
export { TEN_MS_OF_SILENCE_BASE64, openai } from './openai-examples';
export { stripe } from './stripe-examples';
export { shapeMismatches, shapeOf, type ShapeOptions } from './answer-shapes';
