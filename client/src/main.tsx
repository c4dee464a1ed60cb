import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { configCheck } from './config/app-config';
import './index.css';

// Only a misconfigured deployment shows it, so it is not part of every visitor's first download.
const ConfigErrorPage = lazy(async () => ({ default: (await import('./components/ConfigErrorPage')).ConfigErrorPage }));

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    {configCheck.ok ? (
      <App />
    ) : (
      <Suspense fallback={null}>
        <ConfigErrorPage problems={configCheck.problems} />
      </Suspense>
    )}
  </StrictMode>,
);
