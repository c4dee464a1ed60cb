import { now } from './env';
import type { Update } from './sockets';

/**
 * Opens a generation's event stream (GET /api/generations/:id/events, server-sent events) for each entry
 * and records every `generation:update` as it arrives. Aborting the returned controller closes them all.
 */
export async function openStreams(
  origin: string,
  entries: readonly { token: string; id: string }[],
  onUpdate: (update: Update) => void,
): Promise<AbortController> {
  const controller = new AbortController();
  await Promise.all(
    entries.map(async ({ token, id }) => {
      const response = await fetch(`${origin}/api/generations/${id}/events`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (response.status !== 200 || response.body === null) throw new Error(`stream ${id}: ${response.status}`);
      void readEvents(response.body, onUpdate).catch(() => undefined);
    }),
  );
  return controller;
}

async function readEvents(body: ReadableStream<Uint8Array>, onUpdate: (update: Update) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const at = now();
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      if (!lines.includes('event: generation:update')) continue;
      const data = lines.find((line) => line.startsWith('data: '));
      if (data === undefined) continue;
      const update = JSON.parse(data.slice('data: '.length)) as { id: string; status?: string; progress: number };
      onUpdate({ id: update.id, status: update.status, progress: update.progress, at });
    }
  }
}
