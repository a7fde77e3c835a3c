import { z } from '@review-desk/shared/zod';

// Imported first by main.tsx, before any schema is built: zod decides at schema construction
// whether to probe `new Function` for a faster parser, and under the BFF's CSP (no
// 'unsafe-eval') that probe is a reported violation. The interpreted path gives the same results.
z.config({ jitless: true });
