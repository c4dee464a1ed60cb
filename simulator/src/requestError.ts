/**
 * The status and message of an error reaching an error handler: Fastify's own request errors (bad JSON,
 * unsupported content type, body too large) carry a 4xx statusCode; anything else is a 500.
 */
export function describeRequestError(error: unknown): { statusCode: number; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const statusCode =
    typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
      ? error.statusCode
      : 500;
  return { statusCode, message };
}
