import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentPage } from '@/app/routes/payment';
import { PricingPage } from '@/app/routes/pricing';
import { useAuthStore } from '@/stores/auth-store';
import { loadFakeFirebase } from '@/testing/auth-client-double';
import { buildBillingState, subscribedBillingState } from '@/testing/billing-factory';
import { deferred } from '@/testing/fake-firebase-auth';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { BILLING_UNREACHABLE } from '../billing-words';
import { browserLocation } from '../browser-location';

const CHECKOUT_URL = 'https://checkout.stripe.test/c/pay/cs_test_1';
const PORTAL_URL = 'https://billing.stripe.test/p/session/bps_1';
const fetchMock = stubFetch();
const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);

const posts = (suffix: string) =>
  fetchMock.mock.calls
    .filter(([input, init]) => String(input).endsWith(suffix) && init?.method === 'POST')
    .map(([, init]) => (init?.body === null ? null : (JSON.parse(String(init?.body)) as unknown)));

/** The API as Pricing meets it: this billing state, and a checkout and a portal that answer with Stripe's pages. */
function answerBilling(billing = buildBillingState()) {
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input)).pathname;
    if (path === '/api/billing' && init?.method === 'GET') return jsonAnswer(200, billing);
    if (path === '/api/billing/checkout') return jsonAnswer(200, { kind: 'checkout', url: CHECKOUT_URL });
    if (path === '/api/billing/portal') return jsonAnswer(200, { kind: 'portal', url: PORTAL_URL });
    return jsonAnswer(404, {});
  });
}

function renderPricing() {
  renderWithApp(
    <Routes>
      <Route path="/pricing" element={<PricingPage />} />
      <Route path="/payment" element={<PaymentPage />} />
    </Routes>,
    { route: '/pricing' },
  );
  return userEvent.setup();
}

const card = (title: string) => screen.getByRole('article', { name: title });

beforeEach(() => {
  loadFakeFirebase();
  useAuthStore.getState().signedIn('ada@example.com');
});
afterEach(() => {
  useAuthStore.getState().signedOut();
  assign.mockClear();
});

/** What a screen reader reads after the control's name (its aria-describedby text). */
function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe("Pricing's paid plans", () => {
  it("'Start Free Trial' checks out Pro yearly with a trial and sends the browser to Stripe", async () => {
    answerBilling(buildBillingState({ trialDays: 14 }));
    const user = renderPricing();
    await user.click(screen.getByRole('button', { name: 'Yearly (Save 20%)' }));
    const start = await within(card('Pro')).findByRole('button', { name: 'Start Free Trial' });
    // Its terms beside it, the trial's length as this service sets it.
    expect(descriptionOf(start)).toBe('14-day free trial, then $279 a year. Cancel before it ends to pay nothing.');
    await user.click(start);

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(posts('/api/billing/checkout')).toEqual([{ plan: 'pro', period: 'yearly', trial: true }]);
  });

  it('offers no trial to someone who had one: the button says Upgrade and checks out without it', async () => {
    answerBilling(buildBillingState({ trialAvailable: false }));
    const user = renderPricing();
    await user.click(await within(card('Pro')).findByRole('button', { name: 'Upgrade to Pro' }));
    expect(within(card('Pro')).queryByText(/free trial/)).toBeNull();
    await user.click(within(card('Enterprise')).getByRole('button', { name: 'Upgrade to Enterprise' }));

    await vi.waitFor(() => expect(posts('/api/billing/checkout')).toHaveLength(2));
    expect(posts('/api/billing/checkout')).toEqual([
      { plan: 'pro', period: 'monthly', trial: false },
      { plan: 'enterprise', period: 'monthly', trial: false },
    ]);
    expect(within(card('Enterprise')).getByRole('link', { name: 'Contact Sales' }).getAttribute('href')).toBe(
      '/contact-sales',
    );
  });

  it('is busy while checkout is prepared, and says plainly when payments cannot be reached', async () => {
    answerBilling();
    const user = renderPricing();
    const start = await within(card('Pro')).findByRole('button', { name: 'Start Free Trial' });
    const answer = deferred<Response>();
    fetchMock.mockImplementationOnce(() => answer.promise);
    await user.click(start);

    const busy = within(card('Pro')).getByRole('button', { name: 'Going to checkout...' });
    expect(busy).toHaveProperty('disabled', true);
    answer.resolve(
      jsonAnswer(503, { error: { code: 'NOT_READY', message: 'The service is temporarily unavailable.' } }),
    );

    expect((await within(card('Pro')).findByRole('alert')).textContent).toBe(BILLING_UNREACHABLE);
    const again = within(card('Pro')).getByRole('button', { name: 'Start Free Trial' });
    expect(again).toHaveProperty('disabled', false);
    expect(descriptionOf(again)).toContain(BILLING_UNREACHABLE);
    expect(assign).not.toHaveBeenCalled();
    expect(within(card('Enterprise')).queryByRole('alert')).toBeNull();
  });

  it('asks a visitor to sign in first, then goes on to checkout without a second click', async () => {
    useAuthStore.getState().signedOut();
    answerBilling();
    const user = renderPricing();
    await user.click(within(card('Pro')).getByRole('button', { name: 'Start Free Trial' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to continue' });
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(posts('/api/billing/checkout')).toEqual([{ plan: 'pro', period: 'monthly', trial: true }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a visitor who signs in as someone whose trial was used checks out without one', async () => {
    useAuthStore.getState().signedOut();
    answerBilling(buildBillingState({ trialAvailable: false }));
    const user = renderPricing();
    await user.click(within(card('Pro')).getByRole('button', { name: 'Start Free Trial' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to continue' });
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(posts('/api/billing/checkout')).toEqual([{ plan: 'pro', period: 'monthly', trial: false }]);
  });

  it('checks nothing out when the visitor closes the sign-in dialog', async () => {
    useAuthStore.getState().signedOut();
    answerBilling();
    const user = renderPricing();
    await user.click(within(card('Pro')).getByRole('button', { name: 'Start Free Trial' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to continue' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    useAuthStore.getState().signedIn('ada@example.com');

    await within(card('Free')).findByText('Current plan');
    expect(posts('/api/billing/checkout')).toEqual([]);
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows a subscriber their plan as current and sends the others' buttons to the portal", async () => {
    answerBilling(subscribedBillingState({ plan: 'pro' }));
    const user = renderPricing();
    expect(await within(card('Pro')).findByText('Current plan')).toBeDefined();
    expect(within(card('Pro')).queryByRole('button')).toBeNull();
    expect(within(card('Free')).getByRole('button', { name: 'Manage billing' })).toBeDefined();
    await user.click(within(card('Enterprise')).getByRole('button', { name: 'Manage billing' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(PORTAL_URL));
    expect(posts('/api/billing/checkout')).toEqual([]);
  });

  it('keeps the honest "not available yet" page where checkout is not set up', async () => {
    answerBilling(buildBillingState({ checkoutAvailable: false }));
    const user = renderPricing();
    await user.click(screen.getByRole('button', { name: 'Yearly (Save 20%)' }));
    await user.click(within(card('Enterprise')).getByRole('button', { name: 'Upgrade to Enterprise' }));

    expect(await screen.findByText(/Checkout is not available yet/)).toBeDefined();
    expect(screen.getByText(/\$949\/year/)).toBeDefined();
    expect(posts('/api/billing/checkout')).toEqual([]);
  });
});
