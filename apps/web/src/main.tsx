import './app/zod-config.ts';
import { queryClient, started } from './app/boot.ts';
import './app/mantine.css';
import './app/app.css';
import './app/page.css';
import './app/state-badge.css';
import './app/features.css';
import './app/phone.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.tsx';
import { AppRouter } from './app/router.tsx';

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
}

// The first render waits, briefly, for what startPage asked for: when the session, the page's
// code and its first read arrive within FIRST_RENDER_WAIT_MS, the page is drawn once, with its
// data, instead of a loading indicator first (its render and a frame to paint it, only to be
// replaced a few milliseconds later: some 50–100 ms of the first row's time on a busy machine).
// The page is blank until then either way; a slower answer gets the indicator after the wait.
const FIRST_RENDER_WAIT_MS = 150;
void Promise.race([started, new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS))]).then(
  render,
);
