import { z } from 'zod';

/** `api.*`: the local OpenAI-compatible API (issue 13, `core/openai-api/`). */
export const ApiSection = z.object({
  port: z.number().int().min(1).max(65_535).default(8642),
  /** Loopback only unless changed; a non-loopback host is reachable by the network. */
  host: z.string().min(1).default('127.0.0.1'),
});
