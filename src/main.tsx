import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';
import './styles/themes.css';
import './styles/pages.css';

// The data worker (one for all tabs) starts with the signed-in branch of the route table
// (router.tsx), beside the session check of the first navigation: the sign-in page does not
// need it, nor load it (issue 21's budget).

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
