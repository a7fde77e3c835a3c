import { enableCompileCache } from 'node:module';

// Entry of `npm start -w apps/api`. The compile cache is enabled before anything else loads.
enableCompileCache();
await import('./serve.ts');
