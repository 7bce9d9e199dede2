import { z } from 'zod';

/** Number validators whose error names what is allowed, shared by the config sections. */
export const positiveInt = (what: string) => z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` }).positive({ error: `expected ${what}` });
export const positiveNumber = (what: string) => z.number({ error: `expected ${what}` }).positive({ error: `expected ${what}` });
export const flag = () => z.boolean({ error: 'expected true or false' });

/** An environment variable name, e.g. `GITHUB_TOKEN`. */
export const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name such as GITHUB_TOKEN' });
