import { z } from 'zod';

/**
 * Zod's JIT compiles validators with `new Function`, which the page's CSP (no 'unsafe-eval') forbids and
 * reports as a violation; the interpreted path is fast enough for these frames. Zod decides per object
 * schema when the schema is *built*, so this must run before the contract's schemas exist: main.tsx
 * imports this module first.
 */
z.config({ jitless: true });
