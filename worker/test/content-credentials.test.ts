import { createReadStream } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize } from 'node:path';
import { CHROMIUM_PATH, HEADLESS_CHROMIUM_ARGS } from '@mediagen/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentCredentialsSummary } from '@mediagen/shared';
import { markOutput } from '../src/marking';
import { ContentCredentials, type SignedOutput } from '../src/marking/content-credentials';
import { generateDevelopmentCredentials } from '../src/marking/signing-credentials';
import { runFfmpeg } from '../src/marking/ffmpeg';

/**
 * Signed outputs read back by the Content Authenticity Initiative's own reader (`@contentauth/c2pa-web`,
 * c2pa-rs compiled to WebAssembly) in Chromium: an implementation this project did not write and that
 * does not share the signing library's code. The page gets the reader's files from a bare local server.
 */
interface ReadBack {
  state: string;
  codes: string[];
  failures: string[];
  claimGenerator: string[];
  assertions: { label: string; data: unknown }[];
  ingredients: { title: string; relationship: string }[];
  /** The signing certificate's organization and common name, as c2pa-rs reads them. */
  issuer: string | null;
  signer: string | null;
}

const MIME: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

async function serveReader(): Promise<{ server: Server; url: string }> {
  // pnpm keeps the reader's own dependencies beside it: the page maps their bare names there.
  const packageJson = await realpath(createRequire(import.meta.url).resolve('@contentauth/c2pa-web/package.json'));
  const modules = join(dirname(packageJson), '..', '..');
  const page = `<!doctype html><script type="importmap">${JSON.stringify({
    imports: { highgain: '/highgain/dist/index.js', 'ts-deepmerge': '/ts-deepmerge/esm/index.js' },
  })}</script><script type="module">
    import { createC2pa } from '/@contentauth/c2pa-web/dist/index.js';
    const readers = new Map();
    window.readCredentials = async (bytes, type, anchor) => {
      if (!readers.has(anchor)) {
        const trust = anchor === null ? {} : { trust: { userAnchors: anchor } };
        readers.set(anchor, createC2pa({
          wasmSrc: '/@contentauth/c2pa-web/dist/resources/c2pa_bg.wasm',
          settings: { ...trust, verify: { verifyTrust: true } },
        }));
      }
      const reader = await (await readers.get(anchor)).reader.fromBlob(type, new Blob([bytes], { type }));
      const store = await reader.manifestStore();
      await reader.free();
      return store;
    };
  </script>`;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    if (path === '/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    const file = normalize(join(modules, path));
    if (!file.startsWith(modules)) return void response.writeHead(403).end();
    response.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file)
      .on('error', () => response.destroy())
      .pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

let browser: Browser;
let page: Page;
let server: Server;
let rootPem: string;
let credentials: ContentCredentials;

beforeAll(async () => {
  const pair = await generateDevelopmentCredentials('MediaGen test');
  rootPem = pair.rootPem;
  credentials = new ContentCredentials({ ...pair, timestampUrl: null });
  const served = await serveReader();
  server = served.server;
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...HEADLESS_CHROMIUM_ARGS] });
  page = await browser.newPage();
  await page.goto(served.url);
  await page.waitForFunction(() => 'readCredentials' in globalThis);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** The active manifest of a file as the CAI reader sees it, with the dev root as its one trust anchor. */
async function readBack(bytes: Uint8Array, mimeType: string, anchor: string | null = rootPem): Promise<ReadBack> {
  const store = await page.evaluate(
    async ([data, type, pem]) => {
      type Store = {
        active_manifest?: string;
        manifests: Record<string, Record<string, unknown>>;
        validation_state?: string;
        validation_status?: { code: string }[];
        validation_results?: { activeManifest?: Record<string, { code: string }[]> };
      };
      const read = (globalThis as unknown as { readCredentials: (...args: unknown[]) => Promise<Store> })
        .readCredentials;
      return read(
        Uint8Array.from(atob(data), (c) => c.charCodeAt(0)),
        type,
        pem,
      );
    },
    [Buffer.from(bytes).toString('base64'), mimeType, anchor] as const,
  );
  const manifest = store.manifests[store.active_manifest ?? ''] as {
    claim_generator_info?: { name: string; version?: string }[];
    assertions: { label: string; data: unknown }[];
    ingredients?: { title: string; relationship: string }[];
    signature_info?: { issuer?: string; common_name?: string };
  };
  const results = store.validation_results?.activeManifest ?? {};
  return {
    state: store.validation_state ?? 'unknown',
    codes: (results.success ?? []).map((entry) => entry.code),
    failures: [...(results.failure ?? []), ...(store.validation_status ?? [])].map((entry) => entry.code),
    claimGenerator: (manifest.claim_generator_info ?? []).map((info) => `${info.name} ${info.version ?? ''}`.trim()),
    assertions: manifest.assertions,
    ingredients: manifest.ingredients ?? [],
    issuer: manifest.signature_info?.issuer ?? null,
    signer: manifest.signature_info?.common_name ?? null,
  };
}

const actionsOf = (read: ReadBack) =>
  (read.assertions.find((assertion) => assertion.label.startsWith('c2pa.actions'))?.data as {
    actions: { action: string; digitalSourceType?: string; parameters?: Record<string, unknown> }[];
  }) ?? { actions: [] };

/**
 * What the reader read of an original and of its marked copy, in the words of the summary the worker keeps
 * with the stored output. Not its time: without a timestamp authority a manifest carries none.
 */
function summaryAsRead(original: ReadBack, marked: ReadBack): Omit<ContentCredentialsSummary, 'signedAt'> {
  const created = actionsOf(original).actions[0];
  // Both copies are signed by the same certificate and generator; the summary says them once.
  expect([marked.signer, marked.issuer, marked.claimGenerator]).toEqual([
    original.signer,
    original.issuer,
    original.claimGenerator,
  ]);
  return {
    signedBy: original.signer!,
    ...(original.issuer === null ? {} : { issuer: original.issuer }),
    generator: original.claimGenerator[0]!,
    model: created?.parameters?.model as string,
    digitalSourceType: created?.digitalSourceType?.split('/').pop() as 'trainedAlgorithmicMedia',
    actions: {
      original: actionsOf(original).actions.map(
        (action) => action.action,
      ) as ContentCredentialsSummary['actions']['original'],
      marked: actionsOf(marked).actions.map(
        (action) => action.action,
      ) as ContentCredentialsSummary['actions']['marked'],
    },
  };
}

/** Signs an output, noting the moments before and after, which the summary's time must lie between. */
async function signTimed(
  output: { clean: Uint8Array; marked: Uint8Array },
  mimeType: string,
  model: string,
): Promise<{ signed: SignedOutput; before: number; after: number }> {
  const before = Date.now();
  const signed = (await credentials.signOutput(output, mimeType, model))!;
  return { signed, before, after: Date.now() };
}

/** The summary kept with a stored output says what the CAI reader reads in its two files. */
async function expectSummaryAsRead({ signed, before, after }: Awaited<ReturnType<typeof signTimed>>, mimeType: string) {
  const [original, marked] = [await readBack(signed.clean, mimeType), await readBack(signed.marked, mimeType)];
  expect([original.failures, marked.failures]).toEqual([[], []]);
  expect(signed.summary).toEqual({ ...summaryAsRead(original, marked), signedAt: signed.summary.signedAt });
  expect(Date.parse(signed.summary.signedAt)).toBeGreaterThanOrEqual(before);
  expect(Date.parse(signed.summary.signedAt)).toBeLessThanOrEqual(after);
}

/** Flips one byte inside the PNG's first IDAT chunk: the pixels, not the manifest. */
function tamperPng(png: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(png);
  const idat = Buffer.from(copy).indexOf('IDAT');
  copy[idat + 12] = copy[idat + 12]! ^ 0xff;
  return copy;
}

/**
 * Flips one byte of a JPEG's entropy-coded picture, past the segments before its scan (the manifest's APP11
 * among them); a byte that would become a marker (0xFF) is skipped, so the file still parses.
 */
function tamperJpeg(jpeg: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(jpeg);
  const segmentLength = (at: number) => (copy[at + 2]! << 8) | copy[at + 3]!;
  let at = 2;
  while (copy[at + 1] !== 0xda) at += 2 + segmentLength(at);
  let pixel = at + 2 + segmentLength(at) + 8;
  while (copy[pixel]! >= 0xfe) pixel += 1;
  copy[pixel] = copy[pixel]! ^ 0x01;
  return copy;
}

describe('Content Credentials read by the CAI reader', () => {
  let timed: Awaited<ReturnType<typeof signTimed>>;
  let image: SignedOutput;

  beforeAll(async () => {
    const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    timed = await signTimed(await markOutput('image', png, 'png'), 'image/png', 'sd3.5-large');
    image = timed.signed;
  });

  it('the original says it was created by a trained model, by MediaGen, signed with a trusted chain', async () => {
    const read = await readBack(image.clean, 'image/png');
    expect(read.failures).toEqual([]);
    expect(read.state).toBe('Trusted');
    expect(read.codes).toEqual(
      expect.arrayContaining(['claimSignature.validated', 'signingCredential.trusted', 'assertion.dataHash.match']),
    );
    expect(read.claimGenerator).toEqual(['MediaGen 1.0.0']);
    expect(read.issuer).toBe('MediaGen');
    expect(actionsOf(read).actions[0]).toMatchObject({
      action: 'c2pa.created',
      digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
      parameters: { model: 'sd3.5-large' },
    });
  });

  it('the marked copy names the original as its parent and says it was watermarked', async () => {
    const read = await readBack(image.marked, 'image/png');
    expect(read.failures).toEqual([]);
    expect(read.state).toBe('Trusted');
    expect(actionsOf(read).actions.map((action) => action.action)).toEqual(['c2pa.opened', 'c2pa.watermarked']);
    expect(read.ingredients).toEqual([expect.objectContaining({ title: 'Original output', relationship: 'parentOf' })]);
  });

  it('one changed byte of the picture fails validation', async () => {
    const read = await readBack(tamperPng(image.clean), 'image/png');
    expect(read.state).toBe('Invalid');
    expect(read.failures).toContain('assertion.dataHash.mismatch');
  });

  it('the summary kept with the stored output says what the reader reads in both files', async () => {
    await expectSummaryAsRead(timed, 'image/png');
    expect(image.summary).toMatchObject({
      signedBy: 'MediaGen test signer',
      issuer: 'MediaGen',
      generator: 'MediaGen 1.0.0',
      model: 'sd3.5-large',
      actions: { original: ['c2pa.created'], marked: ['c2pa.opened', 'c2pa.watermarked'] },
    });
  });

  it('without the dev root as an anchor the signature still verifies, from an untrusted source', async () => {
    const read = await readBack(image.clean, 'image/png', null);
    expect(read.codes).toContain('claimSignature.validated');
    expect(read.failures).toContain('signingCredential.untrusted');
  });
});

describe('Content Credentials on a JPEG', () => {
  let timed: Awaited<ReturnType<typeof signTimed>>;

  beforeAll(async () => {
    const picture = (background: string) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background } })
        .jpeg()
        .toBuffer();
    timed = await signTimed(
      { clean: await picture('#aa6633'), marked: await picture('#33aa66') },
      'image/jpeg',
      'sd3.5-large',
    );
  });

  it('the original and its marked copy verify, and the summary says what the reader reads', async () => {
    for (const bytes of [timed.signed.clean, timed.signed.marked]) {
      const read = await readBack(bytes, 'image/jpeg');
      expect(read.failures).toEqual([]);
      expect(read.state).toBe('Trusted');
      expect(read.codes).toEqual(expect.arrayContaining(['claimSignature.validated', 'assertion.dataHash.match']));
    }
    await expectSummaryAsRead(timed, 'image/jpeg');
  });

  it('one changed byte of the picture fails validation', async () => {
    const read = await readBack(tamperJpeg(timed.signed.clean), 'image/jpeg');
    expect(read.state).toBe('Invalid');
    expect(read.failures).toContain('assertion.dataHash.mismatch');
  });
});

describe('Content Credentials on speech', () => {
  it('an MP3 and its chimed copy are signed and verify', async () => {
    const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp(join(process.env.TMPDIR ?? '/tmp', 'c2pa-')));
    const file = join(dir, 'voice.mp3');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.5', '-c:a', 'libmp3lame', file], 30_000);
    const { readFile, rm } = await import('node:fs/promises');
    const speech = await markOutput('speech', await readFile(file), 'mp3');
    await rm(dir, { recursive: true, force: true });
    const timed = await signTimed(speech, 'audio/mpeg', 'gpt-4o-mini-tts');
    for (const bytes of [timed.signed.clean, timed.signed.marked]) {
      const read = await readBack(bytes, 'audio/mpeg');
      expect(read.failures).toEqual([]);
      expect(read.state).toBe('Trusted');
    }
    await expectSummaryAsRead(timed, 'audio/mpeg');
  });

  it('formats the library cannot sign yet are left to their plain metadata', async () => {
    const bytes = { clean: new Uint8Array([1]), marked: new Uint8Array([2]) };
    expect(await credentials.signOutput(bytes, 'video/mp4', 'T2V-01')).toBeNull();
    expect(await credentials.signOutput(bytes, 'audio/wav', 'tts-1')).toBeNull();
  });
});
