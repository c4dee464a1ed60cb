import { describe, expect, it } from 'vitest';
import { openai, shapeMismatches } from '../src/contract/documented-examples';
import { RealtimeTestClient, readingRequest, startRealtimeSimulator, type ServerEvent } from './realtimeClient';

const { clientEvents, serverEvents } = openai.realtime;

/**
 * The Realtime API reference's examples against the simulator: it accepts the documented client events,
 * and every server event it sends has the documented event's fields with the same value types (sources
 * in src/contract/documented-examples.ts).
 */
describe('OpenAI Realtime, as documented', () => {
  it(`accepts the documented client events and answers in the documented server events (${serverEvents.sessionCreated.source})`, async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.open(simulator);
    expectDocumented(await client.next('session.created'), serverEvents.sessionCreated.event);

    client.send(clientEvents.sessionUpdate.event);
    const updated = await client.next('session.updated');
    // Tools are not simulated: they come back as sent, without the `strict` the API adds to their parameters.
    expect((updated.session as { tools: unknown }).tools).toEqual(clientEvents.sessionUpdate.event.session.tools);
    expectDocumented(updated, {
      ...serverEvents.sessionUpdated.event,
      session: { ...serverEvents.sessionUpdated.event.session, tools: [] },
    });

    client.send(clientEvents.conversationItemCreate.event);
    expect((await client.next('conversation.item.added')).item).toMatchObject(
      clientEvents.conversationItemCreate.event.item,
    );

    client.send(clientEvents.responseCreate.event);
    expectDocumented(await client.next('response.created'), serverEvents.responseCreated.event);
    expectDocumented(await client.next('response.output_audio.delta'), serverEvents.outputAudioDelta.event);
    expectDocumented(
      await client.next('response.output_audio_transcript.delta'),
      serverEvents.outputAudioTranscriptDelta.event,
    );
    expectDocumented(
      await client.next('response.output_audio_transcript.done'),
      serverEvents.outputAudioTranscriptDone.event,
    );
    const done = await client.next('response.done');
    expectDocumented(done, serverEvents.responseDone.event);
    expect(done.response).toMatchObject({ status: 'completed' });
    expectDocumented(await client.next('rate_limits.updated'), serverEvents.rateLimitsUpdated.event);
  });

  it(`answers the documented out-of-band response.create, its item reference resolved (${clientEvents.responseCreateOutOfBand.source})`, async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    // The example refers to "item_12345": a client may name its items, so this one is given that id.
    client.send({
      ...clientEvents.conversationItemCreate.event,
      item: { ...clientEvents.conversationItemCreate.event.item, id: 'item_12345' },
    });
    await client.next('conversation.item.done');
    client.send(clientEvents.responseCreateOutOfBand.event);
    const done = await client.next('response.done');
    expect(done.response).toMatchObject({
      status: 'completed',
      conversation_id: null,
      output_modalities: ['text'],
      metadata: { response_purpose: 'summarization' },
      output: [{ content: [{ type: 'output_text', text: 'Summarize the above message in one sentence.' }] }],
    });
  });

  it(`fails a response in the documented response.done shape (${serverEvents.responseDoneFailed.source})`, async () => {
    const simulator = await startRealtimeSimulator({ faults: [{ route: 'realtime.response', fault: 'rate-limit' }] });
    const client = await RealtimeTestClient.connect(simulator);
    const failed = await client.respond(readingRequest('Hello.'));
    const done = failed.events.at(-1)!;
    expectDocumented(done, {
      ...serverEvents.responseDoneFailed.event,
      // An out-of-band response belongs to no conversation, and this one was given its metadata.
      response: { ...serverEvents.responseDoneFailed.event.response, conversation_id: null, metadata: {} },
    });
    expect(done.response).toMatchObject({
      status_details: serverEvents.responseDoneFailed.event.response.status_details,
    });
  });

  it(`refuses a client event in the documented error shape (${serverEvents.error.source})`, async () => {
    const simulator = await startRealtimeSimulator();
    const client = await RealtimeTestClient.connect(simulator);
    client.send({ event_id: serverEvents.error.event.error.event_id });
    const error = await client.next('error');
    expectDocumented(error, serverEvents.error.event);
    expect(error.error).toEqual(serverEvents.error.event.error);
  });
});

describe('shapeMismatches', () => {
  it('names each documented field that is missing or of another type, and allows extra fields', () => {
    expect(
      shapeMismatches({ a: 1, b: { c: 'x' }, d: [{ e: null }] }, { a: '1', b: {}, d: [{ e: 0 }], extra: true }),
    ).toEqual(['$.a: documented number, got string', '$.b.c: missing', '$.d[0].e: documented null, got number']);
  });
});

function expectDocumented(actual: ServerEvent, documented: unknown): void {
  expect(shapeMismatches(documented, actual)).toEqual([]);
}
