import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ConfigErrorPage } from './components/ConfigErrorPage';
import { configCheck } from './config/app-config';
import './index.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>{configCheck.ok ? <App /> : <ConfigErrorPage problems={configCheck.problems} />}</StrictMode>,
);
