import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { renderWithApp } from '@/testing/render';
import { ImagePanel } from './components/ImagePanel';
import { ImageSetGrid } from './components/ImageSetGrid';
import { LibraryItem } from './library/components/LibraryItem';
import { resultFileName } from './result-file-name';
import { useGenerationsStore } from './stores/generations-store';
import * as download from './utils/download-file';

const MADE_AT = '2024-05-01T10:00:00.000Z';
const MADE_AT_MS = Date.parse(MADE_AT);
const png = (n: number) => ({ url: `https://api.example/artifacts/image_${n}.png?sig=x`, mimeType: 'image/png' });

const singleImage = () =>
  buildGeneration({ kind: 'image', status: 'completed', progress: 100, createdAt: MADE_AT, result: png(1) });

// The network and the browser's save dialog are the boundary: what matters here is the name asked for.
const downloadFile = vi.spyOn(download, 'downloadFile').mockResolvedValue(undefined);

beforeEach(() => {
  downloadFile.mockClear();
  useGenerationsStore.getState().cleared();
});

describe('resultFileName', () => {
  it('names a result after the product and when it was made, with its file type', () => {
    expect(resultFileName(singleImage())).toBe(`mediagen-${MADE_AT_MS}.png`);
    const video = buildGeneration({ kind: 'video', createdAt: MADE_AT, result: { url: 'v', mimeType: 'video/mp4' } });
    expect(resultFileName(video)).toBe(`mediagen-${MADE_AT_MS}.mp4`);
    const speech = buildGeneration({
      kind: 'speech',
      createdAt: MADE_AT,
      result: { url: 's', mimeType: 'audio/mpeg' },
    });
    expect(resultFileName(speech)).toBe(`mediagen-${MADE_AT_MS}.mp3`);
  });

  it('numbers the images of a set from 1, and leaves a set of one unnumbered', () => {
    const set = buildGeneration({
      kind: 'image',
      createdAt: MADE_AT,
      result: png(1),
      outputs: [png(1), { missing: 'filtered', filtered: true }, { ...png(3), mimeType: 'image/webp' }],
    });
    expect(resultFileName(set, 0)).toBe(`mediagen-${MADE_AT_MS}-1.png`);
    expect(resultFileName(set, 2)).toBe(`mediagen-${MADE_AT_MS}-3.webp`);
    const setOfOne = buildGeneration({ kind: 'image', createdAt: MADE_AT, result: png(1), outputs: [png(1)] });
    expect(resultFileName(setOfOne, 0)).toBe(`mediagen-${MADE_AT_MS}.png`);
  });

  it('falls back to .bin for a file type it does not know', () => {
    const odd = buildGeneration({ createdAt: MADE_AT, result: { url: 'x', mimeType: 'application/x-odd' } });
    expect(resultFileName(odd)).toBe(`mediagen-${MADE_AT_MS}.bin`);
  });
});

describe('the same image downloaded from the dashboard and the library', () => {
  it('is saved under the same name, whenever it is downloaded', async () => {
    const user = userEvent.setup();
    const image = singleImage();
    renderWithApp(<ImagePanel signedIn onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
    act(() => useGenerationsStore.getState().started(image));
    await user.click(screen.getByRole('button', { name: 'Download image' }));
    await screen.findByText('Image downloaded successfully!');

    renderWithApp(<LibraryItem generation={image} />);
    await user.click(screen.getByRole('button', { name: 'Download' }));

    const names = downloadFile.mock.calls.map(([, name]) => name);
    expect(names).toEqual([`mediagen-${MADE_AT_MS}.png`, `mediagen-${MADE_AT_MS}.png`]);
  });

  it("saves each image of a set under the set's name and its number", async () => {
    const user = userEvent.setup();
    const set = buildGeneration({
      kind: 'image',
      status: 'completed',
      createdAt: MADE_AT,
      result: png(1),
      outputs: [png(1), png(2)],
    });
    renderWithApp(<ImageSetGrid generation={set} />);
    await user.click(screen.getByRole('button', { name: 'Download image 2 of 2' }));
    expect(downloadFile).toHaveBeenCalledWith(png(2).url, `mediagen-${MADE_AT_MS}-2.png`);
  });
});
