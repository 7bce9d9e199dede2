import { errorMessage } from '../errors.js';
import type { ChatModel } from '../llm/types.js';

/**
 * What the two model judges share (smart approvals, `approvals/smart-judge.ts`, and the injection judge,
 * `injection/judge.ts`): the judged text is untrusted (the model that wrote it may be injected), so it goes in as a
 * JSON string inside a fence it cannot close; the model gets one bounded call; and only one JSON object with a
 * known value in the expected field counts, anything else being the caller's cautious fallback.
 */

/** JSON.stringify escapes quotes and newlines; `<` is escaped too, so the text cannot close its `<tag>` fence. */
export function fenceUntrusted(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c');
}

export type JudgeCall = { ok: true; text: string } | { ok: false; why: string };

/**
 * One call to the judge model with a system prompt and the fenced request; a failure or timeout comes back as
 * `{ok: false}` with the reason. An abort of `signal` (the user stopped the turn) is rethrown, not judged.
 */
export async function callJudgeModel(model: ChatModel, system: string, prompt: string, timeoutMs: number, signal: AbortSignal): Promise<JudgeCall> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no verdict within ${timeoutMs / 1000} s`)), timeoutMs);
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let text = '';
  try {
    const stream = model.stream(
      { messages: [{ role: 'system', content: system }, { role: 'user', content: prompt }], tools: [], toolChoice: 'none', maxTokens: 200, temperature: 0 },
      controller.signal,
    );
    for await (const event of stream) if (event.type === 'text') text += event.delta;
  } catch (err) {
    if (signal.aborted) throw err;
    return { ok: false, why: `the judge failed: ${errorMessage(err)}` };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  return { ok: true, text };
}

/**
 * Reads `{"<field>": <one of allowed>, "reason": "…"}` out of the judge's answer strictly: no JSON object, invalid
 * JSON or an unknown value gives `fallback`, with why.
 */
export function parseJudgeAnswer<T extends string>(text: string, field: string, allowed: readonly T[], fallback: T): { value: T; why: string } {
  const match = /\{[\s\S]*\}/.exec(text.trim());
  if (match === null) return { value: fallback, why: 'the judge did not answer in JSON' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(match[0]);
  } catch (err) {
    return { value: fallback, why: `the judge's answer is not valid JSON (${errorMessage(err)})` };
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const value = record[field];
  if (!allowed.includes(value as T)) return { value: fallback, why: `the judge gave no known ${field}` };
  return { value: value as T, why: typeof record.reason === 'string' ? record.reason.slice(0, 300) : '' };
}
