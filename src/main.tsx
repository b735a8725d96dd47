import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { getToken } from './data/session';
import { openWorkerPort } from './data/workerPort';
import { settings } from './shared/settings';
import './styles.css';
import './styles/themes.css';
import './styles/pages.css';

// The data worker (one for all tabs) starts at once when this browser holds a session, while
// the first screen's chunks load (its sockets and the workspace are what a visor waits for):
// its port opens now, so its script loads and compiles meanwhile, and the tab's end of it
// (data/worker.ts) follows in its chunk. After a sign-in, the signed-in branch of the route
// table starts it (router.tsx). A signed-out start (the sign-in page) neither needs nor loads
// it (issue 21's budget).
if (getToken()) {
  openWorkerPort();
  void import('./data/worker').then(({ startDataWorker }) => startDataWorker());
}

// The build this tab runs, where a test or a person can read it (<html data-build>).
document.documentElement.dataset.build = settings.buildId;
// The app shell from the service worker; a new build is offered, and applied only when
// accepted. Registered once the page has loaded; Workbox comes in a chunk of its own, and the
// toast (with sonner) only when there is a build to offer (the sign-in route's budget).
if (import.meta.env.PROD) {
  const register = () =>
    void import('./data/serviceWorker').then(({ startServiceWorker, flushBeforeReload }) =>
      startServiceWorker({
        onUpdateReady: (accept) => void import('./features/appUpdate/updatePrompt').then(({ offerUpdate }) => offerUpdate(accept)),
        beforeReload: flushBeforeReload,
      }),
    );
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
