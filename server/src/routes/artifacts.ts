import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { singleLineText } from '@mediagen/shared';
import { parseByteRange } from '../artifacts/byte-range';
import { ServiceError, notFound } from '../http/errors';
import { errorBodySchema, withSharedSchemas } from '../http/schemas';

/**
 * /artifacts/:key?exp=&sig=: results for <img>, <video> and <audio>, which send no bearer header. A bad
 * or expired signature is 403 (one status for both, with different messages). Single byte ranges are
 * served as 206, which <video> needs to seek. The same link serves the marked or the original file as
 * the owner's plan says now (ArtifactVariants), so browsers revalidate it: the ETag names the file.
 */
export const artifactRoutes: FastifyPluginAsync = async (app) => {
  withSharedSchemas(app).get(
    '/artifacts/:key',
    {
      schema: {
        params: z.object({ key: z.string().max(200) }),
        querystring: z.object({ exp: singleLineText().optional(), sig: singleLineText().optional() }),
        // The file itself is streamed as it is, never serialised.
        response: {
          200: z.instanceof(Readable),
          206: z.instanceof(Readable),
          304: z.null(),
          400: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          416: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const link = app.artifactUrls.check(key, request.query.exp, request.query.sig);
      if (!link.ok) {
        throw new ServiceError(
          403,
          'FORBIDDEN',
          link.reason === 'expired' ? 'This link has expired. Reload the generation to get a new one.' : undefined,
        );
      }
      const served = await app.artifactVariants.served(key);
      const etag = `"${served}"`;
      reply
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        // The client runs on another origin; helmet's default (same-origin) would block the media there.
        .header('cross-origin-resource-policy', 'cross-origin');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send(null);
      const info = await app.artifactStore.stat(served);
      if (info === null) throw notFound();

      const range = parseByteRange(request.headers.range, info.bytes);
      if (range.kind === 'unsatisfiable') {
        return reply
          .status(416)
          .header('content-range', `bytes */${info.bytes}`)
          .send(new ServiceError(416, 'INVALID_REQUEST', 'Requested range not satisfiable.').toBody());
      }
      const slice = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
      const opened = await app.artifactStore.open(served, slice);
      if (opened === null) throw notFound();
      reply.header('content-type', opened.mimeType).header('accept-ranges', 'bytes');
      if (slice === undefined) {
        return reply.status(200).header('content-length', opened.bytes).send(opened.stream);
      }
      return reply
        .status(206)
        .header('content-range', `bytes ${slice.start}-${slice.end}/${opened.bytes}`)
        .header('content-length', slice.end - slice.start + 1)
        .send(opened.stream);
    },
  );
};
