import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { deleteKeys } from '@mediagen/testing';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import { freePort } from '@mediagen/scripts/processes';
import {
  createSigningKey,
  idTokenClaims,
  signIdToken,
  unsignedIdToken,
  type SigningKey,
} from './support/firebase-tokens';
import { startGoogleStandIn, type GoogleStandIn } from './support/google-stand-in';
import { spawnBuiltServer, type ChildHandle } from './support/processes';

/**
 * The production build of the server, in production mode (no MEDIAGEN_MODE, no Auth emulator), checking
 * ID tokens as it does for real: firebase-admin fetches Google's signing certificates, and reads accounts
 * from the Identity Toolkit API with the service account's access token. Google is the test's stand-in,
 * reached through HTTPS_PROXY (support/google-stand-in.ts), so the test holds the signing keys. Every
 * other test server runs against the Auth emulator, which takes unsigned tokens: this one shows that a
 * signature is checked, and what is refused.
 */
const PROJECT_ID = 'mediagen-prod-tokens';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `prod-tokens-${process.pid}`;

let standIn: GoogleStandIn;
let signingKey: SigningKey;
let strangerKey: SigningKey;
let workDir: string;
let database: TestDatabase;
let server: ChildHandle;
let origin: string;

beforeAll(async () => {
  [standIn, signingKey, strangerKey, database, workDir] = await Promise.all([
    startGoogleStandIn(PROJECT_ID),
    createSigningKey(),
    createSigningKey(),
    createTestDatabase('prod_tokens'),
    mkdtemp(join(tmpdir(), 'mediagen-prod-tokens-')),
  ]);
  standIn.signingCertificates.set(signingKey.kid, signingKey.certificate);

  // The service account the server reads accounts as; its key signs the request for an access token.
  const serviceAccount = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const credentials = join(workDir, 'service-account.json');
  const googleCertificate = join(workDir, 'google-stand-in.pem');
  await writeFile(
    credentials,
    JSON.stringify({
      type: 'service_account',
      project_id: PROJECT_ID,
      private_key_id: 'stand-in',
      private_key: serviceAccount.privateKey,
      client_email: `mediagen-server@${PROJECT_ID}.iam.gserviceaccount.com`,
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
  );
  await writeFile(googleCertificate, standIn.tlsCertificate);

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = await spawnBuiltServer(
    {
      DATABASE_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: join(workDir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      FIREBASE_PROJECT_ID: PROJECT_ID,
      GOOGLE_APPLICATION_CREDENTIALS: credentials,
      HTTPS_PROXY: standIn.proxyUrl,
      NODE_EXTRA_CA_CERTS: googleCertificate,
      ARTIFACT_URL_SECRET: 'a'.repeat(48),
      ACCOUNT_TRACE_SECRET: 'b'.repeat(48),
      API_KEY_HMAC_SECRET: 'c'.repeat(48),
      WEBHOOK_SECRET_KEY: 'w'.repeat(48),
      PUBLIC_URL: 'https://api.mediagen.example',
      CORS_ORIGIN: 'https://mediagen.example',
      SMTP_URL: 'smtps://mediagen:secret@smtp.mediagen.example',
      SUPPORT_EMAIL_FROM: 'MediaGen support <support@mediagen.example>',
      LOG_LEVEL: 'warn',
    },
    origin,
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await standIn?.close();
  const redis = new Redis(REDIS_URL);
  await deleteKeys(redis, `${prefix}:*`);
  await redis.quit();
  await database?.drop();
  await rm(workDir, { recursive: true, force: true });
});

let accounts = 0;
/** A new account of the project, as the stand-in's accounts:lookup will answer it. */
function newAccount(changes: { disabled?: boolean; validSince?: string } = {}): string {
  accounts += 1;
  const uid = `prod-user-${accounts}-${Date.now()}`;
  standIn.accounts.set(uid, { localId: uid, email: `${uid}@example.test`, emailVerified: true, ...changes });
  return uid;
}

async function me(token: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

const refused = { status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' } } };

describe('a production server checks ID tokens against the signing keys it fetches', () => {
  it('accepts a token signed by the key Google publishes, for this project, and reads the account', async () => {
    const uid = newAccount();
    const token = signIdToken(idTokenClaims(PROJECT_ID, uid), signingKey);
    const answer = await me(token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ uid, email: `${uid}@example.test`, tokens: { image: 1, video: 1, speech: 2 } });
    // Through the stand-in, the way production reaches Google, and nowhere else.
    expect(standIn.requests).toEqual(
      expect.arrayContaining([
        'www.googleapis.com /robot/v1/metadata/x509/securetoken@system.gserviceaccount.com',
        'oauth2.googleapis.com /token',
        `identitytoolkit.googleapis.com /v1/projects/${PROJECT_ID}/accounts:lookup`,
      ]),
    );
    expect(standIn.requests.filter((request) => request.startsWith('refused'))).toEqual([]);
  });

  it.each([
    ['signed by another key under the published key id', () => signIdToken(claims(), strangerKey, signingKey.kid)],
    ['signed by a key Google never published', () => signIdToken(claims(), strangerKey)],
    ['not signed at all (alg: none)', () => unsignedIdToken(claims(), signingKey.kid)],
    ['for another project (audience)', () => signIdToken(claims({ aud: 'another-project' }), signingKey)],
    [
      'issued by someone else',
      () => signIdToken(claims({ iss: 'https://securetoken.google.com/another-project' }), signingKey),
    ],
    [
      'expired',
      () => signIdToken(claims({ iat: now() - 7200, exp: now() - 3600, auth_time: now() - 7200 }), signingKey),
    ],
    ['changed after signing to name another user', () => tampered(signIdToken(claims(), signingKey))],
  ])('refuses a token %s', async (_what, token) => {
    expect(await me(token())).toEqual(refused);
  });

  it.each([
    ['revoked after the sign-in', () => newAccount({ validSince: String(now() + 60) })],
    ['disabled', () => newAccount({ disabled: true })],
    ['deleted', () => `prod-user-never-created-${Date.now()}`],
  ])('refuses a good token of an account %s', async (_what, account) => {
    const uid = account();
    expect(await me(signIdToken(idTokenClaims(PROJECT_ID, uid), signingKey))).toEqual(refused);
  });

  it.each(['failing', 'unreachable'] as const)(
    'answers 503 NOT_READY, not 401, while the signing keys URL is %s, and takes the token once it is back',
    async (outage) => {
      const token = signIdToken(idTokenClaims(PROJECT_ID, newAccount()), signingKey);
      standIn.signingKeys = outage;
      try {
        expect(await me(token)).toEqual({
          status: 503,
          body: {
            error: { code: 'NOT_READY', message: 'The service is temporarily unavailable. Please try again shortly.' },
          },
        });
      } finally {
        standIn.signingKeys = 'served';
      }
      expect((await me(token)).status).toBe(200);
    },
  );
});

const now = () => Math.floor(Date.now() / 1000);
const claims = (changes: Record<string, unknown> = {}) => idTokenClaims(PROJECT_ID, newAccount(), changes);

/** The same signature over claims changed afterwards: they name another user, whose account exists. */
function tampered(token: string): string {
  const [header, payload, signature] = token.split('.');
  const someoneElse = newAccount();
  const changed = {
    ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
    sub: someoneElse,
    user_id: someoneElse,
  };
  return `${header}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
}
