import type { Generation } from '@mediagen/shared';
import { describe, expect, it } from 'vitest';
import { stackOfThisWorker } from './support/stack';
import { browserForFile, openPage } from './support/browser';
import { createUser, expectNoConsoleErrors, signInThroughLoginPage, uniqueEmail } from './support/app';
import { movePlan } from './support/plans';

const { api, client, emulator, databaseUrl } = stackOfThisWorker();

const browser = browserForFile();

/** What a program does with the key: plain HTTP, as `curl -H "Authorization: Bearer $KEY"` would. */
function withKey(key: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('API keys', () => {
  it('a key made in the browser generates over plain HTTP, and stops working once revoked there', async () => {
    const email = uniqueEmail('api-keys');
    const token = await createUser(emulator, email);
    await movePlan(databaseUrl, token, 'enterprise');
    const { page, context, errors } = await openPage(browser(), { width: 375, height: 800 });
    try {
      await signInThroughLoginPage(page, client, email);
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('Integration test');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = await page.getByLabel('API key').inputValue();
      expect(secret).toMatch(/^mgk_[0-9A-Za-z]{38}$/);

      const submitted = await withKey(secret, 'POST', '/api/generations', {
        kind: 'speech',
        input: 'Made by a program',
        voice: 'nova',
        language: 'en-US',
      });
      expect(submitted.status).toBe(202);
      const generation = (await submitted.json()) as Generation;
      const read = await withKey(secret, 'GET', `/api/generations/${generation.id}`);
      expect(read.status).toBe(200);
      expect(((await read.json()) as Generation).id).toBe(generation.id);

      await page.getByRole('button', { name: 'I have copied it' }).click();
      await page.getByRole('button', { name: 'Revoke Integration test' }).click();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('No keys yet.').waitFor();
      const refused = await withKey(secret, 'GET', '/api/me');
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({
        error: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' },
      });
      expectNoConsoleErrors(errors, 'the API keys page');
    } finally {
      await context.close();
    }
  });
});
