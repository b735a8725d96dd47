import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startDataWorker } from './data/worker';
import './styles.css';
import './styles/themes.css';
import './styles/pages.css';

// One data worker for all tabs: live quotes and the session's sockets start with the app.
startDataWorker();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
