import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { useGenerationsStore } from '../stores/generations-store';
import { SpeechPanel } from './SpeechPanel';

const fetchMock = stubFetch();
beforeEach(() => useGenerationsStore.getState().cleared());

/** The Realtime model reads between 0.25× and 1.5×; the API's widest range goes to 4×. */
function renderSpeechPanel() {
  fetchMock.mockImplementation(async (input) =>
    String(input).endsWith('/api/speech')
      ? jsonAnswer(200, { model: 'gpt-realtime-2.1-mini', speed: { min: 0.25, max: 1.5 }, voices: {} })
      : jsonAnswer(202, buildGeneration({ kind: 'speech', prompt: 'Hello there' })),
  );
  renderWithApp(<SpeechPanel signedIn onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
  return userEvent.setup();
}

const submitted = () =>
  fetchMock.mock.calls
    .filter(([input]) => String(input).endsWith('/api/generations'))
    .map(([, init]) => JSON.parse(init?.body as string) as Record<string, unknown>);

describe('speech settings', () => {
  it('start closed, saying the defaults, and open on request', async () => {
    const user = renderSpeechPanel();
    const toggle = screen.getByRole('button', { name: /Speech settings/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toContain('1× · MP3');
    expect(screen.queryByRole('slider')).toBeNull();
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('slider', { name: /Speed/ })).toBeDefined();
  });

  it("offer the speech model's own speed range, and send the speed and format chosen", async () => {
    const user = renderSpeechPanel();
    await user.click(screen.getByRole('button', { name: /Speech settings/ }));
    const speed = screen.getByRole('slider', { name: /Speed/ });
    await vi.waitFor(() => expect(speed.getAttribute('max')).toBe('1.5'));
    expect(screen.getByText('From 0.25× to 1.5×, what the speech model reads at.')).toBeDefined();
    fireEvent.change(speed, { target: { value: '1.25' } });
    await user.selectOptions(screen.getByLabelText('File format'), 'wav');
    expect(screen.getByRole('button', { name: /Speech settings/ }).textContent).toContain('1.25× · WAV');

    await user.type(screen.getByLabelText('Text to speak'), 'Hello there');
    await user.selectOptions(screen.getByLabelText('Language'), 'en-US');
    await user.selectOptions(screen.getByLabelText('Gender'), 'female');
    await user.click(screen.getByRole('button', { name: 'Generate Speech' }));
    await vi.waitFor(() => expect(submitted()).toHaveLength(1));
    expect(submitted()[0]).toMatchObject({ kind: 'speech', speed: 1.25, format: 'wav' });
  });

  it('go back to the defaults on reset', async () => {
    const user = renderSpeechPanel();
    await user.click(screen.getByRole('button', { name: /Speech settings/ }));
    fireEvent.change(screen.getByRole('slider', { name: /Speed/ }), { target: { value: '0.5' } });
    await user.click(screen.getByRole('button', { name: 'Reset speech' }));
    expect(screen.getByRole('button', { name: /Speech settings/ }).textContent).toContain('1× · MP3');
  });
});
