import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  WebhookDeliveryView,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointView,
} from '@mediagen/shared';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { WebhooksPanel } from './WebhooksPanel';

const fetchMock = stubFetch();

const ENDPOINT_ID = `ep_${'a'.repeat(32)}`;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const endpoint = (overrides: Partial<WebhookEndpointView> = {}): WebhookEndpointView => ({
  id: ENDPOINT_ID,
  url: 'https://orders.example.com/hooks',
  description: 'Order system',
  events: ['generation.completed'],
  createdAt: '2026-01-10T10:00:00.000Z',
  status: 'active',
  disabledReason: null,
  disabledAt: null,
  ...overrides,
});

const list = (overrides: Partial<WebhookEndpointList> = {}): WebhookEndpointList => ({
  apiAccess: true,
  maxEndpoints: 10,
  endpoints: [],
  ...overrides,
});

/** Answers each request by its method and path, as the API would; a request not listed fails the test. */
function serve(routes: Record<string, () => Response>) {
  fetchMock.mockImplementation(async (url, init) => {
    const route = `${init?.method ?? 'GET'} ${new URL(String(url)).pathname}`;
    const answer = routes[route];
    if (answer === undefined) throw new Error(`unexpected request ${route}`);
    return answer();
  });
}

/** Each request the page sent, as "METHOD path", with its body. */
const sent = () =>
  fetchMock.mock.calls.map(([url, init]) => ({
    route: `${init?.method ?? 'GET'} ${new URL(String(url)).pathname}`,
    body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined,
  }));

const row = async (name: string) => within(await screen.findByRole('listitem', { name }));

describe('the webhooks page', () => {
  it('adds an endpoint with its URL, events and description, and shows its signing secret once', async () => {
    const created: WebhookEndpointCreated = {
      ...endpoint({ events: ['generation.completed', 'generation.failed'], description: 'Orders' }),
      secret: SECRET,
    };
    serve({
      'GET /api/webhooks/endpoints': () => jsonAnswer(200, list()),
      'POST /api/webhooks/endpoints': () => jsonAnswer(201, created),
    });
    const user = userEvent.setup();
    renderWithApp(<WebhooksPanel />);

    await user.click(await screen.findByLabelText('Endpoint URL'));
    await user.paste('https://orders.example.com/hooks');
    await user.click(screen.getByRole('checkbox', { name: /^generation\.canceled/ }));
    await user.type(screen.getByLabelText('Description (optional)'), 'Orders');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));

    expect(await screen.findByText(/you won’t see it again/)).toBeTruthy();
    expect(screen.getByLabelText('Signing secret')).toHaveProperty('value', SECRET);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(sent()[1]).toEqual({
      route: 'POST /api/webhooks/endpoints',
      body: {
        url: 'https://orders.example.com/hooks',
        events: ['generation.completed', 'generation.failed'],
        description: 'Orders',
      },
    });

    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByLabelText('Signing secret')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
    const listed = await row('Orders');
    expect(listed.getByText('Active')).toBeTruthy();
    expect(listed.getByText('Events: generation.completed, generation.failed')).toBeTruthy();
    // The form is back for the next endpoint.
    expect(screen.getByLabelText('Endpoint URL')).toHaveProperty('value', '');
  });

  it('says in the form what the server refused about the URL, and keeps what was typed', async () => {
    serve({
      'GET /api/webhooks/endpoints': () => jsonAnswer(200, list()),
      'POST /api/webhooks/endpoints': () =>
        jsonAnswer(400, {
          error: { code: 'INVALID_REQUEST', message: 'Invalid request: url must be an http(s) URL' },
        }),
    });
    const user = userEvent.setup();
    renderWithApp(<WebhooksPanel />);

    await user.click(await screen.findByLabelText('Endpoint URL'));
    await user.paste('ftp://files.example.com/hooks');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));

    const form = within(screen.getByRole('form', { name: 'Add an endpoint' }));
    expect((await form.findByRole('alert')).textContent).toBe('Invalid request: url must be an http(s) URL');
    expect(screen.getByLabelText('Endpoint URL')).toHaveProperty('value', 'ftp://files.example.com/hooks');
    expect(screen.queryByLabelText('Signing secret')).toBeNull();
  });

  it('shows why and since when an endpoint is disabled, and re-enables it', async () => {
    const disabled = endpoint({
      status: 'disabled',
      disabledReason: 'The endpoint answered 410 Gone.',
      disabledAt: '2026-01-12T08:30:00.000Z',
    });
    serve({
      'GET /api/webhooks/endpoints': () => jsonAnswer(200, list({ endpoints: [disabled] })),
      [`POST /api/webhooks/endpoints/${ENDPOINT_ID}/enable`]: () => jsonAnswer(200, endpoint()),
    });
    const user = userEvent.setup();
    renderWithApp(<WebhooksPanel />);

    const listed = await row('Order system');
    expect(listed.getByText('Disabled')).toBeTruthy();
    const reason = listed.getByText(/The endpoint answered 410 Gone\./);
    expect(reason.textContent).toContain(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(
        new Date('2026-01-12T08:30:00.000Z'),
      ),
    );
    expect(listed.queryByRole('button', { name: 'Send test event' })).toBeNull();

    await user.click(listed.getByRole('button', { name: 'Re-enable' }));

    expect(await listed.findByText('Active')).toBeTruthy();
    expect(listed.queryByText(/410 Gone/)).toBeNull();
    expect(listed.getByRole('button', { name: 'Send test event' })).toBeTruthy();
    expect(sent().map((request) => request.route)).toContain(`POST /api/webhooks/endpoints/${ENDPOINT_ID}/enable`);
  });

  it('sends a test event, then lists its delivery with each attempt', async () => {
    const delivery: WebhookDeliveryView = {
      id: 'msg_0123456789abcdef0123456789abcdef',
      type: 'webhook.test',
      generationId: null,
      createdAt: '2026-01-12T09:00:00.000Z',
      state: 'delivered',
      attempts: [
        {
          attemptedAt: '2026-01-12T09:00:00.100Z',
          ok: false,
          responseCode: 503,
          error: 'answered 503',
          durationMs: 40,
        },
        { attemptedAt: '2026-01-12T09:00:05.200Z', ok: true, responseCode: 200, error: null, durationMs: 35 },
      ],
    };
    serve({
      'GET /api/webhooks/endpoints': () => jsonAnswer(200, list({ endpoints: [endpoint()] })),
      [`POST /api/webhooks/endpoints/${ENDPOINT_ID}/test`]: () => jsonAnswer(202, { id: delivery.id }),
      [`GET /api/webhooks/endpoints/${ENDPOINT_ID}/deliveries`]: () => jsonAnswer(200, { deliveries: [delivery] }),
    });
    const user = userEvent.setup();
    renderWithApp(<WebhooksPanel />);

    const listed = await row('Order system');
    expect(listed.getByRole('button', { name: 'Show deliveries' }).getAttribute('aria-expanded')).toBe('false');
    await user.click(listed.getByRole('button', { name: 'Send test event' }));

    expect(await listed.findByText(`Test event ${delivery.id} queued.`)).toBeTruthy();
    const deliveries = within(await listed.findByRole('list', { name: 'Deliveries' }));
    expect(deliveries.getByText('webhook.test')).toBeTruthy();
    expect(deliveries.getByText('Delivered')).toBeTruthy();
    expect(deliveries.getByText(`webhook-id ${delivery.id}`)).toBeTruthy();
    const attempts = deliveries.getAllByRole('listitem').filter((item) => item.textContent?.startsWith('Attempt'));
    expect(attempts.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Attempt 1, .*: failed: answered 503 in 40 ms$/),
      expect.stringMatching(/^Attempt 2, .*: answered 200 in 35 ms$/),
    ]);
    expect(listed.getByRole('button', { name: 'Hide deliveries' }).getAttribute('aria-expanded')).toBe('true');
    expect(sent().map((request) => request.route)).toEqual([
      'GET /api/webhooks/endpoints',
      `POST /api/webhooks/endpoints/${ENDPOINT_ID}/test`,
      `GET /api/webhooks/endpoints/${ENDPOINT_ID}/deliveries`,
    ]);
  });

  it('deletes an endpoint only after a confirmation', async () => {
    serve({
      'GET /api/webhooks/endpoints': () => jsonAnswer(200, list({ endpoints: [endpoint()] })),
      [`DELETE /api/webhooks/endpoints/${ENDPOINT_ID}`]: () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderWithApp(<WebhooksPanel />);

    const listed = await row('Order system');
    await user.click(listed.getByRole('button', { name: 'Delete' }));
    await user.click(listed.getByRole('button', { name: 'Keep it' }));
    expect(sent()).toHaveLength(1);

    await user.click(listed.getByRole('button', { name: 'Delete' }));
    await user.click(listed.getByRole('button', { name: 'Delete endpoint' }));
    expect(await screen.findByText('No endpoints yet.')).toBeTruthy();
    expect(sent()[1]!.route).toBe(`DELETE /api/webhooks/endpoints/${ENDPOINT_ID}`);
  });

  it('tells a plan without API access that webhooks are Enterprise’s, with a way to upgrade', async () => {
    serve({ 'GET /api/webhooks/endpoints': () => jsonAnswer(200, list({ apiAccess: false })) });
    renderWithApp(<WebhooksPanel />);

    expect(await screen.findByRole('heading', { name: 'Webhooks are part of Enterprise' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
  });
});
