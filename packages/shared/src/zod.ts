import { en } from 'zod/locales';
import { z } from 'zod/mini';

// The contract's schemas are written with zod's functional build (zod/mini): the dashboard then
// loads only the checks the schemas use, not every method of every schema type (about 15 KB
// less gzip on each page's first load). Schemas built with it are zod schemas like any other: the
// services parse with them, and mix them into schemas of their own.
//
// zod/mini carries no messages of its own: the English ones are the contract's words (a form
// shows the server's message before anything is sent), so they are set here, wherever the
// contract is loaded, and not left to whichever zod build happens to be loaded first.
z.config(en());

export { z };
