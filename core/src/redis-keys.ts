/** Pub/sub channel carrying the id of every newly canceled generation (see cancel-signals.ts). */
export function cancellationChannel(prefix: string): string {
  return `${prefix}:cancellations`;
}

/** The latest completed run times of a kind (RecentRunTimes), for queue ETAs. */
export function runTimesKey(prefix: string, kind: string): string {
  return `${prefix}:run-times:${kind}`;
}
