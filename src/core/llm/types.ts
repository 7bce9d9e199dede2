/**
 * The one interface every model sits behind: local GGUF (through the model host), OpenAI-compatible
 * endpoints, Anthropic, and the fallback chain that composes them.
 */

/** JSON Schema as sent to providers (generated from each tool's zod schema). */
export type JsonSchema = Record<string, unknown>;

export interface ToolSchema {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

export interface ToolCall {
  /** Provider-assigned id (or one we mint for providers/formats that have none). */
  id: string;
  name: string;
  /** The arguments exactly as the model wrote them: JSON text, possibly invalid. The agent validates. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  /** `origin: 'hearth'`: a user-role message Hearth wrote (a summary, a step-budget request), not the user; providers ignore it, the store records it. */
  | { role: 'user'; content: string; origin?: 'hearth' }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; reasoning?: string }
  | { role: 'tool'; content: string; toolCallId: string; toolName: string };

export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  /** 'auto' (default): the model decides; 'required': it must call a tool; 'none': no tool calls. */
  toolChoice?: 'auto' | 'required' | 'none';
  /**
   * Stable key of the conversation. The local model keeps one context sequence per key so each turn
   * evaluates only the tokens that are new since the previous call.
   */
  sessionKey?: string;
  maxTokens?: number;
  temperature?: number;
}

export interface Usage {
  /** Prompt tokens the request carried (whole prompt, as the provider counts it). */
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens actually evaluated this call (local model: new tokens only; cloud: input − cached). */
  evaluatedInputTokens?: number;
  cachedInputTokens?: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'aborted';

export type ModelEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  /** A complete tool call. Providers assemble streamed deltas; the agent never sees half a call. */
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  /** Emitted by the fallback chain when it moves on to the next model. */
  | { type: 'fallback'; from: string; to: string; reason: string }
  | { type: 'done'; finishReason: FinishReason };

/**
 * What a model is, for callers that need to know (the status bar, first-run setup, prompt budgeting)
 * without parsing its id. A fallback chain describes the link answering now; a switchable model its
 * current model.
 */
export interface ModelDescription {
  /** 'local': a GGUF run by Hearth's own model host. 'remote': a model behind an HTTP API (which may be on this machine, like Ollama). */
  kind: 'local' | 'remote';
  /** The configured provider name (`openai`, `ollama`, `anthropic`, …), `local` for a GGUF. */
  provider: string;
  /** The model name the provider knows; for a local model the GGUF's file name. */
  model: string;
  /** Context window in tokens when known (a local model's is the loaded context once it has loaded). */
  contextLength?: number;
  capabilities: {
    /** 'native': the API carries tool calls; 'text': the model writes them in its prompt format and Hearth reads them; 'none': no tool calls. */
    tools: 'native' | 'text' | 'none';
    /** Whether Hearth can send this model images. */
    images: boolean;
    /** Whether the model thinks before answering (`<think>`, reasoning deltas), when known. */
    reasoning?: boolean;
  };
  /** Local only: the GGUF file. */
  file?: string;
  /** Local only, once loaded: where it runs. Undefined while it has not loaded yet. */
  device?: 'gpu' | 'cpu';
  /** Set by a fallback chain: how many other models it would try if this one failed. */
  fallbacks?: number;
}

export interface ChatModel {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`, `local:/path/hermes.gguf`. A display name and a store key: read `describe()`, never parse it. */
  readonly id: string;
  /** Context window in tokens when known (used for prompt budgeting and compression). */
  readonly contextLength?: number;
  /** What kind of model this is and what it can do (see ModelDescription). Cheap; no I/O. */
  describe(): ModelDescription;
  /**
   * Stream one assistant response. Must stop promptly and throw `HearthError('aborted')` when the
   * signal fires; other failures throw `HearthError` with a model_* code.
   */
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
  /**
   * The conversation `sessionKey` has ended: drop what the model keeps for it (the local model's KV
   * cache sequence). Fire and forget, never throws; a model that keeps nothing per session omits it.
   */
  releaseSession?(sessionKey: string): void;
  /** Release processes, sockets, sequences. Safe to call twice. */
  dispose?(): Promise<void>;
}
