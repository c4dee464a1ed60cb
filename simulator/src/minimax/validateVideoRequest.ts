const MAX_PROMPT_LENGTH = 2000;
const OPTIONAL_FIELD_TYPES: Record<string, 'string' | 'number' | 'boolean'> = {
  prompt_optimizer: 'boolean',
  generation_type: 'string',
  quality: 'string',
  max_frames: 'number',
  style_preset: 'string',
  resolution: 'string',
  fps: 'number',
  optimization_level: 'string',
};

/**
 * What is wrong with a POST /v1/video_generation body, as the detail of MiniMax's "invalid params, <detail>"
 * message; undefined when it is fine. Only types are checked beyond model and prompt: values such as
 * resolution vary between MiniMax models.
 */
export function videoRequestProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body must be a JSON object';
  const fields = body as Record<string, unknown>;
  const { model, prompt } = fields;
  if (typeof model !== 'string' || model === '') return 'model is required';
  if (typeof prompt !== 'string' || prompt.trim() === '') return 'prompt is required';
  if (prompt.length > MAX_PROMPT_LENGTH) return `prompt must be at most ${MAX_PROMPT_LENGTH} characters`;
  for (const [field, type] of Object.entries(OPTIONAL_FIELD_TYPES)) {
    const value = fields[field];
    if (value !== undefined && typeof value !== type) return `${field} must be a ${type}`;
  }
  for (const field of ['max_frames', 'fps']) {
    const value = fields[field];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) {
      return `${field} must be a positive integer`;
    }
  }
  return undefined;
}
