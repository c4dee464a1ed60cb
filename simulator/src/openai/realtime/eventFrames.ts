import type { RealtimeServerEvent } from './realtimeEvents';
import { realtimeId } from './realtimeIds';

/** A server event as it goes on the wire: JSON with its own `event_id`, after `type` as the reference shows. */
export function serverEventFrame(event: RealtimeServerEvent): string {
  const { type, ...fields } = event;
  return JSON.stringify({ type, event_id: realtimeId('event'), ...fields });
}
