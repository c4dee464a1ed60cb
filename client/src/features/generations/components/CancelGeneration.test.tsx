import { ERROR_MESSAGES, type Generation } from '@mediagen/shared';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { at, buildGeneration } from '@/testing/generation-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { LibraryItem } from '../library/components/LibraryItem';
import { useGenerationsStore } from '../stores/generations-store';
import { VideoPanel } from './VideoPanel';

const fetchMock = stubFetch();

beforeEach(() => {
  useGenerationsStore.getState().cleared();
});

afterEach(() => {
  // Sonner's toasts outlive a render: left up, they would hold the next test's toasts back.
  toast.dismiss();
});

/** What the socket would deliver; the socket itself is the network boundary. */
function socketUpdate(generation: Generation) {
  act(() => useGenerationsStore.getState().received(generation));
}

/** What a screen reader reads after the control's name (its aria-describedby text). */
function descriptionOf(element: HTMLElement): string | null | undefined {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent).join(' ');
}

const calls = (suffix: string) => fetchMock.mock.calls.filter(([input]) => String(input).endsWith(suffix));
const RETURNS = 'Canceling now returns your token.';
const STAYS_SPENT = 'The video has started: canceling stops it, and the token stays spent.';

/** A video the API accepted, running on the panel. */
async function runningVideo(overrides: Partial<Generation> = {}) {
  const queued = buildGeneration({ kind: 'video', prompt: 'waves' });
  fetchMock.mockResolvedValueOnce(jsonAnswer(202, queued));
  const onBalanceChange = vi.fn();
  renderWithApp(<VideoPanel signedIn onRequireSignIn={vi.fn()} onBalanceChange={onBalanceChange} />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Video prompt'), 'waves');
  await user.click(screen.getByRole('button', { name: 'Generate Video' }));
  await screen.findByRole('button', { name: 'Generating...' });
  const active = { ...queued, status: 'active' as const, version: 2, progress: 30, updatedAt: at(2), ...overrides };
  socketUpdate(active);
  onBalanceChange.mockClear();
  return { user, active, onBalanceChange };
}

function canceledFrom(generation: Generation, token: Generation['token']): Generation {
  return {
    ...generation,
    status: 'canceled',
    version: generation.version + 1,
    token,
    updatedAt: at(10),
    error: { code: 'CANCELED', message: ERROR_MESSAGES.CANCELED },
  };
}

describe('Cancel on the panel', () => {
  it('says before whether the token comes back, as the view tells it', async () => {
    const { active } = await runningVideo();
    const button = screen.getByRole('button', { name: 'Cancel video' });
    expect(descriptionOf(button)).toBe(RETURNS);
    socketUpdate({ ...active, version: 3, paidWorkStarted: true, updatedAt: at(3) });
    expect(descriptionOf(screen.getByRole('button', { name: 'Cancel video' }))).toBe(STAYS_SPENT);
  });

  it('cancels a video that started: shows it canceled, says the token stays spent, once', async () => {
    const { user, active, onBalanceChange } = await runningVideo({ paidWorkStarted: true });
    fetchMock.mockResolvedValueOnce(jsonAnswer(200, canceledFrom(active, 'spent')));
    await user.click(screen.getByRole('button', { name: 'Cancel video' }));

    const [url, init] = calls(`/api/generations/${active.id}/cancel`)[0]!;
    expect(String(url)).toBe(`http://127.0.0.1:3000/api/generations/${active.id}/cancel`);
    expect(init?.method).toBe('POST');
    expect(await screen.findByText('Video canceled')).toBeDefined();
    // The toast's second line, and the panel's own line.
    expect(screen.getByText('The video had started, so its token stays spent.')).toBeDefined();
    expect(screen.getByText('Video canceled. The video had started, so its token stays spent.')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Cancel video' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Generate Video' })).toHaveProperty('disabled', false);
    expect(onBalanceChange).toHaveBeenCalled();
    // The socket's own announcement of the cancel adds no second toast.
    socketUpdate(canceledFrom(active, 'spent'));
    expect(screen.queryByText(ERROR_MESSAGES.CANCELED)).toBeNull();
  });

  it('a queued one gives its token back', async () => {
    const { user, active } = await runningVideo({ status: 'queued', version: 1, progress: 0 });
    expect(descriptionOf(screen.getByRole('button', { name: 'Cancel video' }))).toBe(RETURNS);
    fetchMock.mockResolvedValueOnce(jsonAnswer(200, canceledFrom(active, 'refunded')));
    await user.click(screen.getByRole('button', { name: 'Cancel video' }));
    expect(await screen.findByText('Video canceled')).toBeDefined();
    expect(screen.getAllByText('Your video token was returned.').length).toBeGreaterThan(0);
  });

  it('when it finished first (409), says so and shows the result', async () => {
    const { user, active } = await runningVideo({ paidWorkStarted: true });
    const completed: Generation = {
      ...active,
      status: 'completed',
      version: 4,
      progress: 100,
      token: 'spent',
      updatedAt: at(9),
      result: { url: 'http://x/v.mp4', mimeType: 'video/mp4' },
    };
    fetchMock
      .mockResolvedValueOnce(
        jsonAnswer(409, { error: { code: 'ALREADY_FINISHED', message: ERROR_MESSAGES.ALREADY_FINISHED } }),
      )
      .mockResolvedValueOnce(jsonAnswer(200, completed));
    await user.click(screen.getByRole('button', { name: 'Cancel video' }));
    expect(await screen.findByText('The video finished before it could be canceled')).toBeDefined();
    expect(screen.getByText('Your video is ready.')).toBeDefined();
    expect(screen.getByLabelText('Generated video')).toBeDefined();
    expect(calls(`/api/generations/${active.id}`)).toHaveLength(1);
  });

  it('a failed request leaves it running, with Cancel still there', async () => {
    const { user } = await runningVideo();
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    await user.click(screen.getByRole('button', { name: 'Cancel video' }));
    expect(await screen.findByText(ERROR_MESSAGES.NOT_READY)).toBeDefined();
    expect(screen.getByRole('button', { name: 'Cancel video' })).toHaveProperty('disabled', false);
    expect(screen.getByText('Generating video... 30%')).toBeDefined();
  });
});

describe('Reset of a running panel', () => {
  it('asks first; "Keep it running" clears the panel without stopping it, and says so', async () => {
    const { user, active } = await runningVideo({ paidWorkStarted: true });
    await user.click(screen.getByRole('button', { name: 'Reset video' }));
    const dialog = screen.getByRole('dialog', { name: 'Your video is still running' });
    expect(within(dialog).getByText(STAYS_SPENT)).toBeDefined();
    // Keeping it is the safe default under the keyboard.
    expect(within(dialog).getByRole('button', { name: 'Keep it running' })).toBe(document.activeElement);

    await user.click(within(dialog).getByRole('button', { name: 'Keep it running' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Video panel cleared. It keeps running: find it in your library.')).toBeDefined();
    expect(screen.queryByText('Video content has been reset!')).toBeNull();
    expect(screen.getByLabelText('Video prompt')).toHaveProperty('value', '');
    expect(screen.queryByText('Generating video... 30%')).toBeNull();
    expect(calls('/cancel')).toHaveLength(0);
    expect(useGenerationsStore.getState().byId[active.id]?.status).toBe('active');
  });

  it('"Cancel it" cancels through the API, then clears the panel', async () => {
    const { user, active } = await runningVideo();
    await user.click(screen.getByRole('button', { name: 'Reset video' }));
    const dialog = screen.getByRole('dialog', { name: 'Your video is still running' });
    expect(within(dialog).getByText(RETURNS)).toBeDefined();
    fetchMock.mockResolvedValueOnce(jsonAnswer(200, canceledFrom(active, 'refunded')));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel it' }));
    expect(await screen.findByText('Video canceled')).toBeDefined();
    expect(screen.getByText('Your video token was returned.')).toBeDefined();
    expect(calls(`/api/generations/${active.id}/cancel`)).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('Video prompt')).toHaveProperty('value', '');
    expect(screen.queryByText(/^Video canceled\. /)).toBeNull();
  });

  it('closing the question changes nothing', async () => {
    const { user } = await runningVideo();
    await user.click(screen.getByRole('button', { name: 'Reset video' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('Video prompt')).toHaveProperty('value', 'waves');
    expect(screen.getByText('Generating video... 30%')).toBeDefined();
    expect(calls('/cancel')).toHaveLength(0);
  });
});

describe('Cancel in the library', () => {
  function LiveItem({ id }: { id: string }) {
    const generation = useGenerationsStore((state) => state.byId[id]);
    return <ul>{generation && <LibraryItem generation={generation} />}</ul>;
  }

  it('cancels a running one: the item reads Canceled and says what became of the token', async () => {
    const running = buildGeneration({ kind: 'video', status: 'active', version: 3, paidWorkStarted: true });
    act(() => useGenerationsStore.getState().loaded([running]));
    renderWithApp(<LiveItem id={running.id} />);
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Cancel video' });
    expect(descriptionOf(button)).toBe(STAYS_SPENT);

    fetchMock.mockResolvedValueOnce(jsonAnswer(200, canceledFrom(running, 'spent')));
    await user.click(button);
    expect(await screen.findByText('Video canceled')).toBeDefined();
    expect(screen.getByText('Canceled')).toBeDefined();
    expect(screen.getAllByText('The video had started, so its token stays spent.')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Cancel video' })).toBeNull();
  });

  it('has no Cancel on a finished one', () => {
    const done = buildGeneration({ kind: 'image', status: 'completed', progress: 100, token: 'spent' });
    act(() => useGenerationsStore.getState().loaded([done]));
    renderWithApp(<LiveItem id={done.id} />);
    expect(screen.queryByRole('button', { name: /^Cancel/ })).toBeNull();
  });
});
