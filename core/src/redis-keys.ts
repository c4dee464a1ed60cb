/**
 * Per-user keys share a `{uid}` hash tag so the Lua scripts touching several of them stay on one
 * slot of a Redis Cluster.
 */
export function userKeys(prefix: string, uid: string) {
  const base = `${prefix}:{${uid}}`;
  return {
    quota: `${base}:quota`,
    generations: `${base}:generations`,
    charge: (generationId: string) => `${base}:charge:${generationId}`,
    idempotency: (key: string) => `${base}:idempotency:${key}`,
  };
}

export function cancelKey(prefix: string, generationId: string): string {
  return `${prefix}:cancel:${generationId}`;
}
