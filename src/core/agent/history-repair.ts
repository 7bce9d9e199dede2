import type { ChatMessage } from '../llm/types.js';

/** The result given to a call whose real result was never recorded. */
export const MISSING_RESULT = '[No result: Hearth stopped before this tool call finished. Check its effects before repeating it.]';

/**
 * Every tool call an assistant message makes must be answered by a tool message before the
 * conversation moves on; providers reject history that breaks this. A process killed between a
 * call and its result (the store commits each message as it happens) leaves such a gap: fill it
 * with an explicit result saying so, right after the results that were recorded.
 */
export function fillMissingToolResults(history: readonly ChatMessage[]): { history: ChatMessage[]; filled: number } {
  const out: ChatMessage[] = [];
  let filled = 0;
  for (let i = 0; i < history.length; i++) {
    const message = history[i] as ChatMessage;
    out.push(message);
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const answered = new Set<string>();
    while (history[i + 1]?.role === 'tool') {
      const result = history[++i] as Extract<ChatMessage, { role: 'tool' }>;
      answered.add(result.toolCallId);
      out.push(result);
    }
    for (const call of message.toolCalls) {
      if (answered.has(call.id)) continue;
      out.push({ role: 'tool', content: MISSING_RESULT, toolCallId: call.id, toolName: call.name });
      filled += 1;
    }
  }
  return { history: out, filled };
}
