import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { clearServerStateOnSessionChange } from './data/queries/client';
import { flushBeforeReload, startServiceWorker } from './data/serviceWorker';
import { startDataWorker } from './data/worker';
import { offerUpdate } from './features/appUpdate/updatePrompt';
import { settings } from './shared/settings';
import './styles.css';
import './styles/themes.css';
import './styles/pages.css';

// The build this tab runs, where a test or a person can read it (<html data-build>).
document.documentElement.dataset.build = settings.buildId;
// The app shell from the service worker; a new build is offered, and applied only when accepted.
if (import.meta.env.PROD) startServiceWorker({ onUpdateReady: offerUpdate, beforeReload: flushBeforeReload });
// One data worker for all tabs: live quotes and the session's sockets start with the app.
startDataWorker();
// Cached server answers belong to one session: a new sign-in starts without the last one's.
clearServerStateOnSessionChange();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
