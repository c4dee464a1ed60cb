import { X509Certificate } from 'node:crypto';
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createSimulator } from '../src/index';
import { NAME_ANSWER } from '../src/openai/realtime/simulatedModel';
import { postJson, startSimulator } from './helpers';
import {
  AUTHORIZATION,
  REALTIME_MODEL,
  RealtimeTestClient,
  clientOptions,
  readingRequest,
  realtimeUrl,
  refusedHandshake,
  startRealtimeSimulator,
  testCertificate,
} from './realtimeClient';

const PCM_BYTES_PER_SECOND = 24_000 * 2;
const SENTENCE = 'The lighthouse keeper counted the ships as they passed the rocks at dusk.';

/** The worker's session.update (audio only, no turn detection, voice coral). */
const WORKER_SESSION = {
  output_modalities: ['audio'],
  instructions: 'You read texts aloud for a narration service.',
  audio: {
    input: { turn_detection: null },
    output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'coral', speed: 1 },
  },
};

describe('Realtime handshake', () => {
  it('refuses a handshake without a bearer key with HTTP 401 in OpenAI error shape', async () => {
    const simulator = await startRealtimeSimulator();
    for (const headers of [{}, { Authorization: 'Bearer ' }] as Record<string, string>[]) {
      const refused = await refusedHandshake(simulator, headers);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({
        error: { message: expect.stringMatching(/API key/), type: 'invalid_request_error', param: null, code: null },
      });
    }
  });

  it('answers an unknown model with an error event, then closes', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.open(simulator, 'gpt-4o-mini-tts');
    const error = await client.next('error');
    expect(error).toMatchObject({
      event_id: expect.stringMatching(/^event_/),
      error: {
        type: 'invalid_request_error',
        code: 'model_not_found',
        message: expect.stringContaining('gpt-4o-mini-tts'),
      },
    });
    await client.closed;
    expect(client.events.map((event) => event.type)).toEqual(['error']);
    expect(simulator.realtimeSessions()).toEqual([]);
  });

  it('greets a client with session.created and the default session', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.open(simulator, 'gpt-realtime');
    const created = await client.next('session.created');
    expect(created).toEqual({
      type: 'session.created',
      event_id: expect.stringMatching(/^event_[A-Za-z0-9]{21}$/),
      session: expect.objectContaining({
        type: 'realtime',
        object: 'realtime.session',
        id: expect.stringMatching(/^sess_/),
        model: 'gpt-realtime',
        output_modalities: ['audio'],
        instructions: expect.stringMatching(/helpful, witty, and friendly AI/),
        tools: [],
        tool_choice: 'auto',
        max_output_tokens: 'inf',
        expires_at: expect.any(Number),
        audio: {
          input: expect.objectContaining({
            format: { type: 'audio/pcm', rate: 24000 },
            turn_detection: expect.objectContaining({ type: 'server_vad' }),
          }),
          output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'marin', speed: 1 },
        },
      }),
    });
    expect(simulator.stats().requests['realtime.connect']).toBe(1);
  });

  it('answers plain HTTPS requests and upgrades on other paths with 404 in OpenAI error shape', async () => {
    const simulator = await startRealtimeSimulator();
    const { ca } = await clientOptions();
    const plain = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      https
        .get(`${simulator.secureUrl}/v1/models`, { ca }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += String(chunk)));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
    expect(plain.status).toBe(404);
    expect(JSON.parse(plain.body)).toMatchObject({ error: { message: 'Invalid URL (GET /v1/models)' } });

    const elsewhere = await refusedHandshake(
      simulator,
      AUTHORIZATION,
      realtimeUrl(simulator).replace('/v1/realtime', '/v1/other'),
    );
    expect(elsewhere.status).toBe(404);
    expect(simulator.stats().requests['realtime.connect']).toBe(0);
  });

  it('has a secure URL once it listens, on a port of its own', async () => {
    expect(() => createSimulator().secureUrl).toThrow(/listen/);
    const simulator = await startRealtimeSimulator();
    expect(simulator.secureUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(simulator.secureUrl).not.toBe(simulator.url.replace('http', 'https'));
  });

  it('tells its TLS port and certificate (never its key) at GET /__sim/tls', async () => {
    const simulator = await startRealtimeSimulator();
    const response = await fetch(`${simulator.url}/__sim/tls`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      port: Number(new URL(simulator.secureUrl).port),
      certificate: (await testCertificate()).cert,
    });
  });

  it('makes a certificate of its own when given none, for the host it listens on, and serves with it', async () => {
    const simulator = await startSimulator();
    const announced = (await (await fetch(`${simulator.url}/__sim/tls`)).json()) as { certificate: string };
    expect(announced.certificate).toBe(simulator.certificate);
    const certificate = new X509Certificate(simulator.certificate);
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    const socket = new WebSocket(realtimeUrl(simulator), { ca: simulator.certificate, headers: AUTHORIZATION });
    const first = await new Promise<{ type: string }>((resolve, reject) => {
      socket.once('message', (data) => resolve(JSON.parse(String(data)) as { type: string }));
      socket.once('error', reject);
    });
    socket.close();
    expect(first.type).toBe('session.created');
  });
});

describe('Realtime session.update', () => {
  it("takes the worker's configuration and answers with the whole session", async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    const updated = await client.updateSession(WORKER_SESSION);
    expect(updated.session).toMatchObject({
      type: 'realtime',
      model: REALTIME_MODEL,
      instructions: WORKER_SESSION.instructions,
      max_output_tokens: 'inf',
      audio: {
        input: { turn_detection: null, format: { type: 'audio/pcm', rate: 24000 } },
        output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'coral', speed: 1 },
      },
    });
    expect(simulator.realtimeSessions()).toEqual([
      {
        id: (updated.session as { id: string }).id,
        model: REALTIME_MODEL,
        voice: 'coral',
        speed: 1,
        outputFormat: 'audio/pcm',
        instructions: WORKER_SESSION.instructions,
        responses: [],
      },
    ]);
  });

  it.each([
    ['a speed over 1.5', { audio: { output: { speed: 2 } } }, 'session.audio.output.speed', 'invalid_value'],
    ['a speed under 0.25', { audio: { output: { speed: 0.1 } } }, 'session.audio.output.speed', 'invalid_value'],
    [
      'a speech-endpoint voice',
      { audio: { output: { voice: 'nova' } } },
      'session.audio.output.voice',
      'invalid_value',
    ],
    [
      'PCM at 16 kHz',
      { audio: { output: { format: { type: 'audio/pcm', rate: 16000 } } } },
      'session.audio.output.format.rate',
      'invalid_value',
    ],
    [
      'an unknown format',
      { audio: { output: { format: { type: 'audio/mp3' } } } },
      'session.audio.output.format.type',
      'invalid_value',
    ],
    ['text and audio at once', { output_modalities: ['text', 'audio'] }, 'session.output_modalities', 'invalid_value'],
    ['an unknown modality', { output_modalities: ['video'] }, 'session.output_modalities', 'invalid_value'],
    ['4097 output tokens', { max_output_tokens: 4097 }, 'session.max_output_tokens', 'invalid_value'],
    ['0 output tokens', { max_output_tokens: 0 }, 'session.max_output_tokens', 'invalid_value'],
    ["the beta API's voice field", { voice: 'coral' }, 'session.voice', 'unknown_parameter'],
  ])('refuses %s with an error event and leaves the session unchanged', async (_case, session, param, code) => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    client.send({ type: 'session.update', event_id: 'event_client_1', session: { type: 'realtime', ...session } });
    const error = await client.next('error');
    expect(error.error).toEqual({
      type: 'invalid_request_error',
      code,
      message: expect.any(String),
      param,
      event_id: 'event_client_1',
    });
    // An empty update echoes the session as it is.
    const unchanged = await client.updateSession({});
    expect(unchanged.session).toMatchObject({
      output_modalities: ['audio'],
      max_output_tokens: 'inf',
      audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'marin', speed: 1 } },
    });
  });

  it('needs the session type', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    client.send({ type: 'session.update', session: { instructions: 'hi' } });
    expect((await client.next('error')).error).toMatchObject({
      code: 'missing_required_parameter',
      param: 'session.type',
    });
  });

  it('keeps the voice once the session has produced audio', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    await client.updateSession({ audio: { output: { voice: 'ash' } } });
    await client.respond(readingRequest('Hello there.'));
    client.send({ type: 'session.update', session: { type: 'realtime', audio: { output: { voice: 'coral' } } } });
    expect((await client.next('error')).error).toMatchObject({
      code: 'cannot_update_voice',
      param: 'session.audio.output.voice',
    });
    const same = await client.updateSession({ audio: { output: { voice: 'ash', speed: 1.2 } } });
    expect(same.session).toMatchObject({ audio: { output: { voice: 'ash', speed: 1.2 } } });
  });
});

describe('Realtime reading', () => {
  it('reads an out-of-band part word for word: audio, transcript, usage, then the rate limits', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    await client.updateSession(WORKER_SESSION);
    const response = await client.respond(readingRequest(SENTENCE, { max_output_tokens: 1000 }));

    expect(
      response.events.map((event) => event.type).filter((type, index, all) => all.indexOf(type) === index),
    ).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_audio_transcript.delta',
      'response.output_audio.delta',
      'response.output_audio.done',
      'response.output_audio_transcript.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.done',
    ]);
    expect(response.transcript).toBe(SENTENCE);
    expect(response.transcriptFromDeltas).toBe(SENTENCE);
    expect(response.audio.length).toBeGreaterThan(0);
    expect(response.audio.length % 2).toBe(0);

    const [record] = simulator.realtimeSessions()[0]!.responses;
    expect(record).toEqual({
      id: response.id,
      instructions: 'Read the text between <text> and </text> aloud, word for word.',
      text: SENTENCE,
      transcript: SENTENCE,
      status: 'completed',
      audioSeconds: response.audio.length / PCM_BYTES_PER_SECOND,
    });

    const { response: done } = response.done;
    expect(done).toMatchObject({
      object: 'realtime.response',
      id: expect.stringMatching(/^resp_/),
      status: 'completed',
      status_details: null,
      conversation_id: null,
      output_modalities: ['audio'],
      max_output_tokens: 1000,
      metadata: { part: '1' },
      audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'coral' } },
      output: [
        {
          id: expect.stringMatching(/^item_/),
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_audio', transcript: SENTENCE }],
        },
      ],
    });
    expect(done.usage).toMatchObject({
      output_token_details: {
        text_tokens: Math.ceil(SENTENCE.length / 4),
        audio_tokens: Math.ceil(record!.audioSeconds * 20),
      },
    });
    expect(done.usage!.total_tokens).toBe(done.usage!.input_tokens + done.usage!.output_tokens);

    const rateLimits = await client.next('rate_limits.updated');
    expect(client.events.indexOf(rateLimits)).toBeGreaterThan(client.events.indexOf(response.events.at(-1)!));
    expect(rateLimits.rate_limits).toEqual([
      { name: 'requests', limit: expect.any(Number), remaining: expect.any(Number), reset_seconds: expect.any(Number) },
      { name: 'tokens', limit: expect.any(Number), remaining: expect.any(Number), reset_seconds: expect.any(Number) },
    ]);
  });

  it('reads the last user message of the default conversation, and adds its answer to it', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    await client.updateSession({ ...WORKER_SESSION, instructions: 'Read the user text word for word.' });
    for (const text of ['An earlier part.', `<text>${SENTENCE}</text>`]) {
      client.send({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
      });
      const added = await client.next('conversation.item.added');
      expect(added.item).toMatchObject({ id: expect.stringMatching(/^item_/), object: 'realtime.item', role: 'user' });
      expect((await client.next('conversation.item.done')).item).toEqual(added.item);
    }
    const response = await client.respond();
    expect(response.transcript).toBe(SENTENCE);
    expect(response.done.response.conversation_id).toMatch(/^conv_/);
    expect(response.events.some((event) => event.type === 'conversation.item.added')).toBe(true);
    expect(simulator.realtimeSessions()[0]!.responses[0]).toMatchObject({
      instructions: 'Read the user text word for word.',
      text: SENTENCE,
    });
  });

  it('answers a question as a voice agent, unless told to read word for word', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    const question = 'What is your name?';

    const answered = await client.respond(readingRequest(question, { instructions: 'Read this text aloud.' }));
    expect(answered.transcript).toBe(NAME_ANSWER);
    const read = await client.respond(
      readingRequest(question, { instructions: 'Read this text aloud, Word For Word.' }),
    );
    expect(read.transcript).toBe(question);
    // Without "word for word", anything but a question is still read.
    const statement = await client.respond(readingRequest(SENTENCE, { instructions: 'Read this text aloud.' }));
    expect(statement.transcript).toBe(SENTENCE);
    // Without response instructions, the session's are in force.
    await client.updateSession({ instructions: 'Always read word for word.' });
    const { instructions: _none, ...withoutInstructions } = readingRequest(question);
    expect((await client.respond(withoutInstructions)).transcript).toBe(question);
  });

  it('reads only what is between <text> and </text>, trimmed', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    const response = await client.respond({
      ...readingRequest(''),
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Read this part:\n<text>\n   Hello from the lighthouse.  \n</text>\nThanks!' },
          ],
        },
      ],
    });
    expect(response.transcript).toBe('Hello from the lighthouse.');
    expect(simulator.realtimeSessions()[0]!.responses[0]!.text).toBe('Hello from the lighthouse.');
  });

  it('stops at max_output_tokens and ends incomplete, with what it said so far', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    const response = await client.respond(readingRequest(SENTENCE, { max_output_tokens: 30 }));
    expect(response.done.response).toMatchObject({
      status: 'incomplete',
      status_details: { type: 'incomplete', reason: 'max_output_tokens' },
      output: [{ status: 'incomplete' }],
    });
    expect(response.done.response.usage!.output_tokens).toBeLessThanOrEqual(30);
    expect(response.transcript!.length).toBeGreaterThan(0);
    expect(SENTENCE.startsWith(response.transcript!)).toBe(true);
    expect(simulator.realtimeSessions()[0]!.responses[0]).toMatchObject({
      status: 'incomplete',
      transcript: response.transcript,
      audioSeconds: response.audio.length / PCM_BYTES_PER_SECOND,
    });
  });

  // Minutes of audio: streamed as fast as it is made, never paced in real time (the test's limit would end it).
  it('streams a 4,000-character reading, cut at the model maximum of 4,096 tokens', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    const text = `${SENTENCE} `.repeat(54).trim().slice(0, 4000);
    const response = await client.respond(readingRequest(text));
    expect(response.done.response.usage!.output_tokens).toBeLessThanOrEqual(4096);
    expect(text.startsWith(response.transcript!)).toBe(true);
    expect(response.transcript!.length).toBeGreaterThan(1000);
  });

  it('waits latencyMs before each response, as before each HTTP answer', async () => {
    const simulator = await startRealtimeSimulator({ latencyMs: 250 });
    const client = await RealtimeTestClient.connect(simulator);
    const started = performance.now();
    await client.respond(readingRequest('Hello.'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('writes text when asked for text only, and encodes G.711 when asked for it', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    const text = await client.respond(readingRequest(SENTENCE, { output_modalities: ['text'] }));
    expect(text.audio.length).toBe(0);
    expect(
      text.events
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe(SENTENCE);
    expect(text.done.response.output).toEqual([
      expect.objectContaining({ content: [{ type: 'output_text', text: SENTENCE }] }),
    ]);

    const muLaw = await client.respond(
      readingRequest(SENTENCE, { audio: { output: { format: { type: 'audio/pcmu' } } } }),
    );
    const [, record] = simulator.realtimeSessions()[0]!.responses;
    expect(muLaw.audio.length).toBe(record!.audioSeconds * 8000);
    expect(muLaw.done.response).toMatchObject({ audio: { output: { format: { type: 'audio/pcmu' } } } });
  });
});

describe('Realtime client errors and response.cancel', () => {
  it('answers invalid JSON, an unknown event type and a missing type with error events', async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    client.socket.send('{ not json');
    expect((await client.next('error')).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    client.send({ type: 'response.explode', event_id: 'event_x' });
    expect((await client.next('error')).error).toMatchObject({
      code: 'invalid_value',
      param: 'type',
      event_id: 'event_x',
    });
    client.send({ event_id: 'event_y' });
    expect((await client.next('error')).error).toMatchObject({
      code: 'invalid_event',
      message: "The 'type' field is missing.",
      event_id: 'event_y',
    });
  });

  it('runs one response at a time, and cancels the one in progress', async () => {
    // In real time, so the response is still streaming when the client acts.
    const simulator = await startRealtimeSimulator({ realtimeSpeedup: 1 });
    const client = await RealtimeTestClient.connect(simulator);
    client.send({ type: 'response.create', response: readingRequest(SENTENCE) });
    await client.next('response.output_audio.delta');

    client.send({ type: 'response.create', event_id: 'event_second', response: readingRequest('Another part.') });
    expect((await client.next('error')).error).toMatchObject({
      code: 'conversation_already_has_active_response',
      event_id: 'event_second',
    });

    client.send({ type: 'response.cancel' });
    const done = await client.next('response.done');
    expect(done.response).toMatchObject({
      status: 'cancelled',
      status_details: { type: 'cancelled', reason: 'client_cancelled' },
    });
    const transcript = String((await client.next('response.output_audio_transcript.done')).transcript);
    expect(transcript.length).toBeLessThan(SENTENCE.length);
    expect(SENTENCE.startsWith(transcript)).toBe(true);
    expect(simulator.realtimeSessions()[0]!.responses).toEqual([
      expect.objectContaining({ status: 'cancelled', transcript }),
    ]);

    client.send({ type: 'response.cancel', event_id: 'event_nothing' });
    expect((await client.next('error')).error).toMatchObject({
      code: 'response_cancel_not_active',
      event_id: 'event_nothing',
    });
    expect(simulator.stats().requests['realtime.response']).toBe(1);
  });
});

describe('Realtime faults', () => {
  it.each([
    ['http429', 429, 'rate_limit_exceeded'],
    ['insufficient-quota', 429, 'insufficient_quota'],
    ['http500', 500, null],
  ] as const)('realtime.connect %s refuses the handshake with HTTP %i', async (fault, status, code) => {
    const simulator = await startRealtimeSimulator({
      faults: [{ route: 'realtime.connect', fault, times: 1, retryAfterSeconds: 4 }],
    });
    const refused = await refusedHandshake(simulator);
    expect(refused.status).toBe(status);
    expect(refused.body).toMatchObject({ error: { code } });
    if (fault === 'http429') expect(refused.headers['retry-after']).toBe('4');
    // Used up: the next handshake goes through.
    await RealtimeTestClient.connect(simulator);
    expect(simulator.stats().requests['realtime.connect']).toBe(2);
  });

  it('realtime.connect drop cuts the connection and hang never answers, until close()', async () => {
    const simulator = await startRealtimeSimulator({
      faults: [
        { route: 'realtime.connect', fault: 'drop', times: 1 },
        { route: 'realtime.connect', fault: 'hang' },
      ],
    });
    const dropped = new WebSocket(realtimeUrl(simulator), await clientOptions());
    await expect(new Promise((_resolve, reject) => dropped.once('error', reject))).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );

    const hung = new WebSocket(realtimeUrl(simulator), { ...(await clientOptions()), handshakeTimeout: 300 });
    await expect(new Promise((_resolve, reject) => hung.once('error', reject))).rejects.toThrow(/timed out/);

    const waiting = new WebSocket(realtimeUrl(simulator), await clientOptions());
    const outcome = new Promise((resolve) => waiting.once('error', resolve));
    await expect.poll(() => simulator.stats().requests['realtime.connect']).toBe(3);
    const started = performance.now();
    await simulator.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await outcome).toBeInstanceOf(Error);
  });

  it('takes a fault for one handshake from the x-sim-fault header', async () => {
    const simulator = await startRealtimeSimulator();
    const refused = await refusedHandshake(simulator, { ...AUTHORIZATION, 'x-sim-fault': 'http500' });
    expect(refused.status).toBe(500);
    const wrong = await refusedHandshake(simulator, { ...AUTHORIZATION, 'x-sim-fault': 'stray' });
    expect(wrong.status).toBe(400);
  });

  it('stray reads a preamble and only the first half of the text', async () => {
    const simulator = await startRealtimeSimulator({
      faults: [{ route: 'realtime.response', fault: 'stray', times: 1 }],
    });
    const client = await RealtimeTestClient.connect(simulator);
    const strayed = await client.respond(readingRequest(SENTENCE));
    expect(strayed.transcript).toMatch(/^Here is your text: The lighthouse keeper/);
    const said = strayed.transcript!.split(/\s+/);
    const missing = SENTENCE.split(/\s+/).filter((word) => !said.includes(word));
    expect(missing.length).toBeGreaterThan(SENTENCE.split(/\s+/).length / 10);
    expect(strayed.done.response.status).toBe('completed');
    expect((await client.respond(readingRequest(SENTENCE))).transcript).toBe(SENTENCE);
  });

  it('answer answers the text whatever the instructions', async () => {
    const simulator = await startRealtimeSimulator({ faults: [{ route: 'realtime.response', fault: 'answer' }] });
    const client = await RealtimeTestClient.connect(simulator);
    const answered = await client.respond(readingRequest('What is your name?'));
    expect(answered.transcript).toBe(NAME_ANSWER);
    const statement = await client.respond(readingRequest(SENTENCE));
    expect(statement.transcript).not.toBe(SENTENCE);
    expect(simulator.realtimeSessions()[0]!.responses.map((response) => response.text)).toEqual([
      'What is your name?',
      SENTENCE,
    ]);
  });

  it('drop destroys the connection after a few audio deltas, before response.done', async () => {
    const simulator = await startRealtimeSimulator({ faults: [{ route: 'realtime.response', fault: 'drop' }] });
    const client = await RealtimeTestClient.connect(simulator);
    client.send({ type: 'response.create', response: readingRequest(SENTENCE) });
    expect(await client.closed).toBe(1006);
    const types = client.events.map((event) => event.type);
    expect(types.filter((type) => type === 'response.output_audio.delta')).toHaveLength(3);
    expect(types).not.toContain('response.done');
    expect(simulator.realtimeSessions()[0]!.responses[0]!.status).toBe('in_progress');
  });

  it('hang stops sending mid-response and leaves the socket open', async () => {
    const simulator = await startRealtimeSimulator({ faults: [{ route: 'realtime.response', fault: 'hang' }] });
    const client = await RealtimeTestClient.connect(simulator);
    client.send({ type: 'response.create', response: readingRequest(SENTENCE) });
    const audioDeltas = () => client.events.filter((event) => event.type === 'response.output_audio.delta');
    // Its first three deltas come (however slowly a loaded host sends them), then nothing more.
    await client.waitUntil(() => (audioDeltas().length >= 3 ? true : undefined), 30_000, 'three audio deltas');
    await expect(client.next('response.done', 300)).rejects.toThrow(/no response.done/);
    expect(audioDeltas()).toHaveLength(3);
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    // It reads nothing more either.
    client.send({ type: 'session.update', session: { type: 'realtime' } });
    await expect(client.next('session.updated', 200)).rejects.toThrow();
  });

  it('rate-limit reports no tokens left, then fails the response with the wait in its message', async () => {
    const simulator = await startRealtimeSimulator({
      faults: [{ route: 'realtime.response', fault: 'rate-limit', times: 1, retryAfterSeconds: 2 }],
    });
    const client = await RealtimeTestClient.connect(simulator);
    const failed = await client.respond(readingRequest(SENTENCE));
    const rateLimits = failed.events.find((event) => event.type === 'rate_limits.updated');
    expect(rateLimits?.rate_limits).toContainEqual({ name: 'tokens', limit: 40000, remaining: 0, reset_seconds: 2 });
    expect(failed.done.response).toMatchObject({
      status: 'failed',
      output: [],
      status_details: {
        type: 'failed',
        error: {
          type: 'tokens',
          code: 'rate_limit_exceeded',
          message: expect.stringMatching(
            new RegExp(
              `^Rate limit reached for ${REALTIME_MODEL} in organization org-simulator on tokens per min \\(TPM\\): .*Please try again in 2s\\.`,
            ),
          ),
        },
      },
    });
    expect(failed.audio.length).toBe(0);
    expect(simulator.realtimeSessions()[0]!.responses[0]).toMatchObject({
      status: 'failed',
      transcript: '',
      audioSeconds: 0,
    });
  });

  it.each([
    ['insufficient-quota', 'insufficient_quota', /current quota/],
    ['http500', 'server_error', /server had an error/],
  ] as const)('%s fails the response with %s', async (fault, code, message) => {
    const simulator = await startRealtimeSimulator({ faults: [{ route: 'realtime.response', fault, times: 1 }] });
    const client = await RealtimeTestClient.connect(simulator);
    const failed = await client.respond(readingRequest(SENTENCE));
    expect(failed.done.response).toMatchObject({
      status: 'failed',
      status_details: { type: 'failed', error: { type: code, code, message: expect.stringMatching(message) } },
    });
    expect((await client.respond(readingRequest(SENTENCE))).done.response.status).toBe('completed');
    expect(simulator.stats().requests['realtime.response']).toBe(2);
  });

  it('malformed sends a frame that is not JSON among the response events', async () => {
    const simulator = await startRealtimeSimulator({
      faults: [{ route: 'realtime.response', fault: 'malformed', times: 1 }],
    });
    const client = await RealtimeTestClient.connect(simulator);
    await client.respond(readingRequest(SENTENCE));
    expect(client.unparsable).toHaveLength(1);
    expect(() => JSON.parse(client.unparsable[0]!) as unknown).toThrow(SyntaxError);
  });

  it("counts responses towards the configured OpenAI limit and refuses the one over it like OpenAI's TPM limit", async () => {
    const simulator = await startRealtimeSimulator({
      rateLimits: { openai: { max: 1, windowMs: 60_000, lockoutMs: 0 } },
    });
    const client = await RealtimeTestClient.connect(simulator);
    expect((await client.respond(readingRequest(SENTENCE))).done.response.status).toBe('completed');
    const refused = await client.respond(readingRequest(SENTENCE));
    expect(refused.done.response).toMatchObject({
      status: 'failed',
      status_details: { error: { code: 'rate_limit_exceeded' } },
    });
    const tokens = (
      refused.events.find((event) => event.type === 'rate_limits.updated')?.rate_limits as {
        name: string;
        reset_seconds: number;
      }[]
    ).find((limit) => limit.name === 'tokens');
    expect(tokens!.reset_seconds).toBeGreaterThan(59);
    expect(simulator.stats()).toMatchObject({
      requests: { 'realtime.response': 2 },
      rateLimited: { 'realtime.response': 1 },
    });
  });

  it('refuses rules that can never apply to the realtime routes', () => {
    const simulator = createSimulator();
    expect(() => simulator.injectFault({ route: 'realtime.response', fault: 'http429' })).toThrow(/rate-limit/);
    expect(() => simulator.injectFault({ route: 'realtime.connect', fault: 'stray' })).toThrow(/realtime\.response/);
    expect(() => simulator.injectFault({ route: 'speech', fault: 'answer' })).toThrow(/realtime\.response/);
    expect(() => simulator.injectFault({ route: 'realtime.connect', fault: 'malformed' })).toThrow(/realtime\.connect/);
  });
});

describe('Realtime stats and inspection', () => {
  it('counts handshakes and responses, lists sessions on the control API, and forgets them on reset', async () => {
    const simulator = await startRealtimeSimulator({
      faults: [{ route: 'realtime.response', fault: 'http500', times: 1 }],
    });
    const first = await RealtimeTestClient.connect(simulator);
    await first.respond(readingRequest('One.'));
    await first.respond(readingRequest('Two.'));
    await RealtimeTestClient.connect(simulator);

    expect(simulator.stats().requests).toMatchObject({ 'realtime.connect': 2, 'realtime.response': 2 });
    const listed = (await (await fetch(`${simulator.url}/__sim/realtime/sessions`)).json()) as unknown;
    expect(listed).toEqual(simulator.realtimeSessions());
    expect(simulator.realtimeSessions().map((session) => session.responses.map((response) => response.status))).toEqual(
      [['failed', 'completed'], []],
    );

    expect((await postJson(`${simulator.url}/__sim/reset`, {}, {})).status).toBe(204);
    expect(simulator.realtimeSessions()).toEqual([]);
    expect(simulator.stats().requests['realtime.response']).toBe(0);
  });

  it('close() ends open sessions and streaming responses promptly', async () => {
    const simulator = createSimulator({ tls: await testCertificate(), realtimeSpeedup: 1 });
    await simulator.listen();
    const client = await RealtimeTestClient.connect(simulator);
    client.send({ type: 'response.create', response: readingRequest(SENTENCE) });
    await client.next('response.output_audio.delta');

    const started = performance.now();
    await simulator.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await client.closed).toBe(1006);
  });
});
