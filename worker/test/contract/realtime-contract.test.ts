import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { createDevelopmentCertificate } from '@mediagen/simulator';
import { openai } from '@mediagen/simulator/documented-examples';
import { RealtimeSpeechClient } from '../../src/providers/realtime/realtime-speech-client';
import type { SpeechInput } from '../../src/providers/speech-synthesizer';

/**
 * The Realtime client against OpenAI's own event examples (sources in
 * simulator/src/contract/documented-examples.ts): it sends only documented fields and reads the documented
 * events as the reference means them. A replay server over TLS answers each client event with them.
 */
const { clientEvents, serverEvents } = openai.realtime;
/** The documented audio, transcript and done events name `resp_001`; the created one is made to agree. */
const RESPONSE_ID = 'resp_001';
const DOCUMENTED_TRANSCRIPT = serverEvents.outputAudioTranscriptDone.event.transcript;

type Reply = (received: Record<string, unknown>, send: (event: object) => void) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function replaying(replyTo: Record<string, Reply>) {
  const certificate = await createDevelopmentCertificate();
  const server = createServer({ key: certificate.key, cert: certificate.cert });
  servers.push(server);
  const sockets = new WebSocketServer({ server, path: '/v1/realtime' });
  const received: Record<string, unknown>[] = [];
  sockets.on('connection', (socket: WebSocket) => {
    const send = (event: object) => socket.send(JSON.stringify(event));
    send(serverEvents.sessionCreated.event);
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as Record<string, unknown>;
      received.push(event);
      replyTo[event.type as string]?.(event, send);
    });
  });
  server.on('close', () => sockets.clients.forEach((socket) => socket.terminate()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new RealtimeSpeechClient({
    apiKey: 'sk-test',
    endpoint: async () => ({ baseUrl: `https://127.0.0.1:${port}/v1`, ca: certificate.cert }),
  });
  return { client, received };
}

const sessionUpdated: Reply = (_received, send) => send(serverEvents.sessionUpdated.event);
const documentedReading: Reply = (_received, send) => {
  send({
    ...serverEvents.responseCreated.event,
    response: { ...serverEvents.responseCreated.event.response, id: RESPONSE_ID },
  });
  send(serverEvents.outputAudioDelta.event);
  send(serverEvents.outputAudioTranscriptDelta.event);
  send(serverEvents.outputAudioTranscriptDone.event);
  send({
    ...serverEvents.responseDone.event,
    response: { ...serverEvents.responseDone.event.response, id: RESPONSE_ID },
  });
  send(serverEvents.rateLimitsUpdated.event);
};

const speech: SpeechInput = {
  input: DOCUMENTED_TRANSCRIPT,
  voice: 'alloy',
  language: 'en-US',
  speed: 1,
  format: 'wav',
  model: 'gpt-realtime-2.1-mini',
};

const keysOf = (value: unknown) => Object.keys(value as object);
async function failure(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => expect.unreachable('the reading should have failed'),
    (error: unknown) => error,
  );
}

describe(`the Realtime API (${serverEvents.responseDone.source})`, () => {
  it('sends only documented fields, and reads the audio and transcript of the documented events', async () => {
    const { client, received } = await replaying({
      'session.update': sessionUpdated,
      'response.create': documentedReading,
    });
    const audio = await client.synthesize(speech, AbortSignal.timeout(10_000));
    // The documented 10 ms of audio, as WAV: 44 bytes of header and 480 of samples.
    expect(audio.mimeType).toBe('audio/wav');
    expect(Buffer.from(audio.bytes).subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(audio.bytes.byteLength).toBeGreaterThanOrEqual(44 + 480);

    const [update, create] = received;
    expect(update!.type).toBe(clientEvents.sessionUpdate.event.type);
    const session = update!.session as Record<string, Record<string, Record<string, unknown>>>;
    const documentedSession = serverEvents.sessionCreated.event.session;
    expect(keysOf(session).filter((key) => !keysOf(documentedSession).includes(key))).toEqual([]);
    expect(
      keysOf(session.audio!.output).filter((key) => !keysOf(documentedSession.audio.output).includes(key)),
    ).toEqual([]);
    expect(session.audio!.output).toMatchObject({ format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy' });

    expect(create!.type).toBe('response.create');
    const response = create!.response as Record<string, unknown>;
    const documentedResponseFields = [
      ...keysOf(clientEvents.responseCreateOutOfBand.event.response),
      ...keysOf(serverEvents.responseDone.event.response),
    ];
    expect(keysOf(response).filter((key) => !documentedResponseFields.includes(key))).toEqual([]);
    expect(response).toMatchObject({
      conversation: 'none',
      output_modalities: ['audio'],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<text>\n${speech.input}\n</text>` }] },
      ],
    });
  });

  it(`waits for a response failed for rate (${serverEvents.responseDoneFailed.source})`, async () => {
    const { client } = await replaying({
      'session.update': sessionUpdated,
      'response.create': (_received, send) => send(serverEvents.responseDoneFailed.event),
    });
    expect(await failure(client.synthesize(speech, AbortSignal.timeout(10_000)))).toMatchObject({
      name: 'ProviderBusyError',
      provider: 'openai',
      reason: 'rate_limited',
    });
  });

  it(`fails for good on the documented error event (${serverEvents.error.source})`, async () => {
    const { client } = await replaying({
      'session.update': (_received, send) => send(serverEvents.error.event),
    });
    expect(await failure(client.synthesize(speech, AbortSignal.timeout(10_000)))).toMatchObject({
      code: 'SPEECH_FAILED',
      retryable: false,
      outcome: 'http_4xx',
    });
  });
});
