import type { PlanId } from '@mediagen/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { useGenerationsStore } from '../stores/generations-store';
import { ImagePanel } from './ImagePanel';

const fetchMock = stubFetch();
beforeEach(() => useGenerationsStore.getState().cleared());

async function openImageSettings(plan: PlanId) {
  fetchMock.mockImplementation(async () => jsonAnswer(202, buildGeneration({ kind: 'image', prompt: 'a fox' })));
  renderWithApp(<ImagePanel signedIn plan={plan} onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Image settings/ }));
  return user;
}

const optionNamed = (select: string, name: string) =>
  screen.getByLabelText(select).querySelector<HTMLOptionElement>(`option[value="${name}"]`)!;

async function submittedBody(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Image prompt'), 'a fox');
  await user.click(screen.getByRole('button', { name: 'Generate Image' }));
  await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
  return JSON.parse(fetchMock.mock.calls.at(-1)![1]?.body as string) as Record<string, unknown>;
}

describe('image settings', () => {
  it('start closed, naming the plan’s model, shape and resolution', () => {
    fetchMock.mockImplementation(async () => jsonAnswer(202, {}));
    renderWithApp(<ImagePanel signedIn plan="pro" onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
    const toggle = screen.getByRole('button', { name: /Image settings/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toContain('Stable Image Core · 1:1 · Standard');
    expect(screen.queryByRole('combobox', { name: 'Model' })).toBeNull();
  });

  it('show a Free creator the other models and 4K locked, with the plan that unlocks each', async () => {
    await openImageSettings('free');
    expect(optionNamed('Model', 'sdxl-1.0').disabled).toBe(false);
    expect(optionNamed('Model', 'stable-image-core')).toMatchObject({
      disabled: true,
      textContent: 'Stable Image Core (Pro)',
    });
    expect(optionNamed('Model', 'stable-image-ultra')).toMatchObject({
      disabled: true,
      textContent: 'Stable Image Ultra (Enterprise)',
    });
    expect(optionNamed('Resolution', '4k')).toMatchObject({ disabled: true, textContent: '4K (Enterprise)' });
  });

  it("send a Pro creator's shape, style and what to leave out, with the plan's own model", async () => {
    const user = await openImageSettings('pro');
    await user.selectOptions(screen.getByLabelText('Shape'), '16:9');
    await user.selectOptions(screen.getByLabelText('Style'), 'anime');
    await user.type(screen.getByLabelText('Leave out'), 'blurry, extra fingers');
    await user.type(screen.getByLabelText('Seed'), '42x');
    expect(await submittedBody(user)).toEqual({
      kind: 'image',
      prompt: 'a fox',
      aspectRatio: '16:9',
      stylePreset: 'anime',
      negativePrompt: 'blurry, extra fingers',
      seed: 42,
    });
  });

  it('let an Enterprise creator ask for Ultra in 4K, saying Ultra chooses its own style', async () => {
    const user = await openImageSettings('enterprise');
    await user.selectOptions(screen.getByLabelText('Model'), 'stable-image-ultra');
    await user.selectOptions(screen.getByLabelText('Resolution'), '4k');
    expect(screen.getByLabelText('Style')).toHaveProperty('disabled', true);
    expect(screen.getByText('Stable Image Ultra chooses its own style.')).toBeDefined();
    expect(await submittedBody(user)).toEqual({
      kind: 'image',
      prompt: 'a fox',
      model: 'stable-image-ultra',
      resolution: '4k',
    });
  });
});
