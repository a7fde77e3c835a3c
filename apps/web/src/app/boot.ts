import { createQueryClient } from '../lib/query-client.ts';
import { startPage } from './start-page.ts';

// Imported by main.tsx before React DOM, Mantine and the router: modules run in import order, so
// the session, page code and first read are asked for before that code's own start-up has run,
// not after it.

export const queryClient = createQueryClient();
export const started = startPage(window.location, queryClient);
