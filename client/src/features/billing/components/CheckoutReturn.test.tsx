import { ACCOUNT_UPDATE_EVENT, PLAN_FACTS, allowanceInWords, type AccountUpdate } from '@mediagen/shared';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentPage } from '@/app/routes/payment';
import { useAuthStore } from '@/stores/auth-store';
import { buildBillingState, subscribedBillingState } from '@/testing/billing-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { CONFIRMATION_PATIENCE_MS, CONFIRMATION_POLL_MS } from '../hooks/use-checkout-confirmation';

const live = vi.hoisted(() => ({ server: undefined as unknown as import('@/testing/fake-socket').FakeSocketServer }));
vi.mock('socket.io-client', () => ({ io: () => live.server.io() }));

const fetchMock = stubFetch();
const billingReads = () => fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/api/billing')).length;

/** What the server says on `account:update` once Stripe's webhook has moved the account to Pro. */
const NOW_PRO: AccountUpdate = {
  plan: 'pro',
  tokens: PLAN_FACTS.pro.allowance,
  allowance: PLAN_FACTS.pro.allowance,
  resetsAt: '2027-03-04T12:00:00.000Z',
};

beforeEach(async () => {
  const { createFakeSocketServer } = await import('@/testing/fake-socket');
  live.server = createFakeSocketServer();
  useAuthStore.getState().signedIn('ada@example.com');
  // Until the webhook lands, the server still has the account on Free.
  fetchMock.mockImplementation(async (input) =>
    String(input).endsWith('/api/billing') ? jsonAnswer(200, buildBillingState()) : jsonAnswer(200, { items: [] }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  useAuthStore.getState().signedOut();
});

const renderReturn = (outcome: string) => renderWithApp(<PaymentPage />, { route: `/payment?checkout=${outcome}` });

describe('the page Stripe returns to', () => {
  it('confirms the payment, and shows Pro with its allowance and no watermark once the server says so', async () => {
    renderReturn('success');
    expect(await screen.findByRole('heading', { name: 'Confirming your payment' })).toBeDefined();
    await vi.waitFor(() => expect(live.server.listening(ACCOUNT_UPDATE_EVENT)).toBe(true));
    await vi.waitFor(() => expect(billingReads()).toBeGreaterThan(0));
    // The poll still says Free: not before the server has it.
    expect(screen.queryByRole('heading', { name: "You're on Pro" })).toBeNull();

    act(() => live.server.send(ACCOUNT_UPDATE_EVENT, NOW_PRO));

    expect(await screen.findByRole('heading', { name: "You're on Pro" })).toBeDefined();
    const plan = screen.getByRole('list', { name: 'Pro plan' }).textContent;
    // The words are the plan facts' (the drift test reads them back against the rules).
    expect(plan).toContain(allowanceInWords(PLAN_FACTS.pro));
    expect(plan).toContain('No watermark');
    expect(screen.getByRole('link', { name: 'Start creating' }).getAttribute('href')).toBe('/dashboard');
  });

  it('finds the new plan by reading the billing state when the socket missed it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderReturn('success');
    await vi.waitFor(() => expect(billingReads()).toBe(1));
    fetchMock.mockImplementation(async () => jsonAnswer(200, subscribedBillingState({ plan: 'pro' })));

    await act(() => vi.advanceTimersByTimeAsync(CONFIRMATION_POLL_MS));
    expect(await screen.findByRole('heading', { name: "You're on Pro" })).toBeDefined();
    // Confirmed: no more polling.
    const reads = billingReads();
    await act(() => vi.advanceTimersByTimeAsync(3 * CONFIRMATION_POLL_MS));
    expect(billingReads()).toBe(reads);
  });

  it('says calmly that it can take a minute when the payment is not confirmed after a while', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderReturn('success');
    await screen.findByRole('heading', { name: 'Confirming your payment' });
    expect(screen.queryByText(/This can take a minute/)).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(CONFIRMATION_PATIENCE_MS));
    expect(screen.getByRole('status').textContent).toMatch(/This can take a minute.*appear here.*by itself/);
    expect(screen.queryByRole('heading', { name: "You're on Pro" })).toBeNull();

    act(() => live.server.send(ACCOUNT_UPDATE_EVENT, NOW_PRO));
    expect(await screen.findByRole('heading', { name: "You're on Pro" })).toBeDefined();
  });

  it('says a canceled checkout charged nothing, and leads back to Pricing', async () => {
    renderReturn('canceled');
    expect((await screen.findByRole('status')).textContent).toBe('Checkout canceled. You have not been charged.');
    expect(screen.getByRole('link', { name: 'Back to pricing' }).getAttribute('href')).toBe('/pricing');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(live.server.io).not.toHaveBeenCalled();
  });
});
