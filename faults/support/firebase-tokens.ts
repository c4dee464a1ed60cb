import { createSign, randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';

/** A key that signs Firebase ID tokens, and the x509 certificate Google would publish for it. */
export interface SigningKey {
  kid: string;
  privateKey: string;
  certificate: string;
}

export async function createSigningKey(): Promise<SigningKey> {
  const pems = await generate([{ name: 'commonName', value: 'securetoken.system.gserviceaccount.com' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { kid: randomBytes(20).toString('hex'), privateKey: pems.private, certificate: pems.cert };
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The claims of a Firebase ID token of `projectId` for a sign-in made now, with `changes` over them. */
export function idTokenClaims(projectId: string, uid: string, changes: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://securetoken.google.com/${projectId}`,
    aud: projectId,
    auth_time: now,
    user_id: uid,
    sub: uid,
    iat: now,
    exp: now + 3600,
    email: `${uid}@example.test`,
    email_verified: true,
    firebase: { identities: { email: [`${uid}@example.test`] }, sign_in_provider: 'password' },
    ...changes,
  };
}

/** An RS256 JWT signed by `key`, naming `kid` (the key's own unless told otherwise). */
export function signIdToken(claims: object, key: SigningKey, kid = key.kid): string {
  const signed = `${base64url({ alg: 'RS256', kid, typ: 'JWT' })}.${base64url(claims)}`;
  const signature = createSign('RSA-SHA256').update(signed).sign(key.privateKey).toString('base64url');
  return `${signed}.${signature}`;
}

/** A JWT with no signature at all (`alg: none`), as the Auth emulator mints them. */
export function unsignedIdToken(claims: object, kid: string): string {
  return `${base64url({ alg: 'none', kid, typ: 'JWT' })}.${base64url(claims)}.`;
}
