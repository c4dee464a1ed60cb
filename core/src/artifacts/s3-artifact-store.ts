import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  artifactKey,
  isArtifactKey,
  mimeTypeOfKey,
  type ArtifactContent,
  type ArtifactInfo,
  type ArtifactStore,
  type ByteRange,
  type OpenedArtifact,
  type StoredArtifact,
} from './artifact-store';

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, GCS interop); null means AWS S3 itself. */
  endpoint: string | null;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>`, which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Put in front of every key, e.g. `mediagen/artifacts/`; empty when the bucket holds artifacts only. */
  keyPrefix: string;
  /** null: the AWS SDK's default chain (environment, shared files, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

/**
 * A video is uploaded in parts of this size, at most PARTS_IN_FLIGHT at a time, so a save holds about
 * 16 MiB of it in memory whatever its length (S3's minimum part is 5 MiB).
 */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
const CONNECT_TIMEOUT_MS = 5_000;
/** Until the answer's headers: a part of PART_BYTES must fit in it on a slow uplink. */
const REQUEST_TIMEOUT_MS = 60_000;
/**
 * A socket idle this long is given up, also while a body streams: a stalled bucket fails the request,
 * and a viewer who paused a video frees the connection (the browser asks for a range again on resume).
 */
const IDLE_TIMEOUT_MS = 60_000;
/** Each artifact being served holds one connection for as long as it streams; the SDK's default is 50. */
const MAX_CONNECTIONS = 256;

/**
 * Artifacts as objects in an S3 bucket, so workers and API servers on different hosts share no directory.
 * The API still serves them itself (ranged GETs streamed through), keeping its signed links and byte ranges.
 */
export class S3ArtifactStore implements ArtifactStore {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    const agent = { maxSockets: MAX_CONNECTIONS };
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint === null ? {} : { endpoint: settings.endpoint }),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials === null ? {} : { credentials: settings.credentials }),
      // Since SDK 3.729 every upload carries a CRC32 checksum that several S3-compatible servers refuse (R2
      // answered 501 NotImplemented: aws/aws-sdk-js-v3#6810); S3 itself keeps them.
      ...(settings.endpoint === null
        ? {}
        : { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }),
      requestHandler: {
        connectionTimeout: CONNECT_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        throwOnRequestTimeout: true,
        socketTimeout: IDLE_TIMEOUT_MS,
        httpAgent: agent,
        httpsAgent: agent,
      },
    });
  }

  async save(generationId: string, content: ArtifactContent, mimeType: string): Promise<StoredArtifact> {
    const key = artifactKey(generationId, mimeType);
    const body = measured(content);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: body.content,
        ContentType: mimeTypeOfKey(key),
      },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    });
    // A failed multipart upload is aborted by Upload, so no parts are left behind to be billed.
    await upload.done().catch((error: unknown) => {
      if (!(content instanceof Uint8Array)) content.destroy();
      throw error;
    });
    return { key, mimeType: mimeTypeOfKey(key), bytes: body.bytes() };
  }

  async stat(key: string): Promise<ArtifactInfo | null> {
    if (!isArtifactKey(key)) return null;
    const head = await this.client
      .send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }))
      .catch(missingAsNull);
    if (head === null) return null;
    return { mimeType: mimeTypeOfKey(key), bytes: wholeSize(head, false) };
  }

  async open(key: string, range?: ByteRange): Promise<OpenedArtifact | null> {
    if (!isArtifactKey(key)) return null;
    const object = await this.client
      .send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }),
        }),
      )
      .catch(missingAsNull);
    if (object === null) return null;
    if (!(object.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a readable body`);
    return { stream: object.Body, mimeType: mimeTypeOfKey(key), bytes: wholeSize(object, range !== undefined) };
  }

  async remove(key: string): Promise<void> {
    if (!isArtifactKey(key)) return;
    // S3 answers a delete of a missing key with success, which is what `remove` promises.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  private objectKey(key: string): string {
    return `${this.settings.keyPrefix}${key}`;
  }
}

/** A missing object reads as null (NoSuchKey from GET, NotFound from HEAD, which has no error body). */
function missingAsNull(error: unknown): null {
  if (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound')) return null;
  throw error;
}

/** A ranged answer's Content-Length is the range's; the whole size follows the slash of its Content-Range. */
function wholeSize(answer: { ContentLength?: number; ContentRange?: string }, ranged: boolean): number {
  const size = ranged ? Number(/\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1]) : answer.ContentLength;
  if (size === undefined || !Number.isInteger(size)) throw new Error("S3 answered without the object's size");
  return size;
}

/** The content as an upload body, and its size once uploaded (a stream's is only known at its end). */
function measured(content: ArtifactContent): { content: Uint8Array | Readable; bytes(): number } {
  if (content instanceof Uint8Array) return { content, bytes: () => content.byteLength };
  let bytes = 0;
  async function* counted(source: Readable) {
    for await (const chunk of source) {
      bytes += (chunk as Uint8Array).byteLength;
      yield chunk as Uint8Array;
    }
  }
  return { content: Readable.from(counted(content)), bytes: () => bytes };
}
