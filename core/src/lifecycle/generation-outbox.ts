import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { prepared } from '../db/database';
import { GENERATION_EVENTS_CHANNEL } from './generation-events';

/** Announcements one flush statement sends at most; a flush repeats until the outbox is empty. */
const BATCH = 500;

/**
 * Sends the announcements left in `generation_outbox`, many per notifying transaction. Submissions no
 * longer write there (they notify in their own statement, one notifying commit per batch of them), but
 * servers of the release before still do while a rolling upgrade replaces them; every server flushes the
 * outbox on a timer, so an announcement whose process died right after its commit still goes out. The
 * table and this sweep go in a later release. Flushes on several servers never send a row twice (each
 * takes its rows with `skip locked` and deletes them in the transaction that notifies).
 */
export class GenerationOutbox {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Resolves once a flush that began after this call has ended, so whatever the caller committed before
   * calling has been sent. Calls made while a flush runs share the one that follows it.
   */
  flush(): Promise<void> {
    if (this.running === null) return this.start();
    this.queued ??= this.running.then(
      () => this.afterRunning(),
      () => this.afterRunning(),
    );
    return this.queued;
  }

  private afterRunning(): Promise<void> {
    this.queued = null;
    return this.start();
  }

  private start(): Promise<void> {
    const running = this.sendAll().finally(() => {
      if (this.running === running) this.running = null;
    });
    this.running = running;
    return running;
  }

  private async sendAll(): Promise<void> {
    for (;;) {
      const { rows } = await sql<{ sent: number }>`${prepared('flush_generation_outbox')}
        with taken as (
          delete from generation_outbox where id in (
            select id from generation_outbox order by id limit ${BATCH} for update skip locked)
          returning id, payload
        )
        select count(*)::int as sent from (
          select pg_notify(${GENERATION_EVENTS_CHANNEL}, payload) from taken order by id) as notified`.execute(this.db);
      if ((rows[0]?.sent ?? 0) < BATCH) return;
    }
  }
}
