import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { useGenerationsStore } from '../../stores/generations-store';
import { LibraryItem } from './LibraryItem';

const fetchMock = stubFetch();

beforeEach(() => {
  useGenerationsStore.getState().cleared();
});

afterEach(() => {
  toast.dismiss();
});

const DELETE_FAILED = 'The library is busy - try again in a moment';

describe('deleting from the library', () => {
  it('says a failed delete inside its dialog, which stays open, and deletes on the next try', async () => {
    const generation = buildGeneration({ kind: 'image', prompt: 'a lighthouse', status: 'completed' });
    useGenerationsStore.getState().received(generation);
    fetchMock
      .mockResolvedValueOnce(jsonAnswer(503, { error: { code: 'SERVICE_UNAVAILABLE', message: DELETE_FAILED } }))
      .mockResolvedValueOnce(new Response(null, { status: 204 }));
    renderWithApp(<LibraryItem generation={generation} plan="free" />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this image?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    // Said beside the button that failed, not by a toast over the dialog.
    expect((await within(dialog).findByRole('alert')).textContent).toBe(DELETE_FAILED);
    expect(screen.getAllByText(DELETE_FAILED)).toHaveLength(1);
    expect(useGenerationsStore.getState().byId[generation.id]).toBeDefined();

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Image deleted')).toBeDefined();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useGenerationsStore.getState().byId[generation.id]).toBeUndefined();
  });

  it('forgets a failure once the dialog is closed', async () => {
    const generation = buildGeneration({ kind: 'video', prompt: 'waves', status: 'completed' });
    fetchMock.mockResolvedValueOnce(
      jsonAnswer(503, { error: { code: 'SERVICE_UNAVAILABLE', message: DELETE_FAILED } }),
    );
    renderWithApp(<LibraryItem generation={generation} plan="pro" />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await within(screen.getByRole('dialog')).findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Keep it' }));

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(within(screen.getByRole('dialog')).queryByRole('alert')).toBeNull();
  });
});
