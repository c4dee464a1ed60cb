import { describe, expect, it } from 'vitest';
import { ArtifactUrlSigner } from '@mediagen/core';
import { parseByteRange } from '../src/artifacts/byte-range';

describe('ArtifactUrlSigner', () => {
  const now = 1_800_000_000_000;
  const signer = new ArtifactUrlSigner('secret-a', 600, () => now);
  const parse = (path: string) => {
    const url = new URL(path, 'http://x');
    return {
      key: decodeURIComponent(url.pathname.split('/').pop()!),
      exp: url.searchParams.get('exp')!,
      sig: url.searchParams.get('sig')!,
    };
  };

  it('accepts its own link until it expires', () => {
    const { key, exp, sig } = parse(signer.signedPath('image_a.png'));
    expect(Number(exp)).toBe(now / 1000 + 600);
    expect(signer.check(key, exp, sig)).toEqual({ ok: true, remainingSeconds: 600 });
    const later = new ArtifactUrlSigner('secret-a', 600, () => now + 601_000);
    expect(later.check(key, exp, sig)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is verified by another instance with the same secret only', () => {
    const { key, exp, sig } = parse(signer.signedPath('image_a.png'));
    expect(new ArtifactUrlSigner('secret-a', 60, () => now).check(key, exp, sig).ok).toBe(true);
    expect(new ArtifactUrlSigner('secret-b', 600, () => now).check(key, exp, sig)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuses another key, another expiry and malformed input', () => {
    const { exp, sig } = parse(signer.signedPath('image_a.png'));
    expect(signer.check('image_b.png', exp, sig).ok).toBe(false);
    expect(signer.check('image_a.png', String(Number(exp) + 1), sig).ok).toBe(false);
    expect(signer.check('image_a.png', undefined, sig).ok).toBe(false);
    expect(signer.check('image_a.png', exp, undefined).ok).toBe(false);
    expect(signer.check('image_a.png', '1e9', sig).ok).toBe(false);
    expect(signer.check('image_a.png', exp, 'short').ok).toBe(false);
  });
});

describe('parseByteRange', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-99', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=900-', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=900-5000', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-100', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', { kind: 'partial', start: 0, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', { kind: 'whole' }],
    ['bytes=5-3', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
  ] as const)('reads %s', (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });
});
