import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { clearServerStateOnSessionChange } from './data/queries/client';
import { startDataWorker } from './data/worker';
import './styles.css';
import './styles/themes.css';
import './styles/pages.css';

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
