import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { espeakVoiceFor } from './speechLanguage';

const ESPEAK_RATE = 22_050;
const ESPEAK_SAMPLES = 22_050;

/**
 * A stand-in espeak-ng on PATH: logs its arguments and input, and writes one second of 22.05 kHz WAV
 * with the placeholder sizes espeak-ng writes to a pipe.
 */
const FAKE_ESPEAK = `#!/usr/bin/env node
const fs = require('node:fs');
const input = fs.readFileSync(0, 'utf8');
fs.writeFileSync(process.env.FAKE_ESPEAK_LOG, JSON.stringify({ args: process.argv.slice(2), input }));
const wav = Buffer.alloc(44 + ${ESPEAK_SAMPLES} * 2);
wav.write('RIFF', 0, 'ascii'); wav.writeUInt32LE(0x7ffff000, 4); wav.write('WAVE', 8, 'ascii');
wav.write('fmt ', 12, 'ascii'); wav.writeUInt32LE(16, 16); wav.writeUInt16LE(1, 20); wav.writeUInt16LE(1, 22);
wav.writeUInt32LE(${ESPEAK_RATE}, 24); wav.writeUInt32LE(${ESPEAK_RATE} * 2, 28); wav.writeUInt16LE(2, 32); wav.writeUInt16LE(16, 34);
wav.write('data', 36, 'ascii'); wav.writeUInt32LE(0x7ffff000, 40);
process.stdout.write(wav);
`;

let directory: string;
const originalPath = process.env.PATH;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fake-espeak-'));
  // A fresh module, so "espeak-ng is missing", once learnt, does not carry over between tests.
  vi.resetModules();
});

afterEach(async () => {
  process.env.PATH = originalPath;
  delete process.env.FAKE_ESPEAK_LOG;
  await rm(directory, { recursive: true, force: true });
});

async function synthesize(...args: Parameters<typeof import('./realtimeAudio').synthesizeRealtimeAudio>) {
  const { synthesizeRealtimeAudio } = await import('./realtimeAudio');
  return synthesizeRealtimeAudio(...args);
}

describe('synthesizeRealtimeAudio', () => {
  it('speaks with espeak-ng when installed: the voice’s variant, the language, the speed, resampled to 24 kHz', async () => {
    const espeak = join(directory, 'espeak-ng');
    await writeFile(espeak, FAKE_ESPEAK);
    await chmod(espeak, 0o755);
    process.env.PATH = `${directory}:${originalPath}`;
    process.env.FAKE_ESPEAK_LOG = join(directory, 'log.json');

    const audio = await synthesize('Bonjour à tous.', {
      voice: 'cedar',
      speed: 1.2,
      language: 'fr',
      format: { type: 'audio/pcm', rate: 24000 },
    });
    expect(JSON.parse(await readFile(process.env.FAKE_ESPEAK_LOG, 'utf8'))).toEqual({
      args: ['--stdout', '-v', 'fr+m3', '-s', '210'],
      input: 'Bonjour à tous.',
    });
    expect(audio).toEqual({ bytes: expect.any(Buffer), bytesPerSecond: 48_000 });
    // One second of espeak's 22.05 kHz becomes one second at 24 kHz.
    expect(audio.bytes.length).toBe(24_000 * 2);
  });

  it('plays a tone a character without espeak-ng, at 24 kHz, shorter when faster', async () => {
    process.env.PATH = directory;
    const format = { type: 'audio/pcm', rate: 24000 } as const;
    const normal = await synthesize('Hello there', { voice: 'marin', speed: 1, language: 'en', format });
    const fast = await synthesize('Hello there', { voice: 'marin', speed: 1.5, language: 'en', format });
    // 11 characters of 50 ms (1,200 samples of 2 bytes) each.
    expect(normal.bytes.length).toBe(11 * 1200 * 2);
    expect(fast.bytes.length).toBeLessThan(normal.bytes.length);
    const muLaw = await synthesize('Hello there', {
      voice: 'marin',
      speed: 1,
      language: 'en',
      format: { type: 'audio/pcmu' },
    });
    expect(muLaw).toMatchObject({ bytesPerSecond: 8000 });
    expect(muLaw.bytes.length).toBe(11 * 400);
  });
});

describe('espeakVoiceFor', () => {
  it('speaks the first of the product’s languages the instructions name, else English', () => {
    expect(espeakVoiceFor('Read the text in French (fr-FR), word for word.')).toBe('fr');
    expect(espeakVoiceFor('Language: zh-CN.')).toBe('cmn');
    expect(espeakVoiceFor('Not pt-BR: ja-JP, then hi-IN.')).toBe('ja');
    expect(espeakVoiceFor('Read word for word.')).toBe('en');
  });
});
