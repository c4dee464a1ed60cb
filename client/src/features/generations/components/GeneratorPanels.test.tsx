import {
  ERROR_MESSAGES,
  LONG_TOAST_DURATION_MS,
  tokensExhaustedMessage,
  tooManyInFlightMessage,
  type Generation,
} from '@mediagen/shared';
import { act, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { at, buildGeneration } from '@/testing/generation-factory';
import { deferred } from '@/testing/fake-firebase-auth';
import { jsonAnswer, stubFetch } from '@/testing/fetch-stub';
import { renderWithApp } from '@/testing/render';
import { useGenerationsStore } from '../stores/generations-store';
import type { GeneratorPanelProps } from './generator-panel-props';
import { ImagePanel } from './ImagePanel';
import { SpeechPanel } from './SpeechPanel';
import { VideoPanel } from './VideoPanel';

const fetchMock = stubFetch();
beforeEach(() => {
  useGenerationsStore.getState().cleared();
});

function renderPanel(
  Panel: (props: GeneratorPanelProps) => ReactNode,
  signedIn = true,
  balance?: GeneratorPanelProps['balance'],
) {
  const props = { signedIn, onRequireSignIn: vi.fn(), onBalanceChange: vi.fn(), balance };
  renderWithApp(<Panel {...props} />);
  return { ...props, user: userEvent.setup() };
}

const REALTIME_MODEL = {
  model: 'gpt-realtime-2.1-mini',
  speed: { min: 0.25, max: 1.5 },
  voices: { nova: 'coral', shimmer: 'shimmer', alloy: 'alloy', echo: 'echo', onyx: 'cedar', fable: 'ballad' },
};

/** The speech panel reads the speech model in use (GET /api/speech); a submission gets what the test gives. */
function answerSpeechPanel(...submissions: Response[]) {
  fetchMock.mockImplementation(async (input) =>
    String(input).endsWith('/api/speech')
      ? jsonAnswer(200, REALTIME_MODEL)
      : (submissions.shift() ?? jsonAnswer(500, {})),
  );
}
const submissions = () => fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/api/generations'));

/** What the socket would deliver; the socket itself is the network boundary. */
function socketUpdate(generation: Generation) {
  act(() => useGenerationsStore.getState().received(generation));
}

describe('image panel', () => {
  it('asks a signed-out user to sign in instead of generating', async () => {
    const { user, onRequireSignIn } = renderPanel(ImagePanel, false);
    expect(screen.getByPlaceholderText('Please sign in to generate images')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(onRequireSignIn).toHaveBeenCalledOnce();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('with 0 image tokens left, says when they renew, and a click gets the exhausted toast at once', async () => {
    const resetsAt = new Date(Date.now() + 12.5 * 24 * 3600 * 1000).toISOString();
    const { user } = renderPanel(ImagePanel, true, { left: 0, resetsAt, plan: 'free' });
    await user.type(screen.getByLabelText('Image prompt'), 'a lighthouse at dusk');
    const button = screen.getByRole('button', { name: 'Generate Image' });
    expect(screen.getByText(/^No image tokens left\. They renew on /)).toBeDefined();
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    await user.click(button);
    expect(
      await screen.findByText(
        'Your free tokens are over. Tokens will reset in 13 days. Please purchase a subscription for unlimited access.',
      ),
    ).toBeDefined();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByText('Preparing to generate image...')).toBeNull();
  });

  it("tells a Pro creator out of image tokens about their plan's tokens, not free ones", async () => {
    const resetsAt = new Date(Date.now() + 2.5 * 24 * 3600 * 1000).toISOString();
    const { user } = renderPanel(ImagePanel, true, { left: 0, resetsAt, plan: 'pro' });
    await user.type(screen.getByLabelText('Image prompt'), 'a lighthouse at dusk');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(
      await screen.findByText(
        "Your Pro plan's image tokens for this period are used up. They renew in 3 days. Upgrade your plan for more.",
      ),
    ).toBeDefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a blocked prompt at once, with no "Preparing…" and no request', async () => {
    const { user } = renderPanel(ImagePanel);
    await user.type(screen.getByLabelText('Image prompt'), 'an nsfw scene');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByText('Prompt contains inappropriate content: nsfw')).toBeDefined();
    expect(screen.queryByText('Preparing to generate image...')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is disabled while the prompt is blank', async () => {
    const { user } = renderPanel(ImagePanel);
    const button = screen.getByRole('button', { name: 'Generate Image' });
    expect(button).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('Image prompt'), '   ');
    expect(button).toHaveProperty('disabled', true);
  });

  it('submits, follows progress from the socket and shows the image', async () => {
    const queued = buildGeneration({ kind: 'image', status: 'queued', queue: { position: 2, etaMs: 20_000 } });
    fetchMock.mockResolvedValueOnce(jsonAnswer(202, queued));
    const { user, onBalanceChange } = renderPanel(ImagePanel);
    await user.type(screen.getByLabelText('Image prompt'), 'a lighthouse at dusk');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));

    expect(await screen.findByText('Preparing to generate image...')).toBeDefined();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:3000/api/generations');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer test-id-token');
    expect(headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(init?.body as string)).toEqual({ kind: 'image', prompt: 'a lighthouse at dusk' });
    expect(screen.getByRole('status').textContent).toBe('Queued — #2 in line, about 20 s');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('Queued — #2 in line, about 20 s');
    expect(screen.queryByText(/Generating image/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Generate Image' })).toHaveProperty('disabled', true);

    socketUpdate({ ...queued, status: 'active', version: 2, progress: 45, updatedAt: at(3), queue: undefined });
    expect(screen.getByRole('progressbar', { name: 'image generation progress' }).getAttribute('aria-valuenow')).toBe(
      '45',
    );
    expect(screen.getByRole('status').textContent).toBe('Generating image... 45%');

    socketUpdate({
      ...queued,
      status: 'completed',
      version: 3,
      progress: 100,
      updatedAt: at(6),
      result: { url: 'http://127.0.0.1:3000/artifacts/a.png?sig=1', mimeType: 'image/png' },
    });
    expect(await screen.findByText('Image generated successfully!')).toBeDefined();
    expect(screen.getByRole('img', { name: 'Generated image: a lighthouse at dusk' })).toHaveProperty(
      'src',
      'http://127.0.0.1:3000/artifacts/a.png?sig=1',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(onBalanceChange).toHaveBeenCalledTimes(2);
  });

  it('sends a fresh idempotency key with every click', async () => {
    fetchMock.mockImplementation(async () => jsonAnswer(202, buildGeneration({ status: 'failed', updatedAt: at(1) })));
    const { user } = renderPanel(ImagePanel);
    await user.type(screen.getByLabelText('Image prompt'), 'a cat');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    await user.click(await screen.findByRole('button', { name: 'Generate Image' }));
    const keys = fetchMock.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("shows the API's message when a prompt is refused", async () => {
    fetchMock.mockResolvedValueOnce(
      jsonAnswer(400, { error: { code: 'INVALID_REQUEST', message: 'Image width must be a multiple of 64' } }),
    );
    const { user } = renderPanel(ImagePanel);
    await user.type(screen.getByLabelText('Image prompt'), 'a lighthouse');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByText('Image width must be a multiple of 64')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Image' })).toHaveProperty('disabled', false);
  });

  it.each([
    ['TOO_MANY_IN_FLIGHT', tooManyInFlightMessage(3)],
    ['RATE_LIMITED', ERROR_MESSAGES.RATE_LIMITED],
  ])("shows a 429 %s as an error toast with the server's message", async (code, message) => {
    fetchMock.mockResolvedValueOnce(jsonAnswer(429, { error: { code, message } }));
    const { user, onBalanceChange } = renderPanel(ImagePanel);
    await user.type(screen.getByLabelText('Image prompt'), 'a cat');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    const toast = (await screen.findByText(message)).closest('[data-sonner-toast]');
    expect(toast?.getAttribute('data-type')).toBe('error');
    // The loading toast became the error toast rather than staying beside it.
    expect(screen.queryByText('Preparing to generate image...')).toBeNull();
    expect(screen.getByRole('button', { name: 'Generate Image' })).toHaveProperty('disabled', false);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(onBalanceChange).not.toHaveBeenCalled();
  });

  it('says when there is no image to download', async () => {
    const { user } = renderPanel(ImagePanel);
    await user.click(screen.getByRole('button', { name: 'Download image' }));
    expect(await screen.findByText('No image available to download')).toBeDefined();
  });

  it('reset clears the prompt and the result', async () => {
    const { user } = renderPanel(ImagePanel);
    const done = buildGeneration({
      kind: 'image',
      status: 'completed',
      progress: 100,
      result: { url: 'http://x/a.png', mimeType: 'image/png' },
    });
    act(() => useGenerationsStore.getState().started(done));
    await user.type(screen.getByLabelText('Image prompt'), 'a cat');
    expect(screen.getByRole('img', { name: /Generated image/ })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Reset image' }));
    expect(screen.getByLabelText('Image prompt')).toHaveProperty('value', '');
    expect(screen.queryByRole('img', { name: /Generated image/ })).toBeNull();
    expect(await screen.findByText('Image content has been reset!')).toBeDefined();
  });
});

describe('video panel', () => {
  it("reads 'Sign in to Generate' when signed out", () => {
    renderPanel(VideoPanel, false);
    expect(screen.getByPlaceholderText('Please sign in to generate videos')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Sign in to Generate' })).toHaveProperty('disabled', false);
  });

  it("sends the video defaults, reads 'Generating...' and shows 'Generating video... N%'", async () => {
    const queued = buildGeneration({ kind: 'video' });
    fetchMock.mockResolvedValueOnce(jsonAnswer(202, queued));
    const { user } = renderPanel(VideoPanel);
    await user.type(screen.getByLabelText('Video prompt'), 'waves at night');
    await user.click(screen.getByRole('button', { name: 'Generate Video' }));
    expect(await screen.findByRole('button', { name: 'Generating...' })).toHaveProperty('disabled', true);
    expect(JSON.parse(fetchMock.mock.calls[0]![1]?.body as string)).toEqual({
      kind: 'video',
      prompt: 'waves at night',
      quality: 'standard',
      duration: 6,
      style: 'cinematic',
    });
    socketUpdate({ ...queued, status: 'active', version: 2, progress: 37, updatedAt: at(4) });
    expect(screen.getByText('Generating video... 37%')).toBeDefined();
    socketUpdate({ ...queued, status: 'active', version: 2, progress: 20, updatedAt: at(2) });
    expect(screen.getByText('Generating video... 37%')).toBeDefined();
  });

  it("shows the place in line while queued, then 'Generating video... N%' once it runs", async () => {
    const queued = buildGeneration({ kind: 'video', queue: { position: 3, etaMs: null } });
    fetchMock.mockResolvedValueOnce(jsonAnswer(202, queued));
    const { user } = renderPanel(VideoPanel);
    await user.type(screen.getByLabelText('Video prompt'), 'waves at night');
    await user.click(screen.getByRole('button', { name: 'Generate Video' }));
    expect(await screen.findByText('Queued — #3 in line')).toBeDefined();

    socketUpdate({ ...queued, updatedAt: at(1), queue: { position: 1, etaMs: 4_400 } });
    expect(screen.getByRole('status').textContent).toBe('Queued — next in line, about 4 s');
    socketUpdate({ ...queued, status: 'active', version: 2, progress: 12, updatedAt: at(2), queue: undefined });
    expect(screen.getByRole('status').textContent).toBe('Generating video... 12%');
  });

  /** A video the API accepted and the panel now follows. */
  async function startVideo(): Promise<Generation> {
    const queued = buildGeneration({ kind: 'video' });
    fetchMock.mockResolvedValueOnce(jsonAnswer(202, queued));
    const { user } = renderPanel(VideoPanel);
    await user.type(screen.getByLabelText('Video prompt'), 'waves');
    await user.click(screen.getByRole('button', { name: 'Generate Video' }));
    await screen.findByRole('button', { name: 'Generating...' });
    return queued;
  }

  it("shows the failure's message", async () => {
    const queued = await startVideo();
    socketUpdate({
      ...queued,
      status: 'failed',
      version: 3,
      token: 'spent',
      updatedAt: at(9),
      error: { code: 'VIDEO_TIMED_OUT', message: 'Video generation timed out - please try again' },
    });
    expect(await screen.findByText('Video generation timed out - please try again')).toBeDefined();
    // The provider had a task running: the token is not given back, and the toast says so.
    expect(
      await screen.findByText('Your video token was used: the provider had already started work on it.'),
    ).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Video' })).toHaveProperty('disabled', false);
  });

  it('says the token was given back when a generation failed before the provider worked', async () => {
    const queued = await startVideo();
    socketUpdate({
      ...queued,
      status: 'failed',
      version: 2,
      token: 'refunded',
      updatedAt: at(3),
      error: { code: 'VIDEO_FAILED', message: 'Video generation failed' },
    });
    expect(await screen.findByText('Your video token was given back.')).toBeDefined();
  });

  it('says nothing more of the token when the message already does', async () => {
    const queued = await startVideo();
    const message = 'Video generation is unavailable right now. Your token was returned.';
    socketUpdate({
      ...queued,
      status: 'failed',
      version: 2,
      token: 'refunded',
      updatedAt: at(3),
      error: { code: 'VIDEO_START_FAILED', message },
    });
    const toast = (await screen.findByText(message)).closest('li');
    expect(toast?.textContent).not.toContain('given back');
  });

  it('keeps the exhausted-tokens toast for 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const message = tokensExhaustedMessage({ plan: 'free', kind: 'video', renewsInMs: 12 * 24 * 3600 * 1000 });
      fetchMock.mockResolvedValueOnce(jsonAnswer(402, { error: { code: 'TOKENS_EXHAUSTED', message } }));
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderWithApp(<VideoPanel signedIn onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />);
      await user.type(screen.getByLabelText('Video prompt'), 'waves');
      await user.click(screen.getByRole('button', { name: 'Generate Video' }));
      expect(await screen.findByText(message)).toBeDefined();
      await act(() => vi.advanceTimersByTimeAsync(LONG_TOAST_DURATION_MS - 1000));
      expect(screen.queryByText(message)).not.toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('speech panel', () => {
  it('disables the text area when signed out and asks to sign in on generate', async () => {
    const { user, onRequireSignIn } = renderPanel(SpeechPanel, false);
    expect(screen.getByLabelText('Text to speak')).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Sign in to Generate' }));
    expect(onRequireSignIn).toHaveBeenCalledOnce();
  });

  it('asks for language and voice before generating', async () => {
    answerSpeechPanel();
    const { user } = renderPanel(SpeechPanel);
    await user.type(screen.getByLabelText('Text to speak'), 'Hello there');
    await user.click(screen.getByRole('button', { name: 'Generate Speech' }));
    expect(await screen.findByText('Please select language and voice options')).toBeDefined();
    expect(submissions()).toHaveLength(0);
  });

  it('says which voice of the speech model in use reads the one chosen', async () => {
    answerSpeechPanel();
    const { user } = renderPanel(SpeechPanel);
    await user.selectOptions(screen.getByLabelText('Gender'), 'male');
    await user.selectOptions(screen.getByLabelText('Voice'), 'onyx');
    expect(await screen.findByText('Read by Cedar, the nearest voice the speech model has.')).toBeDefined();
  });

  it('generates with the chosen voice, then offers play and pause and says how it was read', async () => {
    const queued = buildGeneration({ kind: 'speech', prompt: 'Hello there' });
    answerSpeechPanel(jsonAnswer(202, queued));
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const { user } = renderPanel(SpeechPanel);
    await user.type(screen.getByLabelText('Text to speak'), 'Hello there');
    await user.selectOptions(screen.getByLabelText('Language'), 'en-GB');
    await user.selectOptions(screen.getByLabelText('Gender'), 'male');
    await user.click(screen.getByRole('button', { name: 'Generate Speech' }));
    await vi.waitFor(() => expect(submissions()).toHaveLength(1));
    expect(JSON.parse(submissions()[0]![1]?.body as string)).toEqual({
      kind: 'speech',
      input: 'Hello there',
      voice: 'echo',
      language: 'en-GB',
      speed: 1,
      format: 'mp3',
    });
    expect(screen.queryByRole('button', { name: 'Play audio' })).toBeNull();

    socketUpdate({
      ...queued,
      status: 'completed',
      version: 3,
      progress: 100,
      updatedAt: at(2),
      result: { url: 'http://x/a.mp3', mimeType: 'audio/mpeg' },
      speech: {
        model: 'gpt-realtime-2.1-mini',
        voice: 'echo',
        voiceUsed: 'echo',
        language: 'en-GB',
        speed: 1,
        format: 'mp3',
      },
    });
    expect(await screen.findByText('Speech generated successfully!')).toBeDefined();
    expect(screen.getByText('Echo · English (UK)')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Play audio' }));
    expect(play).toHaveBeenCalledOnce();
    expect(await screen.findByRole('button', { name: 'Pause audio' })).toBeDefined();
    play.mockRestore();
  });

  it("stops and says 'Failed to play audio' when playback fails", async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockRejectedValue(new Error('NotAllowedError'));
    const { user } = renderPanel(SpeechPanel);
    act(() =>
      useGenerationsStore.getState().started(
        buildGeneration({
          kind: 'speech',
          status: 'completed',
          progress: 100,
          result: { url: 'http://x/a.mp3', mimeType: 'audio/mpeg' },
        }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Play audio' }));
    expect(await screen.findByText('Failed to play audio')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Play audio' })).toBeDefined();
    play.mockRestore();
  });

  it('reset clears the text, the audio and the customization', async () => {
    const { user } = renderPanel(SpeechPanel);
    act(() =>
      useGenerationsStore.getState().started(
        buildGeneration({
          kind: 'speech',
          status: 'completed',
          progress: 100,
          result: { url: 'http://x/a.mp3', mimeType: 'audio/mpeg' },
        }),
      ),
    );
    await user.type(screen.getByLabelText('Text to speak'), 'Hi');
    await user.selectOptions(screen.getByLabelText('Gender'), 'female');
    await user.click(screen.getByRole('button', { name: 'Reset speech' }));
    expect(screen.getByLabelText('Text to speak')).toHaveProperty('value', '');
    expect(screen.getByLabelText('Gender')).toHaveProperty('value', '');
    expect(screen.getByLabelText('Voice')).toHaveProperty('value', '');
    expect(screen.queryByRole('button', { name: 'Play audio' })).toBeNull();
    expect(await screen.findByText('Speech content has been reset!')).toBeDefined();
  });
});

describe('busy state', () => {
  it('disables generate while the API has not answered', async () => {
    const pending = deferred<Response>();
    fetchMock.mockReturnValueOnce(pending.promise);
    const { user } = renderPanel(ImagePanel);
    await user.type(screen.getByLabelText('Image prompt'), 'a cat');
    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(screen.getByRole('button', { name: 'Generate Image' })).toHaveProperty('disabled', true);
    pending.resolve(jsonAnswer(202, buildGeneration()));
  });
});
