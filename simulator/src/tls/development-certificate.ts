import { isIP } from 'node:net';
import { generate } from 'selfsigned';

export const DEFAULT_CERTIFICATE_HOSTS = ['localhost', '127.0.0.1', '::1'];

const VALIDITY_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface DevelopmentCertificate {
  key: string;
  cert: string;
}

/**
 * A self-signed certificate for the simulator's TLS server, valid for a year for these host names and IP
 * addresses. It is its own CA (basicConstraints CA), so a client trusts it by passing the certificate as
 * `ca`, which is how the worker's `ws` client is pointed at it (the simulator announces it at
 * `GET /__sim/tls`). EC P-256: small and fast to make, so every simulator makes its own at start.
 */
export async function createDevelopmentCertificate(
  hosts: string[] = DEFAULT_CERTIFICATE_HOSTS,
): Promise<DevelopmentCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'MediaGen provider simulator (development)' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + VALIDITY_DAYS * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: hosts.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host })),
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
