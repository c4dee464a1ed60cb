import { request } from 'undici';

/** Where a Realtime session connects: a base URL (`wss://` is made of it) and, for a stand-in, its certificate. */
export interface RealtimeTarget {
  baseUrl: string;
  /** A PEM certificate pinned for this connection instead of the system's roots. */
  ca?: string | undefined;
}

export type RealtimeEndpoint = () => Promise<RealtimeTarget>;

/** OpenAI's own host, verified against the system's roots. */
export function openaiRealtime(baseUrl: string): RealtimeEndpoint {
  return async () => ({ baseUrl });
}

/**
 * The simulator (development only): OpenAI's client connects only with `wss://`, so the simulator serves
 * the Realtime API on a TLS port of its own with a certificate it makes at start. It tells both on its
 * control API, asked at each connection: nothing to configure, and a restarted simulator is found again.
 */
export function simulatorRealtime(simulatorUrl: string, tlsUrl?: string): RealtimeEndpoint {
  return async () => {
    const response = await request(`${simulatorUrl}/__sim/tls`, { headersTimeout: 5000, bodyTimeout: 5000 });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new Error(`the simulator at ${simulatorUrl} has no TLS listener (GET /__sim/tls: ${response.statusCode})`);
    }
    const { port, certificate } = (await response.body.json()) as { port: number; certificate: string };
    const url = new URL(tlsUrl ?? simulatorUrl);
    url.protocol = 'https:';
    if (tlsUrl === undefined) url.port = String(port);
    return { baseUrl: `${url.origin}/v1`, ca: certificate };
  };
}
