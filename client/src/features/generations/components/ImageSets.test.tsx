import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import type { Generation } from '@mediagen/shared';
import { buildGeneration } from '@/testing/generation-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { LibraryItem } from '../library/components/LibraryItem';
import { useGenerationsStore } from '../stores/generations-store';
import { useImageDraftStore } from '../stores/image-draft-store';
import { ImagePanel } from './ImagePanel';
import { ImageSetGrid } from './ImageSetGrid';

const fetchMock = stubFetch();
beforeEach(() => {
  useGenerationsStore.getState().cleared();
  useImageDraftStore.setState({ draft: null });
});
afterEach(() => toast.dismiss());

const url = (n: number) => `https://api.example/artifacts/image_${n}.png?sig=x`;

/** A completed set of three, its second image filtered by the provider. */
const completedSet = (): Generation =>
  buildGeneration({
    kind: 'image',
    status: 'completed',
    version: 3,
    progress: 100,
    token: 'spent',
    tokenCount: 3,
    tokensReturned: 1,
    prompt: 'three foxes',
    result: { url: url(1), mimeType: 'image/png' },
    outputs: [
      { url: url(1), mimeType: 'image/png', seed: 40 },
      { missing: 'filtered', filtered: true, seed: 41 },
      { url: url(3), mimeType: 'image/png', seed: 42 },
    ],
    image: {
      model: 'stable-image-core',
      aspectRatio: '16:9',
      stylePreset: 'anime',
      negativePrompt: 'fog',
      samples: 3,
      seed: 40,
    },
  });

describe('image sets in the panel', () => {
  it('offer each plan its number of images, locking the rest with the plan that unlocks them, and send it as samples', async () => {
    fetchMock.mockImplementation(async () => jsonAnswer(202, buildGeneration({ kind: 'image', tokenCount: 3 })));
    renderWithApp(<ImagePanel signedIn plan="pro" onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Image settings/ }));
    const count = screen.getByLabelText('Number of images');
    const option = (n: number) => count.querySelector<HTMLOptionElement>(`option[value="${n}"]`)!;
    expect(option(4)).toMatchObject({ disabled: false, textContent: '4' });
    expect(option(5)).toMatchObject({ disabled: true, textContent: '5 (Enterprise)' });
    await user.selectOptions(count, '3');
    expect(screen.getByText('Uses 3 image tokens, one per image.')).toBeDefined();
    await user.type(screen.getByLabelText('Image prompt'), 'three foxes');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(JSON.parse(fetchMock.mock.calls.at(-1)![1]?.body as string)).toEqual({
      kind: 'image',
      prompt: 'three foxes',
      samples: 3,
    });
  });

  it('lock every number above one for Free, naming Pro', async () => {
    renderWithApp(<ImagePanel signedIn plan="free" onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
    await userEvent.setup().click(screen.getByRole('button', { name: /Image settings/ }));
    const option = screen.getByLabelText('Number of images').querySelector<HTMLOptionElement>('option[value="2"]')!;
    expect(option).toMatchObject({ disabled: true, textContent: '2 (Pro)' });
  });
});

describe('image sets in the library', () => {
  function Library() {
    return (
      <Routes>
        <Route path="/library" element={<ul>{<LibraryItem generation={completedSet()} />}</ul>} />
        <Route
          path="/dashboard"
          element={<ImagePanel signedIn plan="pro" onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />}
        />
      </Routes>
    );
  }

  it('show the set as a grid with its count, each image downloadable and a filtered one said to be filtered', () => {
    renderWithApp(<Library />, { route: '/library' });
    expect(screen.getByText('3 images')).toBeDefined();
    const grid = screen.getByRole('list', { name: '3 images' });
    expect(within(grid).getAllByRole('img', { name: /^Generated image/ })).toHaveLength(2);
    expect(
      within(grid).getByRole('img', { name: 'image 2 of 3: filtered by the provider, its token returned' }),
    ).toBeDefined();
    expect(within(grid).getByRole('button', { name: 'Download image 1 of 3' })).toBeDefined();
    expect(within(grid).getByRole('button', { name: 'Download image 3 of 3' })).toBeDefined();
    expect(within(grid).queryByRole('button', { name: 'Download image 2 of 3' })).toBeNull();
  });

  it('"same seed again" opens the image panel with the prompt, the settings and that image\'s seed, sending nothing', async () => {
    renderWithApp(<Library />, { route: '/library' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Same seed again: image 3 of 3, seed 42' }));
    expect(await screen.findByLabelText('Image prompt')).toHaveProperty('value', 'three foxes');
    await user.click(screen.getByRole('button', { name: /Image settings/ }));
    expect(screen.getByLabelText('Seed')).toHaveProperty('value', '42');
    expect(screen.getByLabelText('Shape')).toHaveProperty('value', '16:9');
    expect(screen.getByLabelText('Style')).toHaveProperty('value', 'anime');
    expect(screen.getByLabelText('Leave out')).toHaveProperty('value', 'fog');
    expect(screen.getByLabelText('Number of images')).toHaveProperty('value', '1');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('an image set with images not made', () => {
  it('says which were filtered and which the provider failed on, each with its token returned, and offers no download for them', () => {
    const set = {
      ...completedSet(),
      tokenCount: 4,
      tokensReturned: 2,
      outputs: [
        { url: url(1), mimeType: 'image/png', seed: 40 },
        { missing: 'filtered' as const, filtered: true as const, seed: 41 },
        { url: url(3), mimeType: 'image/png', seed: 42 },
        { missing: 'failed' as const, seed: 43 },
      ],
    };
    renderWithApp(<ImageSetGrid generation={set} />);
    const grid = screen.getByRole('list', { name: '4 images' });
    expect(
      within(grid).getByRole('img', { name: 'image 2 of 4: filtered by the provider, its token returned' }),
    ).toBeDefined();
    const failed = within(grid).getByRole('img', {
      name: 'image 4 of 4: not made, the provider failed, its token returned',
    });
    expect(failed.textContent).toBe('Not made: the provider failed on this image. Its token was returned.');
    expect(within(grid).getAllByRole('img', { name: /^Generated image/ })).toHaveLength(2);
    expect(within(grid).queryByRole('button', { name: 'Download image 4 of 4' })).toBeNull();
  });
});
