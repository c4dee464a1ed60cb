import type { RealtimeSessionRecord } from '../../types';

// Enough for any test or a look at a development session, without growing for ever.
const KEPT_SESSIONS = 200;

/** What the Realtime sessions received and said, for tests and /__sim/realtime/sessions. */
export class RealtimeSessionLog {
  private sessions: RealtimeSessionRecord[] = [];

  /** Keeps a session's record, which the session goes on updating. */
  open(record: RealtimeSessionRecord): void {
    this.sessions.push(record);
    if (this.sessions.length > KEPT_SESSIONS) this.sessions.splice(0, this.sessions.length - KEPT_SESSIONS);
  }

  /** A copy of the kept sessions, oldest first. */
  list(): RealtimeSessionRecord[] {
    return structuredClone(this.sessions);
  }

  clear(): void {
    this.sessions = [];
  }
}
