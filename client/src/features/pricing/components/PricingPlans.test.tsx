import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PaymentPage } from '@/app/routes/payment';
import { PricingPage } from '@/app/routes/pricing';

function renderPricing() {
  render(
    <MemoryRouter initialEntries={['/pricing']}>
      <Routes>
        <Route path="/pricing" element={<PricingPage />} />
        <Route path="/payment" element={<PaymentPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const price = (planId: string) => screen.getByTestId(`price-${planId}`).textContent;

describe('pricing plans', () => {
  it('show monthly prices first', () => {
    renderPricing();
    expect(screen.getByRole('button', { name: 'Monthly' }).getAttribute('aria-pressed')).toBe('true');
    expect(price('free')).toBe('$0/month');
    expect(price('pro')).toBe('$29/month');
    expect(price('enterprise')).toBe('$99/month');
  });

  it("switch to yearly prices with 'Yearly (Save 20%)'", async () => {
    const user = renderPricing();
    await user.click(screen.getByRole('button', { name: 'Yearly (Save 20%)' }));
    expect(price('pro')).toBe('$279/year');
    expect(price('enterprise')).toBe('$949/year');
    expect(price('free')).toBe('Free');
    await user.click(screen.getByRole('button', { name: 'Monthly' }));
    expect(price('pro')).toBe('$29/month');
  });

  it('carry Free to /payment, which says it needs no payment', async () => {
    const user = renderPricing();
    await user.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(screen.getByRole('heading', { name: 'Payment' })).toBeDefined();
    expect(screen.getByText(/The Free plan needs no payment/)).toBeDefined();
  });
});

describe('payment page', () => {
  it('links back to pricing when no plan was chosen', () => {
    render(
      <MemoryRouter initialEntries={['/payment']}>
        <PaymentPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Back to pricing' }).getAttribute('href')).toBe('/pricing');
  });
});
