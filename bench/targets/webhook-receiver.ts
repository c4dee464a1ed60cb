/**
 * The `webhooks` part's receiver, a process of its own so that what drives the completions never holds
 * up its clock: POST /hooks answers 204 at once and notes, the first time each `webhook-id` arrives, the
 * generation and receive time − the envelope's `timestamp`; GET /results returns what it noted.
 */
import { createServer, type IncomingMessage } from 'node:http';

const received: { generationId: string; delayMs: number }[] = [];
const seen = new Set<string>();
let duplicates = 0;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const server = createServer((request, response) => {
  const receivedAt = performance.timeOrigin + performance.now();
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received, duplicates }));
    return;
  }
  void readBody(request).then((body) => {
    response.writeHead(204).end();
    const id = String(request.headers['webhook-id']);
    if (seen.has(id)) {
      duplicates += 1;
      return;
    }
    seen.add(id);
    const event = JSON.parse(body) as { timestamp: string; data: { id: string } };
    received.push({ generationId: event.data.id, delayMs: receivedAt - Date.parse(event.timestamp) });
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`listening ${process.env.PORT}`));
