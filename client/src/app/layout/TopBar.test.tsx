import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dateInWords } from '@/features/billing/billing-words';
import { browserLocation } from '@/features/billing/browser-location';
import { useAuthStore } from '@/stores/auth-store';
import { loadFakeFirebase } from '@/testing/auth-client-double';
import { buildBillingState, subscribedBillingState } from '@/testing/billing-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { TopBar } from './TopBar';

const PORTAL_URL = 'https://billing.stripe.test/p/session/bps_1';
const fetchMock = stubFetch();
const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);

function answer(billing: ReturnType<typeof buildBillingState>) {
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input)).pathname;
    if (path === '/api/billing') return jsonAnswer(200, billing);
    if (path === '/api/billing/portal' && init?.method === 'POST')
      return jsonAnswer(200, { kind: 'portal', url: PORTAL_URL });
    return jsonAnswer(404, {});
  });
}

async function openAccountMenu() {
  const user = userEvent.setup();
  renderWithApp(<TopBar />, { route: '/dashboard' });
  await user.click(screen.getByRole('button', { name: 'Account' }));
  return { user, menu: () => document.querySelector<HTMLElement>('[data-open-menu]') };
}

beforeEach(() => {
  loadFakeFirebase();
  useAuthStore.getState().signedIn('ada@example.com');
});
afterEach(() => {
  useAuthStore.getState().signedOut();
  assign.mockClear();
});

describe("the account menu's billing entries", () => {
  it('offer a Free account the way to upgrade, and close the menu as it leads to Pricing', async () => {
    answer(buildBillingState());
    const { user, menu } = await openAccountMenu();
    const upgrade = await within(menu()!).findByRole('link', { name: 'Upgrade' });
    expect(upgrade.getAttribute('href')).toBe('/pricing');
    expect(within(menu()!).queryByRole('button', { name: 'Manage billing' })).toBeNull();
    await user.click(upgrade);
    expect(menu()).toBeNull();
  });

  it("open a subscriber's billing in Stripe's portal", async () => {
    answer(subscribedBillingState());
    const { user, menu } = await openAccountMenu();
    await user.click(await within(menu()!).findByRole('button', { name: 'Manage billing' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(PORTAL_URL));
    expect(within(menu()!).queryByRole('link', { name: 'Upgrade' })).toBeNull();
  });

  it('say a cancellation that waits for the end of the paid period, and keep the portal open to renew', async () => {
    const periodEnd = '2027-03-04T12:00:00.000Z';
    answer(
      subscribedBillingState({ plan: 'pro', subscription: 'canceled', nextPlan: 'free', currentPeriodEnd: periodEnd }),
    );
    const { menu } = await openAccountMenu();
    expect(await within(menu()!).findByText(`Pro until ${dateInWords(periodEnd)}, then Free`)).toBeDefined();
    expect(within(menu()!).getByRole('button', { name: 'Manage billing' })).toBeDefined();
    expect(within(menu()!).queryByRole('link', { name: 'Upgrade' })).toBeNull();
  });

  it('say plainly when the portal cannot be reached, and change nothing', async () => {
    answer(subscribedBillingState());
    const { user, menu } = await openAccountMenu();
    const manage = await within(menu()!).findByRole('button', { name: 'Manage billing' });
    fetchMock.mockResolvedValueOnce(jsonAnswer(503, { error: { code: 'NOT_READY', message: 'Unavailable.' } }));
    await user.click(manage);
    expect((await within(menu()!).findByRole('alert')).textContent).toMatch(/You have not been charged/);
    expect(assign).not.toHaveBeenCalled();
  });
});
