import type { ChatMessage } from '../../llm/types.js';

/**
 * What providers reject in a conversation, as readable problems (empty when valid): a tool call
 * without a result before the conversation moves on, a tool result that answers no call of the
 * assistant message right before it, a conversation that opens with an assistant or tool message.
 * Compression checks its own output with it, so a planning bug can never reach a provider.
 */
export function toolPairingProblems(history: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  const first = history.find((m) => m.role !== 'system');
  if (first !== undefined && first.role !== 'user') problems.push(`the conversation starts with a ${first.role} message`);
  for (let i = 0; i < history.length; i++) {
    const message = history[i] as ChatMessage;
    if (message.role === 'tool') {
      problems.push(`message ${i} is a ${message.toolName} result (${message.toolCallId}) that follows no tool call`);
      continue;
    }
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const open = new Map(message.toolCalls.map((c) => [c.id, c.name]));
    while (history[i + 1]?.role === 'tool') {
      const result = history[++i] as Extract<ChatMessage, { role: 'tool' }>;
      if (!open.delete(result.toolCallId)) problems.push(`message ${i} answers ${result.toolCallId}, which the assistant message before it did not call (or already answered)`);
    }
    for (const [id, name] of open) problems.push(`the ${name} call ${id} has no result`);
  }
  return problems;
}
