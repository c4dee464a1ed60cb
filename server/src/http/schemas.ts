import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@mediagen/shared';

export { errorBodySchema };

/**
 * Routes registered on the returned instance validate and serialise with the shared zod schemas (the
 * contract is written once, in `@mediagen/shared`), and their handlers are typed from them. Only this
 * plugin's scope: Bull Board's own routes keep Fastify's JSON-schema compilers.
 */
export function withSharedSchemas(app: FastifyInstance) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app.withTypeProvider<ZodTypeProvider>();
}

/** The error statuses every authenticated route can answer with. */
export const commonErrorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
} as const;
