import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EnvReader } from '../config/env-reader';

/**
 * Only development mode falls back on this fixed key (as on the server's other development secrets): an
 * endpoint's secret sealed with it is as good as plain text.
 */
export const DEV_WEBHOOK_SECRET_KEY = 'mediagen-development-webhook-secret-key-do-not-use-in-production';
const MIN_KEY_LENGTH = 32;

/** WEBHOOK_SECRET_KEY: seals endpoints' signing secrets; the same on every server and worker, kept for good. */
export function readWebhookSecretKey(reader: EnvReader, development: boolean): string {
  const schema = z.string().min(MIN_KEY_LENGTH, { error: `must be at least ${MIN_KEY_LENGTH} characters` });
  const key = development
    ? reader.read('WEBHOOK_SECRET_KEY', schema)
    : reader.require('WEBHOOK_SECRET_KEY', schema, 'required when MEDIAGEN_MODE is not development');
  return key ?? DEV_WEBHOOK_SECRET_KEY;
}

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 24 random bytes (the spec asks 24 to 64). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Seals signing secrets with AES-256-GCM under a key derived from WEBHOOK_SECRET_KEY. The secret must
 * sign every delivery, so it is kept recoverable, never hashed; the endpoint's id is the associated data,
 * so a sealed secret copied onto another endpoint does not open.
 */
export class SecretSealer {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = createHash('sha256').update(secretKey).digest();
  }

  seal(endpointId: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(endpointId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  open(endpointId: string, sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12)).setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
