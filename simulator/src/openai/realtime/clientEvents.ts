import { problems, type RealtimeProblem } from './realtimeErrors';
import { isObject } from './realtimeParams';

/** Every client event of the GA API (RealtimeClientEvent). */
const CLIENT_EVENT_TYPES = [
  'session.update',
  'conversation.item.create',
  'conversation.item.delete',
  'conversation.item.retrieve',
  'conversation.item.truncate',
  'input_audio_buffer.append',
  'input_audio_buffer.clear',
  'input_audio_buffer.commit',
  'output_audio_buffer.clear',
  'response.create',
  'response.cancel',
] as const;
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

/** A client event: its type, its optional `event_id` (echoed in errors) and its other fields, unchecked. */
export interface ClientEvent {
  type: ClientEventType;
  eventId: string | null;
  fields: Record<string, unknown>;
}

/** One WebSocket frame read as a client event, or the problem an `error` event reports. */
export function parseClientEvent(
  frame: Buffer,
  isBinary: boolean,
): ClientEvent | { problem: RealtimeProblem; eventId: string | null } {
  let value: unknown;
  try {
    if (isBinary) throw new Error('a binary frame');
    value = JSON.parse(frame.toString('utf8'));
  } catch {
    return {
      problem: {
        message: 'The server could not parse the event: it is not valid JSON.',
        param: null,
        code: 'invalid_json',
      },
      eventId: null,
    };
  }
  if (!isObject(value)) {
    return { problem: problems.invalidType('event', value, 'an object'), eventId: null };
  }
  const eventId = typeof value.event_id === 'string' ? value.event_id : null;
  // The reference's own error example: { code: "invalid_event", message: "The 'type' field is missing." }.
  if (value.type === undefined) {
    return { problem: { message: "The 'type' field is missing.", param: null, code: 'invalid_event' }, eventId };
  }
  const type = CLIENT_EVENT_TYPES.find((candidate) => candidate === value.type);
  if (type === undefined) return { problem: problems.invalidValue('type', value.type, CLIENT_EVENT_TYPES), eventId };
  return { type, eventId, fields: value };
}
