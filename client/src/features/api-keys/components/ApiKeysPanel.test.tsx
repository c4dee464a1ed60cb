import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApiKey, ApiKeyList } from '@mediagen/shared';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { ApiKeysPanel } from './ApiKeysPanel';

const fetchMock = stubFetch();

const SECRET = 'mgk_0123456789abcdefghijABCDEFGHIJ01ab3Xy9';

const listed = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  id: 'key-1',
  name: 'Nightly batch',
  lastFour: 'Zz99',
  scopes: ['read'],
  createdAt: '2026-01-10T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
  ...overrides,
});

const list = (overrides: Partial<ApiKeyList> = {}): ApiKeyList => ({
  apiAccess: true,
  maxKeys: 20,
  keys: [],
  ...overrides,
});

/** Each request the page sent: method, path and body. */
const sent = () =>
  fetchMock.mock.calls.map(([url, init]) => ({
    method: init?.method ?? 'GET',
    path: new URL(String(url)).pathname,
    body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined,
  }));

describe('the API keys page', () => {
  it('creates a key with its name, scopes and expiry, and shows the secret once with a Copy button', async () => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(200, list()));
    fetchMock.mockResolvedValueOnce(
      jsonAnswer(201, {
        ...listed({ id: 'key-2', name: 'CI', scopes: ['generate'], lastFour: 'Xy9' }),
        secret: SECRET,
      }),
    );
    const user = userEvent.setup();
    renderWithApp(<ApiKeysPanel />);

    await user.type(await screen.findByLabelText('Name'), 'CI');
    await user.click(screen.getByRole('checkbox', { name: /^Read/ }));
    await user.selectOptions(screen.getByLabelText('Expires'), 'In 30 days');
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    expect(await screen.findByText(/you won’t see it again/)).toBeTruthy();
    expect(screen.getByLabelText('API key')).toHaveProperty('value', SECRET);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(screen.getByText('Copied to the clipboard.')).toBeTruthy();
    expect(sent()[1]).toEqual({
      method: 'POST',
      path: '/api/keys',
      body: { name: 'CI', scopes: ['generate'], expiresInDays: 30 },
    });

    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByLabelText('API key')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
    const keys = within(screen.getByRole('list'));
    expect(keys.getByText('CI')).toBeTruthy();
    expect(keys.getByText('Scopes: generate')).toBeTruthy();
  });

  it('says what the server refused, and keeps the form', async () => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(200, list()));
    fetchMock.mockResolvedValueOnce(
      jsonAnswer(409, {
        error: { code: 'TOO_MANY_API_KEYS', message: 'You have as many API keys as an account may hold.' },
      }),
    );
    const user = userEvent.setup();
    renderWithApp(<ApiKeysPanel />);
    await user.type(await screen.findByLabelText('Name'), 'One more');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You have as many API keys as an account may hold.');
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'One more');
  });

  it('revokes a key only after a confirmation', async () => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(200, list({ keys: [listed()] })));
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    const user = userEvent.setup();
    renderWithApp(<ApiKeysPanel />);

    await user.click(await screen.findByRole('button', { name: 'Revoke Nightly batch' }));
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(sent()).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Revoke Nightly batch' }));
    expect(screen.getByText('Programs using it stop working at once.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('No keys yet.')).toBeTruthy();
    expect(sent()[1]).toEqual({ method: 'DELETE', path: '/api/keys/key-1', body: undefined });
  });

  it('tells a plan without API access that the API is Enterprise’s, with a way to upgrade, and still lists kept keys', async () => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(200, list({ apiAccess: false, keys: [listed()] })));
    renderWithApp(<ApiKeysPanel />);

    expect(await screen.findByRole('heading', { name: 'The API is part of Enterprise' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('button', { name: 'Create key' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Revoke Nightly batch' })).toBeTruthy();
  });
});
