import { webcrypto } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import type { SigningCredentials } from './content-credentials';

const ES256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
/** id-kp-documentSigning (RFC 9336): one of the extended key usages C2PA validators accept for a signer. */
const DOCUMENT_SIGNING = '1.3.6.1.5.5.7.3.36';
const DAY_MS = 24 * 60 * 60 * 1000;
const KEY_FILE = 'dev-signer.key.pem';
const CHAIN_FILE = 'dev-chain.pem';

function pem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/**
 * A development signing pair: a self-made root CA and a signing certificate it issued (C2PA validators
 * refuse a self-signed signer). The chain verifies; public checkers show it as from an unknown source,
 * since the root is on no trust list (docs/OPERATING.md says how to get a trusted one).
 */
export async function generateDevelopmentCredentials(
  commonName = 'MediaGen development',
): Promise<{ privateKeyPem: string; certificateChainPem: string; rootPem: string }> {
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + 5 * 365 * DAY_MS);
  const rootKeys = await webcrypto.subtle.generateKey(ES256, true, ['sign', 'verify']);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${commonName} root CA, O=MediaGen`,
    notBefore,
    notAfter,
    signingAlgorithm: ES256,
    keys: rootKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const signerKeys = await webcrypto.subtle.generateKey(ES256, true, ['sign', 'verify']);
  const signer = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${commonName} signer, O=MediaGen`,
    issuer: root.subject,
    notBefore,
    notAfter,
    signingAlgorithm: ES256,
    publicKey: signerKeys.publicKey,
    signingKey: rootKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([DOCUMENT_SIGNING]),
      await x509.SubjectKeyIdentifierExtension.create(signerKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root),
    ],
  });
  return {
    privateKeyPem: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', signerKeys.privateKey)),
    // The root stays out of the chain: a validator takes it from its own trust anchors, or not at all.
    certificateChainPem: signer.toString('pem') + '\n',
    rootPem: root.toString('pem') + '\n',
  };
}

/** A setting holds the PEM itself (a secret manager's value) or the path of a file with it. */
async function pemSetting(value: string): Promise<string> {
  return value.includes('-----BEGIN ') ? value : readFile(value, 'utf8');
}

export interface SigningSettings {
  /** C2PA_SIGNING_KEY: PKCS#8 PEM, or a path to it. */
  key: string | null;
  /** C2PA_CERT_CHAIN: the signing certificate then its intermediates, PEM, or a path to it. */
  certChain: string | null;
  timestampUrl: string | null;
}

/**
 * The credentials outputs are signed with: from settings; in development, a pair generated into
 * `<dataDir>/c2pa/` on the first start and reused after; otherwise none (outputs go unsigned).
 */
export async function loadSigningCredentials(
  settings: SigningSettings,
  options: { development: boolean; dataDir: string },
): Promise<SigningCredentials | null> {
  if (settings.key !== null && settings.certChain !== null) {
    return {
      privateKeyPem: await pemSetting(settings.key),
      certificateChainPem: await pemSetting(settings.certChain),
      timestampUrl: settings.timestampUrl,
    };
  }
  if (!options.development) return null;
  const dir = join(options.dataDir, 'c2pa');
  const read = () =>
    Promise.all([readFile(join(dir, KEY_FILE), 'utf8'), readFile(join(dir, CHAIN_FILE), 'utf8')]).then(
      ([privateKeyPem, certificateChainPem]) => ({
        privateKeyPem,
        certificateChainPem,
        timestampUrl: settings.timestampUrl,
      }),
    );
  const existing = await read().catch(() => null);
  if (existing !== null) return existing;
  // Written whole into a folder of its own, then renamed into place: workers starting together keep one
  // pair, never one's key beside another's certificate.
  const made = await generateDevelopmentCredentials();
  await mkdir(options.dataDir, { recursive: true });
  const draft = await mkdtemp(join(options.dataDir, 'c2pa-'));
  await Promise.all([
    writeFile(join(draft, KEY_FILE), made.privateKeyPem, { mode: 0o600 }),
    writeFile(join(draft, CHAIN_FILE), made.certificateChainPem),
    // Not read by the worker: the anchor to add to a checker's trust list to see the dev signature trusted.
    writeFile(join(draft, 'dev-root.pem'), made.rootPem),
  ]);
  const placed = await rename(draft, dir).then(
    () => true,
    () => false,
  );
  if (!placed) await rm(draft, { recursive: true, force: true });
  return read();
}
