import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { useGenerationsStore } from '../stores/generations-store';
import { ImagePanel } from './ImagePanel';

const fetchMock = stubFetch();
beforeEach(() => {
  useGenerationsStore.getState().cleared();
});

/** The image panel, signed in, with `prompt` written in its field (pasted: user-event reads [ as a key name). */
async function panelWithPrompt(prompt: string) {
  const user = userEvent.setup();
  renderWithApp(<ImagePanel signedIn onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
  const field = screen.getByLabelText('Image prompt');
  await user.click(field);
  await user.paste(prompt);
  return { user, field };
}

const parts = () =>
  within(screen.getByRole('list', { name: 'Prompt parts' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('how the image panel reads a prompt before sending it', () => {
  it('shows nothing for a plain prompt', async () => {
    await panelWithPrompt('a lighthouse on a cliff at dusk');
    expect(screen.queryByText('Read as:')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Prompt parts' })).toBeNull();
  });

  it('lists the weighted parts and what is kept out, described to the prompt field', async () => {
    const { field } = await panelWithPrompt('mountain lake::2 AND cabin::0.5 [blurry, extra fingers]');
    expect(screen.getByText('Read as:')).toBeDefined();
    expect(parts()).toEqual([
      'mountain lake weight ×2',
      'cabin weight ×0.5',
      'without blurry, extra fingers weight ×1',
    ]);
    const reading = document.getElementById(field.getAttribute('aria-describedby')!)!;
    expect(reading.getAttribute('aria-live')).toBe('polite');
    expect(reading.textContent).toContain('Read as:');
  });

  it('sends the prompt as written once it can be read', async () => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(202, buildGeneration({ kind: 'image', status: 'queued' })));
    const { user } = await panelWithPrompt('city skyline, watercolor AND cyberpunk');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    await screen.findByText('Preparing to generate image...');
    expect(JSON.parse(fetchMock.mock.calls[0]![1]?.body as string)).toEqual({
      kind: 'image',
      prompt: 'city skyline, watercolor AND cyberpunk',
    });
  });

  it('says why syntax cannot be read, and a click sends nothing', async () => {
    const { user } = await panelWithPrompt('portrait of a chef [blurry, extra fingers');
    const why = 'A [ is never closed: write what to keep out between [ and ], like [blurry]';
    expect(screen.getByText(`Can’t read this prompt: ${why}`)).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByText(why)).toBeDefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a blocked word inside brackets before sending', async () => {
    const { user } = await panelWithPrompt('a marble statue [nude]');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByText('Prompt contains inappropriate content: nude')).toBeDefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
