import type { NewMessage } from './types.js';

/** Replaces secrets in a text (a `Redactor`'s `redact`); the session store applies it to what it writes. */
export type TextRedactor = (text: string) => string;

/**
 * The message as it should be stored: content, reasoning and tool call arguments redacted; ids, roles
 * and tool names untouched, since they hold no user data and the conversation's structure depends on them.
 */
export function redactMessage(message: NewMessage, redact: TextRedactor): NewMessage {
  if (message.role !== 'assistant') {
    // An outcome's note can carry an error message ("prompt_failed: …"); redact it like the content.
    const note = message.outcome?.note;
    return { ...message, content: redact(message.content), ...(message.outcome !== undefined && note !== undefined ? { outcome: { ...message.outcome, note: redact(note) } } : {}) };
  }
  return {
    ...message,
    content: redact(message.content),
    ...(message.reasoning !== undefined ? { reasoning: redact(message.reasoning) } : {}),
    ...(message.toolCalls !== undefined
      ? { toolCalls: message.toolCalls.map((call) => ({ ...call, arguments: redactJsonStrings(call.arguments, redact) })) }
      : {}),
  };
}

/**
 * Tool call arguments are JSON: each string in it is redacted on its own (after unescaping, so a key
 * after a `\n` is seen as the start of a line), and the result stays parseable. Arguments with nothing
 * to redact keep their exact text. Arguments that are not JSON (a malformed call) are redacted as text.
 */
function redactJsonStrings(json: string, redact: TextRedactor): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    // Not JSON: kept as the model sent it, so it is redacted as plain text instead.
    return redact(json);
  }
  let changed = false;
  const redacted = mapStrings(parsed, (text) => {
    const out = redact(text);
    if (out !== text) changed = true;
    return out;
  });
  return changed ? JSON.stringify(redacted) : json;
}

function mapStrings(value: unknown, map: TextRedactor): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  }
  return value;
}
