import { enableCompileCache } from 'node:module';

// Entry of `npm run cli -w apps/api`. V8's compile cache (shared with the server) makes each
// short-lived CLI run start in a fraction of the time; then the commands load.
enableCompileCache();
await import('./cli/commands.ts');
