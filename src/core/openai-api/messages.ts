import type { ChatMessage, ChatRequest, ToolSchema } from '../llm/types.js';
import { ApiError, contentText, type ChatCompletionBody, type WireMessage } from './wire.js';

/**
 * OpenAI messages and tools into Hearth's model interface. The checks OpenAI itself makes are made here too
 * (a tool message must answer a tool call made before it), so a client gets the same 400 from Hearth that it
 * would get from OpenAI instead of a provider error half-way through.
 */

export function invalid(message: string, code = 'invalid_request'): ApiError {
  return new ApiError(400, 'invalid_request_error', code, message);
}

/** The conversation as the model interface carries it; `developer` is OpenAI's newer name for `system`. */
export function toChatMessages(messages: readonly WireMessage[]): ChatMessage[] {
  const callNames = new Map<string, string>();
  return messages.map((message, index): ChatMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: contentText(message.content) };
      case 'user':
        return { role: 'user', content: contentText(message.content) };
      case 'assistant': {
        const toolCalls = (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments }));
        for (const call of toolCalls) callNames.set(call.id, call.name);
        return { role: 'assistant', content: contentText(message.content), ...(toolCalls.length > 0 ? { toolCalls } : {}) };
      }
      case 'tool': {
        const toolName = callNames.get(message.tool_call_id);
        if (toolName === undefined) {
          throw invalid(`messages.${index}: a "tool" message must answer a tool call of an earlier assistant message (no tool_calls entry has the id "${message.tool_call_id}").`);
        }
        return { role: 'tool', content: contentText(message.content), toolCallId: message.tool_call_id, toolName };
      }
    }
  });
}

/** The tools and tool choice of a passed-through request; a named tool choice offers only that tool and requires it. */
export function toolsOf(body: ChatCompletionBody): Pick<ChatRequest, 'tools' | 'toolChoice'> {
  const tools: ToolSchema[] = (body.tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description ?? '',
    parameters: tool.function.parameters ?? { type: 'object', properties: {} },
  }));
  const choice = body.tool_choice;
  if (choice === null || choice === undefined) return { tools };
  if (typeof choice === 'string') {
    if (choice === 'required' && tools.length === 0) throw invalid('tool_choice is "required" but the request offers no tools.');
    return { tools, toolChoice: choice };
  }
  const named = tools.filter((tool) => tool.name === choice.function.name);
  if (named.length === 0) throw invalid(`tool_choice names the function "${choice.function.name}", which is not in tools.`);
  return { tools: named, toolChoice: 'required' };
}

/** The turn `hearth-agent` answers: the last message, which must be the user's. */
export function lastUserText(messages: readonly WireMessage[]): string {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') {
    throw invalid(`The last message must be the user's (got "${last?.role ?? 'none'}"): ${'hearth-agent'} answers it as a new turn and runs its own tools, so it takes no tool results from the client.`);
  }
  const text = contentText(last.content);
  if (text.trim() === '') throw invalid('The last user message is empty.');
  return text;
}

/**
 * The messages before the turn, as a new agent session's history. The agent's system prompt is Hearth's own;
 * the client's system messages still count (an app's instructions), so they travel as notes Hearth wrote in the
 * user role, where the learning loop does not mistake them for what the user said.
 */
export function seedHistory(messages: readonly WireMessage[]): ChatMessage[] {
  return toChatMessages(messages.slice(0, -1)).map((message): ChatMessage =>
    message.role === 'system' ? { role: 'user', origin: 'hearth', content: `The app you are being used through gave these instructions (its system message):\n\n${message.content}` } : message,
  );
}
