import './app/zod-config.ts';
import { queryClient, started } from './app/boot.ts';
// What every page needs from Mantine's styles: its reset and the theme's variables (colours,
// sizes, both schemes: those the dashboard's own parts use, see build/theme-variables.ts).
// Mantine's components, the rest of the variables, its global rules and its components' styles
// come with the modules that use them (app/mantine.tsx). Their layer lets our stylesheets
// override them without !important.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import './components/ui.css';
import './app/app.css';
import './app/page.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { followSystemColorScheme } from './app/color-scheme.ts';
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

followSystemColorScheme();

// The first render waits, briefly, for what startPage asked for: when the session, the page's
// code and its first read arrive within FIRST_RENDER_WAIT_MS, the page is drawn once, with its
// data, instead of a loading indicator first (its render and a frame to paint it, only to be
// replaced a few milliseconds later: some 50–100 ms of the first row's time on a busy machine).
// The page is blank until then either way; a slower answer gets the indicator after the wait.
const FIRST_RENDER_WAIT_MS = 150;
void Promise.race([started, new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS))]).then(
  render,
);
