import type { StripePriceSpec } from './stripeCatalogue';
import type { CheckoutSessionRecord } from './stripeRecords';
import { html, page, planLabel, postButton, priceLabel, type Html } from './hostedPageHtml';

/** What the hosted checkout page shows: the offer, after a decline the refusal, or 3-D Secure's step. */
export type CheckoutView = 'offer' | 'declined' | 'three-d-secure';

export const CARD_DECLINED = 'Your card was declined.';

export function checkoutPage(
  session: CheckoutSessionRecord,
  spec: StripePriceSpec,
  view: CheckoutView,
  path: string,
): string {
  const back = backLink(session);
  if (session.status !== 'open') {
    const why =
      session.status === 'expired'
        ? 'This checkout session has expired.'
        : 'This checkout session is already complete.';
    return page(
      'Checkout unavailable',
      html`<h1>${why}</h1>
        ${back}`,
    );
  }
  if (view === 'three-d-secure') {
    return page(
      'Authenticate your payment',
      html`<h1>Authenticate your payment</h1>
        <p>Your bank asks you to confirm this payment of ${priceLabel(spec)}.</p>
        ${postButton(`${path}/three-d-secure/complete`, 'Complete authentication')}
        ${postButton(`${path}/three-d-secure/fail`, 'Fail authentication')}`,
    );
  }
  const trial: Html =
    session.trialPeriodDays === null
      ? html``
      : html`<p>${session.trialPeriodDays}-day free trial, then ${priceLabel(spec)}. Nothing is charged today.</p>`;
  const declined: Html =
    view === 'declined' ? html`<p role="alert">${CARD_DECLINED} Try again, or use another card.</p>` : html``;
  return page(
    `Subscribe to MediaGen ${spec.productName}`,
    html`<h1>Subscribe to MediaGen ${spec.productName}</h1>
      <p>${planLabel(spec)}: ${priceLabel(spec)}</p>
      ${trial}${declined} ${postButton(`${path}/pay`, 'Pay')} ${postButton(`${path}/decline`, 'Decline')}
      ${postButton(`${path}/three-d-secure`, '3-D Secure needed')} ${back}`,
  );
}

function backLink(session: CheckoutSessionRecord): Html {
  return session.cancelUrl === null ? html`` : html`<p><a href="${session.cancelUrl}">Back</a></p>`;
}
