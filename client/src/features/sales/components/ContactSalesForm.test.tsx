import { SALES_VOLUME_LABELS } from '@mediagen/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/stores/auth-store';
import { getIdToken } from '@/testing/auth-client-double';
import { jsonAnswer, jsonRequestsSent, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { ContactSalesForm } from './ContactSalesForm';

const fetchMock = stubFetch();
afterEach(() => {
  useAuthStore.getState().signedOut();
});

/** Each POST /api/sales the form sent. */
const sent = () => jsonRequestsSent(fetchMock);

async function fillIn(user: ReturnType<typeof userEvent.setup>, fields: { email?: string; company: string }) {
  if (fields.email !== undefined) await user.type(screen.getByLabelText('Your email'), fields.email);
  await user.type(screen.getByLabelText('Company'), fields.company);
  await user.selectOptions(screen.getByLabelText('Expected volume'), SALES_VOLUME_LABELS['10k-100k']);
  await user.type(screen.getByLabelText('Message'), 'We make product videos for 40 shops.');
}

describe('the Contact Sales form', () => {
  it('a signed-out visitor sends email, company, volume and message without a token, and reads what happens next', async () => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(201, { id: 3 }));
    const user = userEvent.setup();
    renderWithApp(<ContactSalesForm />);
    await fillIn(user, { email: 'buyer@example.test', company: 'Acme Shops' });
    await user.click(screen.getByRole('button', { name: 'Send to sales' }));

    expect((await screen.findByRole('status')).textContent).toContain('We will reply by email to buyer@example.test.');
    expect(sent()).toEqual([
      {
        url: expect.stringMatching(/\/api\/sales$/) as string,
        body: {
          email: 'buyer@example.test',
          company: 'Acme Shops',
          volume: '10k-100k',
          message: 'We make product videos for 40 shops.',
        },
        authorization: undefined,
      },
    ]);
    expect(getIdToken).not.toHaveBeenCalled();
  });

  it('signed in, asks no email: the request carries the token and the reply goes to the account', async () => {
    useAuthStore.getState().signedIn('member@example.test');
    fetchMock.mockResolvedValueOnce(jsonAnswer(201, { id: 4 }));
    const user = userEvent.setup();
    renderWithApp(<ContactSalesForm />);
    expect(screen.queryByLabelText('Your email')).toBeNull();
    await fillIn(user, { company: 'Acme Shops' });
    await user.click(screen.getByRole('button', { name: 'Send to sales' }));

    expect((await screen.findByRole('status')).textContent).toContain('member@example.test');
    expect(sent()[0]).toMatchObject({
      body: { company: 'Acme Shops', volume: '10k-100k', message: 'We make product videos for 40 shops.' },
      authorization: 'Bearer test-id-token',
    });
    expect(sent()[0]?.body).not.toHaveProperty('email');
  });

  it('asks for what is missing, one thing at a time, before sending anything', async () => {
    const user = userEvent.setup();
    renderWithApp(<ContactSalesForm />);
    const send = () => user.click(screen.getByRole('button', { name: 'Send to sales' }));

    await send();
    expect(screen.getByRole('alert').textContent).toBe('Please enter your email so we can reply.');
    await user.type(screen.getByLabelText('Your email'), 'buyer@example.test');
    await send();
    expect(screen.getByRole('alert').textContent).toBe('Please enter your company.');
    await user.type(screen.getByLabelText('Company'), '   ');
    await send();
    expect(screen.getByRole('alert').textContent).toBe('Please enter your company.');
    await user.type(screen.getByLabelText('Company'), 'Acme');
    await send();
    expect(screen.getByRole('alert').textContent).toBe('Please choose your expected volume.');
    await user.selectOptions(screen.getByLabelText('Expected volume'), SALES_VOLUME_LABELS['under-1k']);
    await send();
    expect(screen.getByRole('alert').textContent).toBe('Please write a message.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows what the API refused, and keeps what was typed', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonAnswer(400, { error: { code: 'INVALID_REQUEST', message: 'email must be an email address' } }),
    );
    const user = userEvent.setup();
    renderWithApp(<ContactSalesForm />);
    await fillIn(user, { email: 'not-an-address', company: 'Acme Shops' });
    await user.click(screen.getByRole('button', { name: 'Send to sales' }));

    expect((await screen.findByRole('alert')).textContent).toBe('email must be an email address');
    expect(screen.getByLabelText('Company')).toHaveProperty('value', 'Acme Shops');
    expect(screen.getByRole('button', { name: 'Send to sales' })).toHaveProperty('disabled', false);
  });
});
