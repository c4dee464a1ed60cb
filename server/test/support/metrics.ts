/** The value of one Prometheus sample in a scrape, or 0 when the series is absent. */
export function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of scrape.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

export async function scrape(origin: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${origin}/metrics`, { headers });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return response.text();
}
