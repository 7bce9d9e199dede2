/**
 * Renders a conversation in the format Hermes 2 Pro / Hermes 3 were trained on: ChatML turns, the
 * tool signatures inside `<tools>` in the system turn, assistant calls as `<tool_call>` blocks and
 * results as `<tool_response>` blocks in a `tool` turn.
 *
 * The output is a list of pieces split exactly where llama.cpp would split the text at special
 * tokens, so tokenizing piece by piece equals tokenizing the whole prompt, while message content is
 * never parsed for control tokens (a user typing `<|im_end|>` cannot forge a turn).
 * Rendering is a pure function of (messages, tools): the same prefix always yields the same bytes,
 * which is what lets a session's KV cache be reused turn after turn.
 */
import type { HostChatMessage, HostToolSchema } from '../shared/model-host-protocol.js';

export interface PromptPiece {
  text: string;
  /**
   * true: text Hearth wrote (ChatML markers, tool tags, the tools block), tokenized with special-token
   * parsing so tags become the single tokens Hermes was trained on. false: content from the user, a
   * tool or the model, never parsed for control tokens.
   */
  special: boolean;
}

export const IM_START = '<|im_start|>';
export const IM_END = '<|im_end|>';
export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';

/** The FunctionCall pydantic schema Hermes' function-calling system prompt quotes verbatim. */
const FUNCTION_CALL_SCHEMA =
  '{"properties": {"name": {"title": "Name", "type": "string"}, "arguments": {"title": "Arguments", "type": "object"}}, ' +
  '"required": ["name", "arguments"], "title": "FunctionCall", "type": "object"}';

/** The Hermes function-calling system block for a tool list (empty string when there are no tools). */
export function renderToolsBlock(tools: readonly HostToolSchema[]): string {
  if (tools.length === 0) return '';
  const signatures = tools
    .map((t) => JSON.stringify({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }))
    .join('\n');
  return (
    'You are a function calling AI model. You are provided with function signatures within <tools></tools> XML tags. ' +
    'You may call one or more functions to assist with the user query. ' +
    "Don't make assumptions about what values to plug into functions. Here are the available tools: " +
    `<tools>\n${signatures}\n</tools>\n` +
    `Use the following pydantic model json schema for each tool call you will make: ${FUNCTION_CALL_SCHEMA}\n` +
    'For each function call return a json object with function name and arguments within <tool_call></tool_call> XML tags as follows:\n' +
    `${TOOL_CALL_OPEN}\n{"name": <function-name>, "arguments": <args-dict>}\n${TOOL_CALL_CLOSE}`
  );
}

/** The JSON line of one call. Arguments are kept verbatim when they parse, so KV reuse sees the model's own bytes. */
export function toolCallJson(name: string, argumentsJson: string): string {
  let args = argumentsJson.trim();
  try {
    JSON.parse(args);
  } catch (_invalid) {
    // The model (or a remote provider) wrote invalid JSON: carry it as a string rather than corrupt the turn.
    args = JSON.stringify(argumentsJson);
  }
  return `{"name": ${JSON.stringify(name)}, "arguments": ${args}}`;
}

class PieceList {
  readonly pieces: PromptPiece[] = [];
  structure(text: string): this {
    if (text !== '') this.pieces.push({ text, special: true });
    return this;
  }
  content(text: string): this {
    if (text !== '') this.pieces.push({ text, special: false });
    return this;
  }
}

function assistantBody(out: PieceList, m: Extract<HostChatMessage, { role: 'assistant' }>): void {
  out.content(m.content);
  const calls = m.toolCalls ?? [];
  if (calls.length > 0 && m.content !== '' && !m.content.endsWith('\n')) out.structure('\n');
  calls.forEach((c, i) => {
    out.structure(`${i > 0 ? '\n' : ''}${TOOL_CALL_OPEN}\n`).content(toolCallJson(c.name, c.arguments)).structure(`\n${TOOL_CALL_CLOSE}`);
  });
}

export interface RenderOptions {
  /** Text the assistant turn is forced to start with (e.g. `<tool_call>\n` when a call is required). */
  assistantPrefix?: string;
}

/** Render messages + tools, ending with an open assistant turn for the model to complete. */
export function renderHermesPrompt(messages: readonly HostChatMessage[], tools: readonly HostToolSchema[], options: RenderOptions = {}): PromptPiece[] {
  const out = new PieceList();
  const open = (role: string): PieceList => out.structure(`${IM_START}${role}\n`);
  const close = (): PieceList => out.structure(`${IM_END}\n`);
  const toolsBlock = renderToolsBlock(tools);
  let rest = messages;
  const first = messages[0];
  if (first?.role === 'system') {
    open('system').content(first.content);
    if (toolsBlock !== '') out.structure(`${first.content === '' ? '' : '\n\n'}${toolsBlock}`);
    close();
    rest = messages.slice(1);
  } else if (toolsBlock !== '') {
    open('system').structure(toolsBlock);
    close();
  }
  for (let i = 0; i < rest.length; i++) {
    const m = rest[i] as HostChatMessage;
    if (m.role === 'tool') {
      // Consecutive results of one batch of calls share one `tool` turn, as Hermes was trained.
      open('tool');
      const results = [m];
      while (rest[i + 1]?.role === 'tool') results.push(rest[++i] as typeof m);
      results.forEach((r, k) => {
        out.structure(`${k > 0 ? '\n' : ''}<tool_response>\n`).content(JSON.stringify({ name: r.toolName, content: r.content })).structure('\n</tool_response>');
      });
      close();
    } else if (m.role === 'assistant') {
      open('assistant');
      assistantBody(out, m);
      close();
    } else {
      open(m.role).content(m.content);
      close();
    }
  }
  open('assistant').structure(options.assistantPrefix ?? '');
  return out.pieces;
}

export function promptText(pieces: readonly PromptPiece[]): string {
  return pieces.map((p) => p.text).join('');
}
