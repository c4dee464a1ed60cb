export * from './webhook-deliveries';
export * from './webhook-endpoints';
export { DEV_WEBHOOK_SECRET_KEY, readWebhookSecretKey } from './webhook-secrets';
