import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadPolicy } from '../src/config';
import { GenerationError } from '../src/generation-error';
import { DownloadRefused, GuardedDownloader } from '../src/providers/guarded-download';
import { NetworkError } from '../src/providers/http';
import { MiniMaxClient } from '../src/providers/minimax-client';

/**
 * A provider's answer decides where the worker downloads a video from, so that address is checked like
 * untrusted input. `provider` stands in for the provider's own host (a development host, reachable over
 * http on loopback); `internal` for something on the worker's network that must never be fetched.
 */
let provider: Server;
let internal: Server;
let providerHost: string;
let internalHost: string;

const routes: Record<string, (response: import('node:http').ServerResponse) => void> = {
  '/video.mp4': (response) => response.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(1024, 7)),
  '/large.mp4': (response) => response.writeHead(200, { 'content-length': 3 << 20 }).end(Buffer.alloc(3 << 20)),
  '/endless.mp4': (response) => {
    response.writeHead(200, { 'content-type': 'video/mp4' }); // chunked: no length to check up front
    const write = () => {
      if (response.write(Buffer.alloc(64 * 1024))) setImmediate(write);
      else response.once('drain', write);
    };
    write();
    response.on('close', () => response.destroy());
  },
  '/hang.mp4': () => undefined,
  '/to-internal': (response) => response.writeHead(302, { location: `http://${internalHost}/metrics` }).end(),
  '/to-loopback-https': (response) =>
    response.writeHead(302, { location: `https://127.0.0.1:${internalHost.split(':')[1]}/metrics` }).end(),
  '/to-unlisted': (response) => response.writeHead(301, { location: 'https://files.attacker.example/x.mp4' }).end(),
  '/to-localhost-name': (response) =>
    response.writeHead(307, { location: `https://localhost:${internalHost.split(':')[1]}/metrics` }).end(),
  '/to-self': (response) => response.writeHead(302, { location: '/to-self' }).end(),
};

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; host: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  ({ server: provider, host: providerHost } = await listen((request, response) => {
    const route = routes[request.url ?? ''];
    if (route) route(response);
    else response.writeHead(404).end();
  }));
  ({ server: internal, host: internalHost } = await listen((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/plain' }).end('mediagen_secret_metric 1\n'),
  ));
});
afterAll(() => {
  provider.closeAllConnections();
  provider.close();
  internal.close();
});

function downloader(overrides: Partial<DownloadPolicy> = {}) {
  return new GuardedDownloader({
    allowedHosts: ['minimax.io', 'localhost'],
    httpsUpgradeHosts: ['minimax.io'],
    developmentHosts: [providerHost],
    maxBytes: 1 << 20,
    timeoutMs: 2000,
    maxRedirects: 3,
    ...overrides,
  });
}

describe('a provider file download', () => {
  it('fetches from the provider host within the limits', async () => {
    const download = await downloader().fetch(`http://${providerHost}/video.mp4`);
    expect(download.status).toBe(200);
    expect(download.bytes.byteLength).toBe(1024);
    expect(download.contentType).toBe('video/mp4');
  });

  it('refuses plain http, unlisted hosts and non-public addresses, before connecting', async () => {
    const guard = downloader();
    await expect(guard.fetch(`http://${internalHost}/metrics`)).rejects.toThrow(/http: is not https/);
    await expect(guard.fetch('https://files.attacker.example/x.mp4')).rejects.toThrow(/not an allowed file host/);
    await expect(guard.fetch('https://169.254.169.254/latest/meta-data')).rejects.toThrow(/not a public address/);
    await expect(guard.fetch('https://[::1]/x')).rejects.toThrow(/not a public address/);
    await expect(guard.fetch('file:///etc/passwd')).rejects.toThrow(DownloadRefused);
  });

  it("fetches the provider's own http:// links over https, still under every check; other http:// links are refused", async () => {
    // `localhost` stands for the provider's own file host: upgraded to https, then refused at connect
    // time for resolving to loopback, so the upgrade opens no way around the guard.
    const guard = downloader({ httpsUpgradeHosts: ['localhost'] });
    await expect(guard.fetch(`http://localhost:${internalHost.split(':')[1]}/metrics`)).rejects.toThrow(
      /localhost resolves to a non-public address/,
    );
    await expect(guard.fetch('http://files.attacker.example/x.mp4')).rejects.toThrow(/http: is not https/);
  });

  it('refuses a listed name that resolves to a private address (checked at connect time)', async () => {
    await expect(downloader().fetch(`https://localhost:${internalHost.split(':')[1]}/metrics`)).rejects.toThrow(
      /localhost resolves to a non-public address/,
    );
  });

  it('checks every redirect again, and stops after a few', async () => {
    const guard = downloader();
    const base = `http://${providerHost}`;
    await expect(guard.fetch(`${base}/to-internal`)).rejects.toThrow(/http: is not https/);
    await expect(guard.fetch(`${base}/to-loopback-https`)).rejects.toThrow(/not a public address/);
    await expect(guard.fetch(`${base}/to-unlisted`)).rejects.toThrow(/not an allowed file host/);
    await expect(guard.fetch(`${base}/to-localhost-name`)).rejects.toThrow(/resolves to a non-public address/);
    await expect(guard.fetch(`${base}/to-self`)).rejects.toThrow(/too many redirects/);
  });

  it('stops at the size cap, whether or not the size is announced', async () => {
    const guard = downloader();
    await expect(guard.fetch(`http://${providerHost}/large.mp4`)).rejects.toThrow(/larger than 1048576 bytes/);
    await expect(guard.fetch(`http://${providerHost}/endless.mp4`)).rejects.toThrow(/larger than 1048576 bytes/);
  });

  it('gives up after its time limit', async () => {
    const error = await downloader({ timeoutMs: 300 })
      .fetch(`http://${providerHost}/hang.mp4`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).outcome).toBe('timeout');
  });
});

describe('the video download of a MiniMax answer', () => {
  it('fails the job clearly, without retrying, when the answer points at an internal address', async () => {
    const guard = downloader();
    const client = new MiniMaxClient({
      baseUrl: `http://${providerHost}`,
      apiKey: 'key',
      groupId: 'group',
      download: (url, signal) => guard.fetch(url, signal),
    });
    const error = await client
      .downloadVideo(`https://127.0.0.1:${internalHost.split(':')[1]}/metrics`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect(error).toMatchObject({ code: 'VIDEO_URL_FAILED', retryable: false });
    expect((error as Error).message).toMatch(/^Failed to get video URL: .*not a public address/);
  });
});
