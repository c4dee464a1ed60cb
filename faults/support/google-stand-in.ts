import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { generate } from 'selfsigned';

/**
 * Google, as far as a production server's firebase-admin reaches it, played by the test: the Firebase ID
 * token signing certificates (www.googleapis.com), the service account's access tokens
 * (oauth2.googleapis.com) and the account reads (identitytoolkit.googleapis.com). It is reached the way a
 * server behind an egress proxy reaches Google: through HTTPS_PROXY, a CONNECT proxy here that tunnels
 * those three hosts to one local TLS server (and refuses any other), whose certificate the server trusts
 * through NODE_EXTRA_CA_CERTS. TLS, host names and paths are the real ones; only the answers are ours.
 */
export const GOOGLE_HOSTS = ['www.googleapis.com', 'oauth2.googleapis.com', 'identitytoolkit.googleapis.com'];
const SIGNING_CERTIFICATES_PATH = '/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com';
const ACCESS_TOKEN = 'stand-in-access-token';

/** An account as the Identity Toolkit API's accounts:lookup answers it. */
export interface StandInAccount {
  localId: string;
  email: string;
  emailVerified?: boolean;
  disabled?: boolean;
  /** Tokens of sign-ins before this second are revoked. */
  validSince?: string;
}

export interface GoogleStandIn {
  /** For the server's HTTPS_PROXY. */
  proxyUrl: string;
  /** PEM of the TLS certificate the three hosts present, for the server's NODE_EXTRA_CA_CERTS. */
  tlsCertificate: string;
  /** The x509 certificates served as Google's ID-token signing keys, by key id. */
  signingCertificates: Map<string, string>;
  /**
   * The signing certificates' URL: `served`, `failing` (it answers 500) or `unreachable` (the connection
   * to www.googleapis.com is cut before any answer).
   */
  signingKeys: 'served' | 'failing' | 'unreachable';
  /** The project's accounts, by uid; a uid not here does not exist. */
  accounts: Map<string, StandInAccount>;
  /** Every request served, as `host path`, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startGoogleStandIn(projectId: string): Promise<GoogleStandIn> {
  const tls = await generate([{ name: 'commonName', value: 'Google stand-in (MediaGen tests)' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: GOOGLE_HOSTS.map((value) => ({ type: 2 as const, value })) },
    ],
  });

  const standIn: Omit<GoogleStandIn, 'proxyUrl' | 'close'> = {
    tlsCertificate: tls.cert,
    signingCertificates: new Map(),
    signingKeys: 'served',
    accounts: new Map(),
    requests: [],
  };

  const answer = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = (request.headers.host ?? '').replace(/:443$/, '');
    const path = (request.url ?? '').split('?')[0]!;
    standIn.requests.push(`${host} ${path}`);
    if (host === 'www.googleapis.com' && path === SIGNING_CERTIFICATES_PATH) {
      if (standIn.signingKeys === 'failing') return answer(response, 500, { error: 'backend error' });
      // Google caches these for hours; the stand-in says "ask again", so a test may change them.
      return answer(response, 200, Object.fromEntries(standIn.signingCertificates), {
        'cache-control': 'public, max-age=0',
      });
    }
    if (host === 'oauth2.googleapis.com' && path === '/token') {
      return answer(response, 200, { access_token: ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' });
    }
    if (host === 'identitytoolkit.googleapis.com' && path === `/v1/projects/${projectId}/accounts:lookup`) {
      if (request.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) {
        return answer(response, 401, { error: { code: 401, message: 'UNAUTHENTICATED' } });
      }
      let body = '';
      for await (const chunk of request) body += String(chunk);
      const { localId = [] } = JSON.parse(body) as { localId?: string[] };
      const users = localId.flatMap((uid) => standIn.accounts.get(uid) ?? []);
      return answer(response, 200, {
        kind: 'identitytoolkit#GetAccountInfoResponse',
        ...(users.length ? { users } : {}),
      });
    }
    answer(response, 404, { error: { code: 404, message: 'not served by the stand-in' } });
  }

  const google = createHttpsServer({ key: tls.private, cert: tls.cert }, (request, response) => {
    serve(request, response).catch(() => response.destroy());
  });
  google.listen(0, '127.0.0.1');
  await once(google, 'listening');
  const googlePort = (google.address() as AddressInfo).port;

  const proxy = createHttpServer((_request, response) => response.writeHead(405).end());
  // Tunnels leave the HTTP server's hands once open: kept here to be cut on close.
  const tunnels = new Set<Socket>();
  proxy.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.add(client);
    client.once('close', () => tunnels.delete(client));
    const [host, port] = (request.url ?? '').split(':');
    if (!GOOGLE_HOSTS.includes(host ?? '') || port !== '443') {
      standIn.requests.push(`refused CONNECT ${request.url}`);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    if (host === 'www.googleapis.com' && standIn.signingKeys === 'unreachable') {
      client.destroy();
      return;
    }
    const upstream = connect(googlePort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');

  return Object.assign(standIn, {
    proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    async close() {
      for (const tunnel of tunnels) tunnel.destroy();
      proxy.closeAllConnections();
      google.closeAllConnections();
      await Promise.all([new Promise((done) => proxy.close(done)), new Promise((done) => google.close(done))]);
    },
  });
}
