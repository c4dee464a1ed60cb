import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src/config';
import { ContentCredentials } from '../src/marking/content-credentials';
import { generateDevelopmentCredentials, loadSigningCredentials } from '../src/marking/signing-credentials';
import { problemsOf, production } from './support/config-env';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagen-c2pa-settings-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('Content Credentials settings', () => {
  it('production starts unsigned without a key, and refuses to when C2PA_REQUIRED=true', async () => {
    expect(loadWorkerConfig(production).c2pa).toEqual({
      key: null,
      certChain: null,
      timestampUrl: null,
      required: false,
    });
    expect(await loadSigningCredentials(loadWorkerConfig(production).c2pa, { development: false, dataDir: dir })).toBe(
      null,
    );
    expect(problemsOf({ ...production, C2PA_REQUIRED: 'true' })).toContain(
      'Missing required environment variable: C2PA_SIGNING_KEY and C2PA_CERT_CHAIN',
    );
  });

  it('a key without its chain is refused', () => {
    expect(problemsOf({ ...production, C2PA_SIGNING_KEY: '/etc/mediagen/c2pa.key' })).toContain(
      'C2PA_SIGNING_KEY and C2PA_CERT_CHAIN are set together or not at all',
    );
  });

  it('takes the PEM itself or a path to it', async () => {
    const pair = await generateDevelopmentCredentials();
    const chainFile = join(dir, 'chain.pem');
    await writeFile(chainFile, pair.certificateChainPem);
    const config = loadWorkerConfig({
      ...production,
      C2PA_SIGNING_KEY: pair.privateKeyPem,
      C2PA_CERT_CHAIN: chainFile,
      C2PA_TSA_URL: 'http://timestamp.example/tsa',
      C2PA_REQUIRED: 'true',
    });
    const loaded = await loadSigningCredentials(config.c2pa, { development: false, dataDir: dir });
    expect(loaded).toEqual({
      privateKeyPem: pair.privateKeyPem.trim(),
      certificateChainPem: pair.certificateChainPem,
      timestampUrl: 'http://timestamp.example/tsa',
    });
    expect(new ContentCredentials(loaded!).subject).toBe('CN=MediaGen development signer, O=MediaGen');
  });

  it('development makes a pair in the data directory on the first start and keeps it', async () => {
    const unset = { key: null, certChain: null, timestampUrl: null };
    const dataDir = join(dir, 'development');
    // Two workers starting together end with one pair, and no draft left behind.
    const [first, beside] = await Promise.all([
      loadSigningCredentials(unset, { development: true, dataDir }),
      loadSigningCredentials(unset, { development: true, dataDir }),
    ]);
    const second = await loadSigningCredentials(unset, { development: true, dataDir });
    expect(beside).toEqual(first);
    expect(second).toEqual(first);
    expect(await readdir(dataDir)).toEqual(['c2pa']);
    expect(await readFile(join(dataDir, 'c2pa', 'dev-root.pem'), 'utf8')).toContain('BEGIN CERTIFICATE');
  });

  it('a key that is not ES256 is refused at start', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    const pair = await generateDevelopmentCredentials();
    expect(
      () =>
        new ContentCredentials({
          privateKeyPem: String(rsa),
          certificateChainPem: pair.certificateChainPem,
          timestampUrl: null,
        }),
    ).toThrow('C2PA_SIGNING_KEY must be an EC P-256 key (ES256)');
  });
});
