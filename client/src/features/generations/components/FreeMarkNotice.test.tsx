import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Generation, PlanId } from '@mediagen/shared';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGeneration } from '@/testing/generation-factory';
import { renderWithApp } from '@/testing/render';
import { LibraryItem } from '../library/components/LibraryItem';
import { useGenerationsStore } from '../stores/generations-store';
import { VideoPanel } from './VideoPanel';

const NOTICE = 'Free plan results carry the MediaGen mark. Upgrade to remove it.';

beforeEach(() => useGenerationsStore.getState().cleared());

const completedVideo = (): Generation =>
  buildGeneration({
    kind: 'video',
    status: 'completed',
    version: 3,
    progress: 100,
    token: 'spent',
    result: { url: 'https://api.example/artifacts/video_1.mp4?sig=x', mimeType: 'video/mp4' },
  });

/** The dashboard's video panel showing a finished video, and the pricing page "Upgrade" leads to. */
function Dashboard({ plan }: { plan: PlanId | undefined }) {
  const balance = plan === undefined ? undefined : { left: 3, resetsAt: '2024-06-01T00:00:00.000Z', plan };
  return (
    <Routes>
      <Route
        path="/dashboard"
        element={
          <VideoPanel signedIn plan={plan} balance={balance} onRequireSignIn={vi.fn()} onBalanceChange={vi.fn()} />
        }
      />
      <Route path="/pricing" element={<h1>Pricing</h1>} />
    </Routes>
  );
}

const notices = () => screen.queryAllByText((_, element) => element?.tagName === 'P' && element.textContent === NOTICE);
const notice = () => notices()[0] ?? null;

describe('the note on marked results', () => {
  it('says beside a Free result in the panel that it carries the mark, "Upgrade" leading to the pricing page', async () => {
    useGenerationsStore.getState().started(completedVideo());
    renderWithApp(<Dashboard plan="free" />, { route: '/dashboard' });
    expect(notice()).not.toBeNull();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Upgrade' }));
    expect(await screen.findByRole('heading', { name: 'Pricing' })).toBeDefined();
  });

  it('is not said for paid plans, before the plan is known, or before there is a result', () => {
    useGenerationsStore.getState().started(completedVideo());
    for (const plan of ['pro', 'enterprise', undefined] as const) {
      const { unmount } = renderWithApp(<Dashboard plan={plan} />, { route: '/dashboard' });
      expect(screen.getByLabelText('Generated video')).toBeDefined();
      expect(notice()).toBeNull();
      unmount();
    }
    useGenerationsStore.getState().cleared();
    renderWithApp(<Dashboard plan="free" />, { route: '/dashboard' });
    expect(notice()).toBeNull();
  });

  it('is said beside a Free result in the library, and not beside a paid one or one still running', () => {
    const running = buildGeneration({ kind: 'image', status: 'active', version: 2, progress: 40 });
    const { unmount } = renderWithApp(
      <ul>
        <LibraryItem generation={completedVideo()} plan="free" />
        <LibraryItem generation={running} plan="free" />
      </ul>,
    );
    expect(notices()).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/pricing');
    unmount();
    renderWithApp(
      <ul>
        <LibraryItem generation={completedVideo()} plan="pro" />
      </ul>,
    );
    expect(notice()).toBeNull();
  });
});
