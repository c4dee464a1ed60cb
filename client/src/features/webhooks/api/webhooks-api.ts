import type {
  WebhookDeliveryList,
  WebhookEndpointBody,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointView,
} from '@mediagen/shared';
import { apiRequest } from '@/lib/api-client';

const endpointPath = (id: string) => `/api/webhooks/endpoints/${encodeURIComponent(id)}`;

/** GET /api/webhooks/endpoints: the account's endpoints (never their secrets) and whether its plan has API access. */
export function listWebhookEndpoints(): Promise<WebhookEndpointList> {
  return apiRequest<WebhookEndpointList>('/api/webhooks/endpoints');
}

/** POST /api/webhooks/endpoints: a new endpoint, whose signing secret this answer alone carries. */
export function createWebhookEndpoint(body: WebhookEndpointBody): Promise<WebhookEndpointCreated> {
  return apiRequest<WebhookEndpointCreated>('/api/webhooks/endpoints', { method: 'POST', body });
}

/** DELETE /api/webhooks/endpoints/:id: the endpoint and its delivery history are gone. */
export function deleteWebhookEndpoint(id: string): Promise<void> {
  return apiRequest<void>(endpointPath(id), { method: 'DELETE' });
}

/** POST /api/webhooks/endpoints/:id/enable: a disabled endpoint back in service. */
export function enableWebhookEndpoint(id: string): Promise<WebhookEndpointView> {
  return apiRequest<WebhookEndpointView>(`${endpointPath(id)}/enable`, { method: 'POST' });
}

/** POST /api/webhooks/endpoints/:id/test: queues a signed `webhook.test` event. */
export function sendWebhookTest(id: string): Promise<{ id: string }> {
  return apiRequest<{ id: string }>(`${endpointPath(id)}/test`, { method: 'POST' });
}

/** GET /api/webhooks/endpoints/:id/deliveries: the latest deliveries, each with its attempts. */
export function listWebhookDeliveries(id: string): Promise<WebhookDeliveryList> {
  return apiRequest<WebhookDeliveryList>(`${endpointPath(id)}/deliveries`);
}
