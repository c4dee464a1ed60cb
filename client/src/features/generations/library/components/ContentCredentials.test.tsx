import type { ContentCredentialsSummary, Generation } from '@mediagen/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { renderWithApp } from '@/testing/render';
import { LibraryItem } from './LibraryItem';

const SIGNED_AT = '2026-11-23T10:00:02.000Z';
const signedOn = new Date(SIGNED_AT).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

const credentials: ContentCredentialsSummary = {
  signedBy: 'MediaGen content signer',
  issuer: 'MediaGen',
  signedAt: SIGNED_AT,
  generator: 'MediaGen 1.0.0',
  model: 'sd3.5-large',
  digitalSourceType: 'trainedAlgorithmicMedia',
  actions: { original: ['c2pa.created'], marked: ['c2pa.opened', 'c2pa.watermarked'] },
};

const completed = (file: Generation['result'], overrides: Partial<Generation> = {}) =>
  buildGeneration({ status: 'completed', version: 3, progress: 100, token: 'spent', result: file, ...overrides });

/** Opens the item's Content Credentials with the keyboard and returns what it says. */
async function openCredentials(): Promise<HTMLElement> {
  const user = userEvent.setup();
  const toggle = screen.getByRole('button', { name: 'Content Credentials' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  const details = document.getElementById(toggle.getAttribute('aria-controls')!)!;
  expect(details.hidden).toBe(true);
  toggle.focus();
  await user.keyboard('{Enter}');
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  expect(details.hidden).toBe(false);
  return details;
}

describe("a library item's Content Credentials", () => {
  const image = { url: 'https://api.example/a.png', mimeType: 'image/png', contentCredentials: credentials };

  it('on a paid plan, say what the original says: made with AI by its model, by MediaGen, signed, by whom and when', async () => {
    renderWithApp(<LibraryItem generation={completed(image)} plan="pro" />);
    const details = await openCredentials();
    const sentences = await within(details).findAllByRole('listitem');
    expect(sentences.map((item) => item.textContent)).toEqual([
      'Made with AI by sd3.5-large, in MediaGen 1.0.0.',
      `Signed by MediaGen (MediaGen content signer) on ${signedOn}.`,
      'This is the original file, as the model made it.',
    ]);
    const verify = within(details).getByRole('link', { name: 'contentcredentials.org/verify' });
    expect(verify.getAttribute('href')).toBe('https://contentcredentials.org/verify');
  });

  it('on Free, describe the marked copy it gets: the MediaGen mark, and the original it points to', async () => {
    renderWithApp(<LibraryItem generation={completed(image)} plan="free" />);
    const details = await openCredentials();
    const sentences = await within(details).findAllByRole('listitem');
    expect(sentences.map((item) => item.textContent)).toEqual([
      'Made with AI by sd3.5-large, in MediaGen 1.0.0.',
      `Signed by MediaGen (MediaGen content signer) on ${signedOn}.`,
      'This copy points to the original it was made from.',
      'This copy carries the MediaGen mark.',
    ]);
  });

  it('say plainly that an MP4 video carries AI metadata but no Content Credentials yet', async () => {
    const video = { url: 'https://api.example/v.mp4', mimeType: 'video/mp4' };
    renderWithApp(<LibraryItem generation={completed(video, { kind: 'video' })} plan="pro" />);
    const details = await openCredentials();
    await within(details).findByText('MP4 files carry AI metadata but no Content Credentials yet.');
    expect(details.textContent).toBe('MP4 files carry AI metadata but no Content Credentials yet.');
    expect(within(details).queryByRole('link')).toBeNull();
  });

  it("of an image set, speak for its images and say how many carry them (one not made isn't counted)", async () => {
    const outputs: Generation['outputs'] = [
      { ...image, seed: 1 },
      { missing: 'filtered', filtered: true, seed: 2 },
      { url: 'https://api.example/c.png', mimeType: 'image/png', seed: 3 },
    ];
    renderWithApp(<LibraryItem generation={completed(image, { outputs, tokenCount: 3 })} plan="enterprise" />);
    const details = await openCredentials();
    await within(details).findByText('Content Credentials on 1 of the 2 images; the rest carry AI metadata only.');
    expect(within(details).getAllByRole('listitem')[0]!.textContent).toBe(
      'Made with AI by sd3.5-large, in MediaGen 1.0.0.',
    );
  });

  it('are not offered before the file is made', () => {
    renderWithApp(<LibraryItem generation={buildGeneration({ status: 'active', version: 2 })} plan="pro" />);
    expect(screen.queryByRole('button', { name: 'Content Credentials' })).toBeNull();
  });
});
