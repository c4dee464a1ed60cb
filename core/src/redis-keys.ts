/**
 * Per-user keys share a `{uid}` hash tag so the Lua scripts touching several of them stay on one
 * slot of a Redis Cluster.
 */
export function userKeys(prefix: string, uid: string) {
  const base = `${prefix}:{${uid}}`;
  return {
    quota: `${base}:quota`,
    generations: `${base}:generations`,
    /** Set of the user's queued and running generation ids (the fair-use cap). */
    inFlight: `${base}:in-flight`,
    charge: (generationId: string) => `${base}:charge:${generationId}`,
    idempotency: (key: string) => `${base}:idempotency:${key}`,
  };
}

export function cancelKey(prefix: string, generationId: string): string {
  return `${prefix}:cancel:${generationId}`;
}

/** Pub/sub channel carrying the id of every newly canceled generation (see CancellationRegistry). */
export function cancellationChannel(prefix: string): string {
  return `${prefix}:cancellations`;
}

/** The latest completed run times of a kind (RecentRunTimes), for queue ETAs. */
export function runTimesKey(prefix: string, kind: string): string {
  return `${prefix}:run-times:${kind}`;
}

/** Provider task id → generation id, written when a video task starts, so operators can look a job up by task. */
export function videoTaskKey(prefix: string, taskId: string): string {
  return `${prefix}:video-task:${taskId}`;
}
