import type { z } from 'zod';

/**
 * Parses one message from the engine against a host's request schema. A message that does not fit
 * becomes the protocol's `invalid_message` error, naming each bad field, addressed to its request when
 * it carries a `requestId`: a host never throws on input and never drops it silently.
 */
export function parseRequest<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  host: string,
): { ok: true; request: T } | { ok: false; error: { type: 'error'; requestId?: string; code: 'invalid_message'; message: string } } {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, request: parsed.data };
  const requestId = typeof raw === 'object' && raw !== null && 'requestId' in raw && typeof raw.requestId === 'string' ? raw.requestId : undefined;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');
  return { ok: false, error: { type: 'error', ...(requestId ? { requestId } : {}), code: 'invalid_message', message: `Invalid ${host} message: ${issues}` } };
}
