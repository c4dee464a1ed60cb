import { ACCOUNT_UPDATE_EVENT, GENERATION_UPDATE_EVENT, PLAN_FACTS, type Me } from '@mediagen/shared';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dateInWords } from '@/features/billing/billing-words';
import { browserLocation } from '@/features/billing/browser-location';
import { useGenerationsStore } from '@/features/generations/stores/generations-store';
import { useAuthStore } from '@/stores/auth-store';
import { loadFakeFirebase } from '@/testing/auth-client-double';
import { buildBillingState, subscribedBillingState } from '@/testing/billing-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { buildGeneration } from '@/testing/generation-factory';
import { renderWithApp } from '@/testing/render';
import { DashboardPage } from './dashboard';
import { LibraryPage } from './library';

const live = vi.hoisted(() => ({ server: undefined as unknown as import('@/testing/fake-socket').FakeSocketServer }));
vi.mock('socket.io-client', () => ({ io: () => live.server.io() }));

const PORTAL_URL = 'https://billing.stripe.test/p/session/bps_1';
const GRACE_ENDS = '2027-03-11T12:00:00.000Z';
const fetchMock = stubFetch();
const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);

const FREE_ME: Me = {
  uid: 'ada',
  email: 'ada@example.com',
  plan: 'free',
  tokens: { image: 1, video: 0, speech: 2 },
  allowance: PLAN_FACTS.free.allowance,
  resetsAt: '2027-03-01T00:00:00.000Z',
};
const finished = buildGeneration({
  status: 'completed',
  progress: 100,
  token: 'spent',
  result: { url: 'https://files.test/1.png', mimeType: 'image/png' },
});

/** The API as these pages meet it: an account on Free with one finished image, and this billing state. */
function answer(billing = buildBillingState()) {
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input)).pathname;
    if (path === '/api/me') return jsonAnswer(200, FREE_ME);
    if (path === '/api/generations') return jsonAnswer(200, { items: [finished], nextCursor: null });
    if (path === '/api/billing') return jsonAnswer(200, billing);
    if (path === '/api/billing/portal' && init?.method === 'POST')
      return jsonAnswer(200, { kind: 'portal', url: PORTAL_URL });
    return jsonAnswer(404, {});
  });
}

beforeEach(async () => {
  const { createFakeSocketServer } = await import('@/testing/fake-socket');
  live.server = createFakeSocketServer();
  loadFakeFirebase();
  useGenerationsStore.getState().cleared();
  useAuthStore.getState().signedIn('ada@example.com');
});
afterEach(() => {
  useAuthStore.getState().signedOut();
  assign.mockClear();
});

const nowPro = {
  plan: 'pro' as const,
  tokens: PLAN_FACTS.pro.allowance,
  allowance: PLAN_FACTS.pro.allowance,
  resetsAt: '2027-04-01T00:00:00.000Z',
};

describe('the plan and balance, live', () => {
  it("the dashboard's balance and plan change the moment the server says the account changed", async () => {
    answer();
    renderWithApp(<DashboardPage />, { route: '/dashboard' });
    const balance = await screen.findByRole('region', { name: 'Remaining tokens' });
    expect(balance.textContent).toContain('Free plan');
    expect(balance.textContent).toContain(`Image 1/${PLAN_FACTS.free.allowance.image}`);
    await vi.waitFor(() => expect(live.server.listening(ACCOUNT_UPDATE_EVENT)).toBe(true));

    act(() => live.server.send(ACCOUNT_UPDATE_EVENT, nowPro));

    expect(balance.textContent).toContain('Pro plan');
    expect(balance.textContent).toContain(`Image ${PLAN_FACTS.pro.allowance.image}/${PLAN_FACTS.pro.allowance.image}`);
  });

  it('the dashboard reads the account again after a dropped connection, which missed what changed meanwhile', async () => {
    answer();
    renderWithApp(<DashboardPage />, { route: '/dashboard' });
    const balance = await screen.findByRole('region', { name: 'Remaining tokens' });
    await vi.waitFor(() => expect(live.server.listening(ACCOUNT_UPDATE_EVENT)).toBe(true));
    act(() => live.server.connected());
    act(() => live.server.dropped());
    // Moved to Pro while the page could not hear it: no account:update reaches this page.
    const answerFree = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      new URL(String(input)).pathname === '/api/me'
        ? jsonAnswer(200, { ...FREE_ME, ...nowPro })
        : answerFree(input, init),
    );

    act(() => live.server.connected());

    await vi.waitFor(() => expect(balance.textContent).toContain('Pro plan'));
    expect(balance.textContent).toContain(`Image ${PLAN_FACTS.pro.allowance.image}/${PLAN_FACTS.pro.allowance.image}`);
  });

  it("the library's Free-mark notice goes as the account moves to a paid plan", async () => {
    answer();
    renderWithApp(<LibraryPage />, { route: '/library' });
    expect(await screen.findByText(/Free plan results carry the MediaGen mark/)).toBeDefined();
    await vi.waitFor(() => expect(live.server.listening(ACCOUNT_UPDATE_EVENT)).toBe(true));
    // The generations on the same socket still arrive.
    expect(live.server.listening(GENERATION_UPDATE_EVENT)).toBe(true);

    act(() => live.server.send(ACCOUNT_UPDATE_EVENT, nowPro));

    expect(screen.queryByText(/Free plan results carry the MediaGen mark/)).toBeNull();
  });
});

describe('a failed payment', () => {
  const pastDue = subscribedBillingState({ plan: 'pro', subscription: 'past_due', graceEndsAt: GRACE_ENDS });

  it.each([
    ['dashboard', () => <DashboardPage />],
    ['library', () => <LibraryPage />],
  ])('is said on the %s with the date to act by, and leads to the portal', async (_page, page) => {
    answer(pastDue);
    renderWithApp(page());
    const banner = await screen.findByRole('status', { name: 'Payment problem' });
    expect(banner.textContent).toContain(
      `Your last payment failed. Update your card by ${dateInWords(GRACE_ENDS)} to keep Pro.`,
    );
    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Manage billing' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(PORTAL_URL));
  });

  it('says the plan ended once the grace is over, and how to resume it', async () => {
    answer(subscribedBillingState({ plan: 'free', subscription: 'past_due', graceEndsAt: '2026-01-02T00:00:00.000Z' }));
    renderWithApp(<DashboardPage />);
    const banner = await screen.findByRole('status', { name: 'Payment problem' });
    expect(banner.textContent).toContain(
      'Your last payment failed, so your account is back on Free. Update your card to resume your subscription.',
    );
  });
});
