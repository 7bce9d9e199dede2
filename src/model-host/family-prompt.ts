/**
 * Which prompt format a loaded model gets. node-llama-cpp resolves a chat wrapper from the GGUF's
 * `tokenizer.chat_template` (a specialised wrapper when the template is equivalent to one, else the
 * Jinja template itself), its name and architecture. ChatML models, and models nothing identifies,
 * keep Hearth's Hermes prompt (`hermes-prompt.ts`: tested, byte-stable, grammar-constrained calls);
 * every other family (Llama 3, Mistral, Qwen, Gemma, DeepSeek, …) is prompted through its wrapper,
 * which renders its turn markers and describes the tools the way that wrapper's syntax expects.
 */
import { ChatMLChatWrapper, GeneralChatWrapper, JinjaTemplateChatWrapper, resolveChatWrapper, type ChatHistoryItem, type GbnfJsonSchema, type ChatModelFunctionCall, type ChatModelFunctions, type ChatWrapper, type GgufFileInfo, type LlamaModel, type Token } from 'node-llama-cpp';
import type { HostChatMessage, HostToolSchema } from '../shared/model-host-protocol.js';
import { toGrammarSchema } from './tool-call-schema.js';

export type PromptFamily =
  | { kind: 'hermes'; reason: string }
  | { kind: 'wrapper'; wrapper: ChatWrapper; reason: string };

const CHATML_MARKER = '<|im_start|>';

function chatTemplateOf(model: LlamaModel): string | undefined {
  const template = (model.fileInfo.metadata as { tokenizer?: { chat_template?: unknown } }).tokenizer?.chat_template;
  return typeof template === 'string' ? template : undefined;
}

const HERMES_NAME = /hermes/i;

/**
 * node-llama-cpp's resolution for a GGUF without a chat template, minus its last resorts: guesses from
 * the BOS string (`<s>`: every Llama 2, Mistral or Hermes file would become Llama 2 chat) and from the
 * architecture alone. Null when neither the GGUF's name nor its file name identifies a family.
 */
function resolveByName(model: LlamaModel): ChatWrapper | null {
  const metadata = model.fileInfo.metadata;
  const fileInfo = { ...model.fileInfo, metadata: { ...metadata, general: { ...metadata.general, architecture: undefined } } } as unknown as GgufFileInfo;
  return resolveChatWrapper({ filename: model.filename, fileInfo, tokenizer: model.tokenizer, warningLogs: false });
}

/** Decided once per loaded model: the prompt must not change format between two turns of a session. */
export function choosePromptFamily(model: LlamaModel): PromptFamily {
  const template = chatTemplateOf(model);
  const name = (model.fileInfo.metadata as { general?: { name?: unknown } }).general?.name;
  // Without a template, a Hermes fine-tune (of Llama, Mistral, …) is named so: its name outranks its base family, as in chooseToolCallFormat.
  if (template === undefined && ((typeof name === 'string' && HERMES_NAME.test(name)) || HERMES_NAME.test(model.filename ?? ''))) {
    return { kind: 'hermes', reason: 'no chat template; the model is named Hermes' };
  }
  let wrapper: ChatWrapper | null;
  try {
    wrapper = template === undefined ? resolveByName(model) : resolveChatWrapper(model, { warningLogs: false });
  } catch (err) {
    // A template node-llama-cpp cannot read must not stop the model from answering: Hermes is what we always had.
    return { kind: 'hermes', reason: `the chat template could not be resolved (${err instanceof Error ? err.message : String(err)})` };
  }
  if (wrapper === null) return { kind: 'hermes', reason: 'no chat template, and the name names no family' };
  if (wrapper instanceof ChatMLChatWrapper) return { kind: 'hermes', reason: 'ChatML chat template' };
  // A Hermes tool-use template is ChatML that no specialised wrapper matches: still Hermes' own format.
  if (wrapper instanceof JinjaTemplateChatWrapper && template?.includes(CHATML_MARKER)) return { kind: 'hermes', reason: 'ChatML-based Jinja chat template' };
  if (wrapper instanceof GeneralChatWrapper) return { kind: 'hermes', reason: 'nothing in the GGUF names a chat format' };
  return { kind: 'wrapper', wrapper, reason: `${wrapper.wrapperName} chat wrapper` };
}

/**
 * node-llama-cpp 3.21.1's grammar lets an "integer" carry an exponent (`61e-2`) and then rejects the
 * value it admitted, failing the whole response. LlamaChat builds that grammar itself (the Hermes path
 * bounds the rule, `boundNumberRules`), so here integers are offered as numbers: the agent's own schema
 * validation tells the model when a value is not a whole number, a turn the model can fix.
 */
function integersAsNumbers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(integersAsNumbers);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'type' && value === 'integer') return [key, 'number'];
      if (key === 'type' && Array.isArray(value)) return [key, [...new Set(value.map((t: unknown) => (t === 'integer' ? 'number' : t)))]];
      // Literal values (`const`, `enum`) are data, not schema.
      if (key === 'const' || key === 'enum') return [key, value];
      return [key, integersAsNumbers(value)];
    }),
  );
}

/** The tools as node-llama-cpp functions: their parameters in its grammar dialect, so calls are grammar-constrained too. */
export function toFunctions(tools: readonly HostToolSchema[]): ChatModelFunctions | undefined {
  if (tools.length === 0) return undefined;
  // The converted schema is plain JSON of the grammar dialect; the integer relaxation keeps it so.
  return Object.fromEntries(tools.map((t) => [t.name, { description: t.description, params: integersAsNumbers(toGrammarSchema(t.parameters)) as GbnfJsonSchema }]));
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (_invalid) {
    // The model wrote invalid JSON: its own text is what it should see again, not a repaired guess.
    return text;
  }
}

/**
 * Our messages as node-llama-cpp chat history, ending with the open model turn to generate. A tool
 * result is folded into the call it answers (the wrapper renders call and result together, in its
 * syntax); a result that answers no call in the history becomes a user turn that says what it is.
 */
export function toChatHistory(messages: readonly HostChatMessage[]): ChatHistoryItem[] {
  const results = new Map<string, Extract<HostChatMessage, { role: 'tool' }>>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  const answered = new Set<string>();
  const history: ChatHistoryItem[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        history.push({ type: 'system', text: m.content });
        break;
      case 'user':
        history.push({ type: 'user', text: m.content });
        break;
      case 'assistant': {
        const response: (string | ChatModelFunctionCall)[] = m.content === '' ? [] : [m.content];
        for (const call of m.toolCalls ?? []) {
          const result = results.get(call.id);
          if (result) answered.add(call.id);
          response.push({ type: 'functionCall', name: call.name, params: parseArguments(call.arguments), result: result?.content ?? '(no result)' });
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool':
        if (!answered.has(m.toolCallId)) history.push({ type: 'user', text: `Result of ${m.toolName}:\n${m.content}` });
        break;
    }
  }
  history.push({ type: 'model', response: [] });
  return history;
}

/** The prompt the wrapper renders for this history: what LlamaChat evaluates (counted for usage and overflow). */
export function wrapperPromptTokens(model: LlamaModel, wrapper: ChatWrapper, history: ChatHistoryItem[], functions: ChatModelFunctions | undefined): Token[] {
  const { contextText } = wrapper.generateContextState({ chatHistory: history, ...(functions ? { availableFunctions: functions, documentFunctionParams: true } : {}) });
  return contextText.tokenize(model.tokenizer);
}

/**
 * The same wrapper, but every response starts inside a function call (toolChoice 'required'): LlamaChat
 * then samples a function name from the offered ones and its parameters under their grammar, as it does
 * for wrappers whose format opens with a call (Functionary's `initiallyEngaged`). A proxy rather than
 * a subclass, because the resolved wrapper may be any of node-llama-cpp's classes.
 */
export function forcingFunctionCalls(wrapper: ChatWrapper): ChatWrapper {
  return new Proxy(wrapper, {
    get(target, property, receiver) {
      if (property !== 'generateContextState') return Reflect.get(target, property, receiver) as unknown;
      return (options: Parameters<ChatWrapper['generateContextState']>[0]) => ({
        ...target.generateContextState(options),
        functionCall: { initiallyEngaged: true, disengageInitiallyEngaged: [] },
      });
    },
  });
}
