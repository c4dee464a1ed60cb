import { resolve } from 'node:path';
import { z } from 'zod';
import type { EnvReader } from '../config/env-reader';
import type { ArtifactStore } from './artifact-store';
import { FileArtifactStore } from './file-artifact-store';
import type { S3Settings } from './s3-artifact-store';

export const ARTIFACT_STORE_KINDS = ['file', 's3'] as const;

/** Where every server and worker keeps results; all of them must agree. */
export type ArtifactStoreSettings = { kind: 'file'; directory: string } | ({ kind: 's3' } & S3Settings);

const bucketSchema = z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
  error: 'must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)',
});
// R2 and GCS interop take `auto`; AWS regions look like eu-west-1.
const regionSchema = z.string().regex(/^[a-z0-9-]{1,32}$/, { error: 'must be a region name such as eu-west-1' });
const endpointSchema = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const booleanSchema = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true');
const keyPrefixSchema = z
  .string()
  .regex(/^([A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+\/?$/, {
    error: 'must be path segments of letters, digits, . _ and - joined by /',
  })
  .transform((prefix) => (prefix.endsWith('/') ? prefix : `${prefix}/`));

/**
 * ARTIFACT_STORE=file (the default, for one machine) keeps results under `<dataDir>/artifacts`;
 * ARTIFACT_STORE=s3 keeps them in a bucket, for workers and API servers on different hosts.
 */
export function readArtifactStoreSettings(reader: EnvReader, dataDir: string): ArtifactStoreSettings {
  const kind =
    reader.read('ARTIFACT_STORE', z.enum(ARTIFACT_STORE_KINDS, { error: 'must be file or s3' }), 'file') ?? 'file';
  if (kind === 'file') {
    // A host left on the file store beside others on a bucket would serve and delete nothing of theirs.
    if (reader.raw('S3_BUCKET') !== undefined && !reader.reported('ARTIFACT_STORE')) {
      reader.problem('S3_BUCKET is set but ARTIFACT_STORE is file: set ARTIFACT_STORE=s3, or unset S3_BUCKET');
    }
    return { kind, directory: resolve(dataDir, 'artifacts') };
  }
  const needed = 'required when ARTIFACT_STORE=s3';
  return {
    kind,
    bucket: reader.require('S3_BUCKET', bucketSchema, needed) ?? '',
    region: reader.require('S3_REGION', regionSchema, needed) ?? '',
    endpoint: reader.read('S3_ENDPOINT', endpointSchema) ?? null,
    forcePathStyle: reader.read('S3_FORCE_PATH_STYLE', booleanSchema, 'false') ?? false,
    keyPrefix: reader.read('S3_KEY_PREFIX', keyPrefixSchema) ?? '',
    credentials: readS3Credentials(reader),
  };
}

/** Both keys, or neither (then the AWS SDK's default chain: environment, shared files, instance role). */
function readS3Credentials(reader: EnvReader): S3Settings['credentials'] {
  const accessKeyId = reader.raw('S3_ACCESS_KEY_ID');
  const secretAccessKey = reader.raw('S3_SECRET_ACCESS_KEY');
  if (accessKeyId !== undefined && secretAccessKey !== undefined) return { accessKeyId, secretAccessKey };
  if (accessKeyId !== undefined || secretAccessKey !== undefined) {
    const [missing, given] =
      accessKeyId === undefined
        ? ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']
        : ['S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID'];
    if (!reader.reported(missing)) {
      reader.problem(
        `Missing required environment variable: ${missing} (${given} is set; set both, or neither to use ` +
          "the AWS SDK's default credentials)",
      );
    }
  }
  return null;
}

export async function createArtifactStore(settings: ArtifactStoreSettings): Promise<ArtifactStore> {
  switch (settings.kind) {
    case 'file':
      return new FileArtifactStore(settings.directory);
    case 's3': {
      // Loaded only when asked for: the AWS SDK takes a tenth of a second to load, which every process on
      // the file store (and every test file importing core) would otherwise pay.
      const { S3ArtifactStore } = await import('./s3-artifact-store');
      return new S3ArtifactStore(settings);
    }
  }
}
