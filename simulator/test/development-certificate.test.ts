import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDevelopmentCertificate } from '../src/index';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('createDevelopmentCertificate', () => {
  it('makes a self-signed EC P-256 CA certificate for TLS servers, covering the hosts, valid for a year', async () => {
    const { key, cert } = await createDevelopmentCertificate();
    const certificate = new X509Certificate(cert);
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(certificate.ca).toBe(true);
    expect(certificate.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkIP('::1')).toBe('::1');
    expect(certificate.checkIssued(certificate)).toBe(true);
    expect(certificate.keyUsage).toContain('1.3.6.1.5.5.7.3.1'); // serverAuth
    const validDays = (Date.parse(certificate.validTo) - Date.now()) / DAY_MS;
    expect(validDays).toBeGreaterThan(364);
    expect(validDays).toBeLessThan(366);
  });

  it('covers the hosts it is given', async () => {
    const certificate = new X509Certificate((await createDevelopmentCertificate(['simulator.test', '10.0.0.7'])).cert);
    expect(certificate.checkHost('simulator.test')).toBe('simulator.test');
    expect(certificate.checkIP('10.0.0.7')).toBe('10.0.0.7');
    expect(certificate.checkHost('localhost')).toBeUndefined();
  });
});
