import { lazy, startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadPageAt } from './app/router';
import { configCheck } from './config/app-config';
import './index.css';

// Only a misconfigured deployment shows it, so it is not part of every visitor's first download.
const ConfigErrorPage = lazy(async () => ({ default: (await import('./components/ConfigErrorPage')).ConfigErrorPage }));

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

/** How long the first render waits for the page's own code before it shows the spinner instead. */
const PAGE_CODE_WAIT_MS = 3000;

function renderApp(element: HTMLElement) {
  const app = createRoot(element);
  // As a transition, React builds the first page in slices of a few milliseconds, giving the main thread
  // back between them, instead of in one task: on a phone the dashboard's was one task of several hundred
  // milliseconds, which is what Lighthouse's total blocking time counted. Nothing is shown any later: the
  // page is committed, and painted, once it is built, as before.
  startTransition(() =>
    app.render(
      <StrictMode>
        {configCheck.ok ? (
          <App />
        ) : (
          <Suspense fallback={null}>
            <ConfigErrorPage problems={configCheck.problems} />
          </Suspense>
        )}
      </StrictMode>,
    ),
  );
}

// A visit that opens on a page of its own renders once that page's code is here too (it downloads beside
// this script, see client/vite/preload-page-chunks.ts), so the page paints in one go, not after a spinner.
void Promise.race([
  loadPageAt(location.pathname),
  new Promise((resolve) => setTimeout(resolve, PAGE_CODE_WAIT_MS)),
]).then(() => renderApp(root));
