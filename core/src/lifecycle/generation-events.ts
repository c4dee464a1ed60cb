import { sql, type RawBuilder } from 'kysely';
import type {
  ApiError,
  ContentCredentialsSummary,
  GenerationKind,
  GenerationStatus,
  TokenState,
} from '@mediagen/shared';
import type { LegacyFilteredOutput, MissingOutput } from '../queue/generation-jobs';

/**
 * Every transition of a generation is announced on this PostgreSQL channel by the statement that makes
 * it: NOTIFY is delivered at commit and only on commit, so an update can neither be lost between the
 * commit and its announcement nor announce what was rolled back. One database serves one deployment.
 */
export const GENERATION_EVENTS_CHANNEL = 'generation_updates';

/**
 * The state a transition left behind, without the prompt and the request (a NOTIFY payload is limited to
 * 8000 bytes; both are fixed at submit, so a listener reads them once).
 */
export interface GenerationEvent {
  id: string;
  uid: string;
  kind: GenerationKind;
  status: GenerationStatus;
  version: number;
  token: TokenState;
  /** Provider calls that did, or may have done, paid work: while above 0, a cancel keeps the token spent. */
  paidCalls: number;
  createdAt: string;
  updatedAt: string;
  error: ApiError | null;
  /**
   * The first file; `contentCredentials` null when it was stored unsigned, absent from what a statement of
   * an earlier release announced.
   */
  artifact: { key: string; mimeType: string; contentCredentials?: ContentCredentialsSummary | null } | null;
  /** Tokens charged together at submit, and how many the ending gave back. */
  tokenCount: number;
  tokensReturned: number;
  /** An image set's every output (RecordedOutput, files by key); null for one output, which `artifact` is. */
  outputs: EventOutput[] | null;
  artifactExpiredAt: string | null;
  /** The owner deleted it: this is its last announcement. */
  removed: boolean;
  /** The submission's W3C traceparent when it was traced: the relay's emit of the final state continues it. */
  traceParent: string | null;
}

/**
 * An output as announced: a file by its key (signed by the relay), or an image not made (MissingOutput; a set
 * recorded before images could fail marks a filtered one with `filtered: true` alone).
 */
export type EventOutput =
  | { key: string; mimeType: string; seed?: number; contentCredentials?: ContentCredentialsSummary }
  | MissingOutput
  | LegacyFilteredOutput;

/**
 * Error messages are cut to keep every payload far below the 8000-byte limit. A completed set of ten images
 * with their Content Credentials summaries (about 300 bytes each) stays near 5000.
 */
const MAX_EVENT_MESSAGE_LENGTH = 1000;

/** SQL: the event of the row `alias` as JSON text, for pg_notify; `removed` when the row is being deleted. */
export function eventPayload(alias: string, removed = false): RawBuilder<string> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<string>`json_build_object(
    'id', ${column('id')}, 'uid', ${column('uid')}, 'kind', ${column('kind')}, 'status', ${column('status')},
    'version', ${column('version')}, 'token', ${column('token')}, 'paidCalls', ${column('paid_calls')},
    'createdAt', ${column('created_at')}, 'updatedAt', ${column('updated_at')},
    'error', case when ${column('error_code')} is null then null
      else json_build_object('code', ${column('error_code')},
        'message', left(${column('error_message')}, ${sql.lit(MAX_EVENT_MESSAGE_LENGTH)})) end,
    'artifact', case when ${column('artifact_key')} is null then null
      else json_build_object('key', ${column('artifact_key')}, 'mimeType', ${column('artifact_mime')},
        'contentCredentials', ${column('content_credentials')}) end,
    'tokenCount', ${column('token_count')}, 'tokensReturned', ${column('tokens_returned')},
    'outputs', case when ${column('artifact_key')} is null then null else ${column('outputs')} end,
    'artifactExpiredAt', ${column('artifact_expired_at')}, 'removed', ${sql.lit(removed)},
    'traceParent', ${column('trace_parent')}
  )::text`;
}

/** Reads a payload of the channel; null for anything that is not one (the channel is ours, but check). */
export function parseGenerationEvent(payload: string | undefined): GenerationEvent | null {
  if (payload === undefined) return null;
  try {
    const event = JSON.parse(payload) as GenerationEvent;
    if (typeof event.id !== 'string' || typeof event.uid !== 'string' || typeof event.version !== 'number') {
      return null;
    }
    // json_build_object writes timestamps without a zone designator when they are timestamptz in UTC+0
    // sessions; Date parses both forms, so normalise to ISO 8601.
    event.createdAt = new Date(event.createdAt).toISOString();
    event.updatedAt = new Date(event.updatedAt).toISOString();
    if (event.artifactExpiredAt !== null) event.artifactExpiredAt = new Date(event.artifactExpiredAt).toISOString();
    // Announced by a process older than the column.
    event.traceParent ??= null;
    return event;
  } catch {
    return null;
  }
}
