import { describe, expect, it } from 'vitest';
import { ConfigError, EnvReader, FileArtifactStore, createArtifactStore, readArtifactStoreSettings } from '../src';
import type { Env } from '../src';

const read = (env: Env) => {
  const reader = new EnvReader(env);
  const settings = readArtifactStoreSettings(reader, '/srv/mediagen');
  reader.finish('test');
  return settings;
};

function problemsOf(env: Env): string[] {
  try {
    read(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

const s3 = { ARTIFACT_STORE: 's3', S3_BUCKET: 'mediagen-artifacts', S3_REGION: 'eu-west-1' };

describe('ARTIFACT_STORE and the S3 settings', () => {
  it('keeps files under <DATA_DIR>/artifacts unless told otherwise', async () => {
    const settings = read({});
    expect(settings).toEqual({ kind: 'file', directory: '/srv/mediagen/artifacts' });
    expect(await createArtifactStore(settings)).toBeInstanceOf(FileArtifactStore);
  });

  it('reads a bucket on AWS with the default credential chain', () => {
    expect(read(s3)).toEqual({
      kind: 's3',
      bucket: 'mediagen-artifacts',
      region: 'eu-west-1',
      endpoint: null,
      forcePathStyle: false,
      keyPrefix: '',
      credentials: null,
    });
  });

  it('reads an S3-compatible server with its own keys, ending the key prefix with a slash', () => {
    expect(
      read({
        ...s3,
        S3_REGION: 'auto',
        S3_ENDPOINT: 'http://minio.internal:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_KEY_PREFIX: 'mediagen/artifacts',
        S3_ACCESS_KEY_ID: 'access',
        S3_SECRET_ACCESS_KEY: 'secret',
      }),
    ).toMatchObject({
      endpoint: 'http://minio.internal:9000',
      forcePathStyle: true,
      keyPrefix: 'mediagen/artifacts/',
      credentials: { accessKeyId: 'access', secretAccessKey: 'secret' },
    });
  });

  it('names every missing or invalid setting', () => {
    expect(problemsOf({ ARTIFACT_STORE: 's3' })).toEqual([
      'Missing required environment variable: S3_BUCKET (required when ARTIFACT_STORE=s3)',
      'Missing required environment variable: S3_REGION (required when ARTIFACT_STORE=s3)',
    ]);
    expect(
      problemsOf({
        ...s3,
        S3_BUCKET: 'Media_Artifacts',
        S3_REGION: 'EU West',
        S3_ENDPOINT: 'minio:9000',
        S3_FORCE_PATH_STYLE: 'yes',
        S3_KEY_PREFIX: '/artifacts/../x',
      }),
    ).toEqual([
      'S3_BUCKET must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)',
      'S3_REGION must be a region name such as eu-west-1',
      'S3_ENDPOINT must be an http(s) URL',
      'S3_FORCE_PATH_STYLE must be true or false',
      'S3_KEY_PREFIX must be path segments of letters, digits, . _ and - joined by /',
    ]);
    expect(problemsOf({ ARTIFACT_STORE: 'S3 please' })).toEqual(['ARTIFACT_STORE must be file or s3']);
  });

  it('wants both S3 keys or neither', () => {
    expect(problemsOf({ ...s3, S3_ACCESS_KEY_ID: 'access' })).toEqual([
      "Missing required environment variable: S3_SECRET_ACCESS_KEY (S3_ACCESS_KEY_ID is set; set both, or neither to use the AWS SDK's default credentials)",
    ]);
  });

  it('refuses a bucket on a host left on the file store, which would not see the others’ results', () => {
    expect(problemsOf({ S3_BUCKET: 'mediagen-artifacts' })).toEqual([
      'S3_BUCKET is set but ARTIFACT_STORE is file: set ARTIFACT_STORE=s3, or unset S3_BUCKET',
    ]);
  });
});
