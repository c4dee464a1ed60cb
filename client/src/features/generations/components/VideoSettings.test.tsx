import type { PlanId } from '@mediagen/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { useGenerationsStore } from '../stores/generations-store';
import { VideoPanel } from './VideoPanel';

const fetchMock = stubFetch();
beforeEach(() => useGenerationsStore.getState().cleared());

function renderVideoPanel(plan: PlanId) {
  fetchMock.mockImplementation(async () => jsonAnswer(202, buildGeneration({ kind: 'video', prompt: 'waves' })));
  renderWithApp(<VideoPanel signedIn plan={plan} onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
  return userEvent.setup();
}

const option = (select: string, text: string) =>
  [...screen.getByLabelText(select).querySelectorAll('option')].find((element) => element.textContent === text)!;

async function submittedBody(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Video prompt'), 'waves');
  await user.click(screen.getByRole('button', { name: 'Generate Video' }));
  await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
  return JSON.parse(fetchMock.mock.calls.at(-1)![1]?.body as string) as Record<string, unknown>;
}

describe('video settings', () => {
  it("say the plan's own video while closed: the base model for Free, Hailuo 2.3 for Pro", () => {
    renderVideoPanel('free');
    expect(screen.getByRole('button', { name: /Video settings/ }).textContent).toContain('T2V-01 · 720P · 6 s');
  });

  it('show a Free creator Hailuo locked with the plan that unlocks it, and send the spec defaults', async () => {
    const user = renderVideoPanel('free');
    await user.click(screen.getByRole('button', { name: /Video settings/ }));
    expect(option('Model and resolution', 'Hailuo 2.3 · 1080P (Pro)').disabled).toBe(true);
    expect(option('Model and resolution', 'Hailuo 2.3 · 768P (Pro)').disabled).toBe(true);
    expect(option('Length', '10 seconds').disabled).toBe(true);
    expect(await submittedBody(user)).toEqual({
      kind: 'video',
      prompt: 'waves',
      quality: 'standard',
      duration: 6,
      style: 'cinematic',
    });
  });

  it('let a Pro creator ask for 1080P, which Hailuo renders in 6-second clips only, in HD', async () => {
    const user = renderVideoPanel('pro');
    expect(screen.getByRole('button', { name: /Video settings/ }).textContent).toContain('Hailuo 2.3 · 768P · 6 s');
    await user.click(screen.getByRole('button', { name: /Video settings/ }));
    await user.selectOptions(screen.getByLabelText('Length'), '10');
    await user.selectOptions(screen.getByLabelText('Model and resolution'), 'MiniMax-Hailuo-2.3 1080P');
    expect(option('Length', '10 seconds').disabled).toBe(true);
    expect(screen.getByText('Hailuo 2.3 renders 1080P in 6-second clips only.')).toBeDefined();
    expect(await submittedBody(user)).toEqual({
      kind: 'video',
      prompt: 'waves',
      quality: 'hd',
      duration: 6,
      style: 'cinematic',
      model: 'MiniMax-Hailuo-2.3',
      resolution: '1080P',
    });
  });

  it('send a Pro creator’s 10-second 768P video', async () => {
    const user = renderVideoPanel('pro');
    await user.click(screen.getByRole('button', { name: /Video settings/ }));
    await user.selectOptions(screen.getByLabelText('Model and resolution'), 'MiniMax-Hailuo-2.3 768P');
    await user.selectOptions(screen.getByLabelText('Length'), '10');
    expect(await submittedBody(user)).toMatchObject({ model: 'MiniMax-Hailuo-2.3', resolution: '768P', duration: 10 });
  });
});
