import type { StripeCatalogue } from './stripeCatalogue';
import type { InvoiceRecord, PortalSessionRecord, ScheduleRecord, SubscriptionRecord } from './stripeRecords';
import { dateLabel, html, page, planLabel, postButton, priceLabel, type Html } from './hostedPageHtml';

export const PORTAL_NOTICES = {
  switched: 'Your plan was changed.',
  scheduled: 'Your new plan starts at the end of the current period.',
  card: 'Your card was updated.',
  canceled: 'Your plan was canceled. It stays active until the end of the period.',
  renewed: 'Your plan was renewed.',
} as const;
export type PortalNotice = keyof typeof PORTAL_NOTICES;

export interface PortalView {
  session: PortalSessionRecord;
  subscription: SubscriptionRecord | undefined;
  schedule: ScheduleRecord | undefined;
  invoices: InvoiceRecord[];
  catalogue: StripeCatalogue;
  notice: PortalNotice | undefined;
  path: string;
}

export function portalPage({ session, subscription, schedule, invoices, catalogue, notice, path }: PortalView): string {
  const returnLink: Html =
    session.returnUrl === null ? html`` : html`<p><a href="${session.returnUrl}">Return to MediaGen</a></p>`;
  const status: Html = notice === undefined ? html`` : html`<p role="status">${PORTAL_NOTICES[notice]}</p>`;
  return page(
    'MediaGen billing',
    html`<h1>MediaGen billing</h1>
      ${status}
      ${subscription === undefined ? html`<p>You have no active subscription.</p>` : subscriptionSection(subscription, schedule, catalogue, path)}
      ${invoiceSection(invoices, catalogue)} ${returnLink}`,
  );
}

function subscriptionSection(
  subscription: SubscriptionRecord,
  schedule: ScheduleRecord | undefined,
  catalogue: StripeCatalogue,
  path: string,
): Html {
  const spec = catalogue.get(subscription.priceId);
  const next = schedule === undefined ? undefined : catalogue.get(schedule.nextPriceId);
  const standing: Html = subscription.cancelAtPeriodEnd
    ? html`<p>Cancels on ${dateLabel(subscription.periodEnd)}.</p>`
    : next !== undefined
      ? html`<p>Switches to ${planLabel(next)} on ${dateLabel(subscription.periodEnd)}.</p>`
      : html`<p>Renews on ${dateLabel(subscription.periodEnd)}.</p>`;
  const statusLine: Html =
    subscription.status === 'trialing' && subscription.trialEnd !== null
      ? html`<p>Free trial until ${dateLabel(subscription.trialEnd)}.</p>`
      : subscription.status === 'past_due'
        ? html`<p role="alert">Your last payment failed. Update your card.</p>`
        : html``;
  const switches = catalogue.prices
    .filter((candidate) => candidate.id !== subscription.priceId)
    .map((candidate) =>
      postButton(`${path}/switch`, `Switch to ${planLabel(candidate)} (${priceLabel(candidate)})`, {
        price: candidate.id,
      }),
    );
  return html`<section aria-labelledby="current-plan">
    <h2 id="current-plan">Current plan</h2>
    <p>${planLabel(spec)}: ${priceLabel(spec)}</p>
    ${statusLine}${standing}
    <h3>Change plan</h3>
    ${switches}
    <h3>Payment method</h3>
    ${postButton(`${path}/update-card`, 'Update card')}
    <h3>Cancellation</h3>
    ${subscription.cancelAtPeriodEnd ? postButton(`${path}/renew`, 'Renew plan') : postButton(`${path}/cancel`, 'Cancel plan')}
  </section>`;
}

function invoiceSection(invoices: InvoiceRecord[], catalogue: StripeCatalogue): Html {
  if (invoices.length === 0)
    return html`<h2>Invoices</h2>
      <p>No invoices yet.</p>`;
  const rows = invoices.map((invoice) => {
    const spec = catalogue.get(invoice.priceId);
    const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: spec.currency }).format(
      invoice.amount / 100,
    );
    return html`<tr>
      <td>${dateLabel(invoice.created)}</td>
      <td>${invoice.number}</td>
      <td>${planLabel(spec)}</td>
      <td>${amount}</td>
      <td>${invoice.status}</td>
    </tr>`;
  });
  return html`<h2>Invoices</h2>
    <table>
      <thead>
        <tr>
          <th>Date</th>
          <th>Number</th>
          <th>Plan</th>
          <th>Amount</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
}
