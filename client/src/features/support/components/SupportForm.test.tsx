import { ERROR_MESSAGES, MAX_SUPPORT_MESSAGE_LENGTH } from '@mediagen/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { getIdToken } from '@/testing/auth-client-double';
import { jsonAnswer, jsonRequestsSent, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { useAuthStore } from '@/stores/auth-store';
import { SupportForm } from './SupportForm';

const fetchMock = stubFetch();
afterEach(() => {
  useAuthStore.getState().signedOut();
});

/** Each POST /api/support the form sent. */
const sent = () => jsonRequestsSent(fetchMock);

describe('the support form', () => {
  it('a signed-out visitor sends email, topic and message without a token, and reads what happens next', async () => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(201, { id: 42 }));
    const user = userEvent.setup();
    renderWithApp(<SupportForm initialTopic="report-misuse" />);

    expect(screen.getByLabelText('Topic')).toHaveProperty('value', 'report-misuse');
    await user.type(screen.getByLabelText('Your email'), 'visitor@example.test');
    await user.type(screen.getByLabelText('Message'), 'Someone copies my voice.');
    expect(screen.getByText(`24 / ${MAX_SUPPORT_MESSAGE_LENGTH} characters`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Your request number is #42. We will reply by email to visitor@example.test.',
    );
    expect(sent()).toEqual([
      {
        url: expect.stringMatching(/\/api\/support$/) as string,
        body: { topic: 'report-misuse', message: 'Someone copies my voice.', email: 'visitor@example.test' },
        authorization: undefined,
      },
    ]);
    // A visitor's form never loads the Firebase SDK.
    expect(getIdToken).not.toHaveBeenCalled();
  });

  it('signed in, the account email is filled in and the request carries the token', async () => {
    useAuthStore.getState().signedIn('member@example.test');
    fetchMock.mockResolvedValueOnce(jsonAnswer(201, { id: 7 }));
    const user = userEvent.setup();
    renderWithApp(<SupportForm />);

    expect(screen.getByLabelText('Email (we reply here)')).toHaveProperty('value', 'member@example.test');
    await user.selectOptions(screen.getByLabelText('Topic'), 'billing');
    await user.type(screen.getByLabelText('Message'), 'Invoice please');
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    await screen.findByText(/#7/);
    expect(sent()[0]).toMatchObject({
      body: { topic: 'billing', message: 'Invoice please', email: 'member@example.test' },
      authorization: 'Bearer test-id-token',
    });
  });

  it('shows what the API refused, and keeps what was typed', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonAnswer(429, { error: { code: 'RATE_LIMITED', message: 'Too many support requests from here.' } }),
    );
    const user = userEvent.setup();
    renderWithApp(<SupportForm />);
    await user.type(screen.getByLabelText('Your email'), 'visitor@example.test');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Too many support requests from here.');
    expect(screen.getByLabelText('Message')).toHaveProperty('value', 'Hello');

    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ERROR_MESSAGES.NOT_READY);
  });

  it('asks for a message before sending a blank one', async () => {
    const user = userEvent.setup();
    renderWithApp(<SupportForm />);
    await user.type(screen.getByLabelText('Your email'), 'visitor@example.test');
    await user.type(screen.getByLabelText('Message'), '   ');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please write a message.');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
