import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the receiver answers: 200, an error status, a redirect, or (`slowMs`) nothing for a while. */
export type ReceiverAnswer = { status: number; location?: string } | { slowMs: number };

export interface ReceivedWebhook {
  id: string;
  /** The parsed body once its signature checked out with the endpoint's secret (`standardwebhooks`); else null. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  headers: IncomingHttpHeaders;
  receivedAt: number;
  /** The status it was answered with (null: left without an answer). */
  answered: number | null;
}

/**
 * A webhook consumer as a developer would write one: it checks each delivery's signature with the
 * `standardwebhooks` package and keeps the ids it accepted, so a retry of an accepted event is seen as one.
 * Tests stop and restart it on the same port to play an outage.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: ReceiverAnswer = { status: 200 };
  secret: string | null = null;
  private server: Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Deliveries accepted (2xx) with a good signature, one per `webhook-id`. */
  accepted(): ReceivedWebhook[] {
    return this.received.filter((delivery) => delivery.payload !== null && delivery.answered === 200);
  }

  async listen(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const delivery: ReceivedWebhook = {
          id: String(request.headers['webhook-id']),
          payload: this.verify(body, request.headers),
          headers: request.headers,
          receivedAt: Date.now(),
          answered: null,
        };
        this.received.push(delivery);
        const answer = this.answer;
        if ('slowMs' in answer) {
          setTimeout(() => response.destroyed || response.end(), answer.slowMs).unref();
          return;
        }
        delivery.answered = answer.status;
        response.writeHead(answer.status, answer.location === undefined ? {} : { location: answer.location }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops answering (connections are refused) until `listen` again, on the same port. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private verify(body: string, headers: IncomingHttpHeaders): ReceivedWebhook['payload'] {
    if (this.secret === null) return null;
    try {
      return new Webhook(this.secret).verify(body, headers as Record<string, string>) as ReceivedWebhook['payload'];
    } catch {
      return null;
    }
  }
}
