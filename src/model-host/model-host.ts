/**
 * The model host: owns the one `Llama` instance, the loaded model, its context and the per-session
 * sequences, and answers protocol messages. Every incoming message is validated; a bad one gets an
 * `error` reply and the host carries on.
 */
import { InsufficientMemoryError, type GbnfJsonSchema, type Llama, type LlamaContext, type LlamaGrammar, type LlamaModel, type Token } from 'node-llama-cpp';
import { describe, LlamaRuntime } from './llama-runtime.js';
import { parseRequest } from './invalid-request.js';
import { hostRequestSchema, type GenerateRequest, type HostErrorCode, type HostEvent, type LoadedInfo, type LoadRequest, type MessageTransport } from '../shared/model-host-protocol.js';
import { generateResponse } from './generate-response.js';
import { renderHermesPrompt, TOOL_CALL_OPEN } from './hermes-prompt.js';
import { SessionPool, SessionPoolExhaustedError } from './session-pool.js';
import { boundNumberRules, toolCallGrammarSchema } from './tool-call-schema.js';

const DEFAULT_MAX_SESSIONS = 4;

interface Loaded {
  modelPath: string;
  model: LlamaModel;
  context: LlamaContext;
  pool: SessionPool;
  info: LoadedInfo;
}

/**
 * The GGUF's chat template, architecture and name: the engine reads tool calls the model writes in
 * its own format (`core/llm/tool-call-formats/`) and picks that format from these.
 */
function formatHints(model: LlamaModel): NonNullable<LoadedInfo['formatHints']> {
  const metadata = model.fileInfo.metadata as { general?: { architecture?: unknown; name?: unknown }; tokenizer?: { chat_template?: unknown } };
  const hints: NonNullable<LoadedInfo['formatHints']> = {};
  const template = metadata.tokenizer?.chat_template;
  if (typeof template === 'string') hints.chatTemplate = template;
  if (typeof metadata.general?.architecture === 'string') hints.architecture = metadata.general.architecture;
  if (typeof metadata.general?.name === 'string') hints.name = metadata.general.name;
  return hints;
}

export class ModelHost {
  private readonly runtime = new LlamaRuntime();
  private loaded: Loaded | undefined;
  /** Serializes loads so a second `load` never races the first. */
  private loadChain: Promise<void> = Promise.resolve();
  private readonly running = new Map<string, AbortController>();
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(private readonly transport: MessageTransport<HostEvent, unknown>) {}

  private send(event: HostEvent): void {
    this.transport.postMessage(event);
  }

  /** Entry point for every message from the engine. Never throws. */
  handle(raw: unknown): void {
    const parsed = parseRequest(hostRequestSchema, raw, 'model host');
    if (!parsed.ok) {
      this.send(parsed.error);
      return;
    }
    const msg = parsed.request;
    switch (msg.type) {
      case 'load':
        this.loadChain = this.loadChain.then(() => this.load(msg));
        return;
      case 'generate':
        void this.generate(msg);
        return;
      case 'abort':
        this.running.get(msg.requestId)?.abort();
        return;
      case 'release_session':
        void this.loaded?.pool.forget(msg.sessionKey).catch((err: unknown) => {
          this.send({ type: 'error', code: 'generation_failed', message: `Could not release session ${msg.sessionKey}: ${describe(err)}` });
        });
        return;
      case 'shutdown':
        void this.shutdown();
        return;
    }
  }

  private async load(req: LoadRequest): Promise<void> {
    this.runtime.startLoad();
    try {
      if (this.loaded?.modelPath === req.modelPath) {
        this.send({ type: 'loaded', info: this.loaded.info });
        return;
      }
      await this.unload();
      const llama = await this.runtime.get(req.gpu, req.threads);
      const onLoadProgress = (progress: number): void => this.send({ type: 'load_progress', progress: Math.min(1, Math.max(0, progress)) });
      let model: LlamaModel;
      try {
        model = await llama.loadModel({ modelPath: req.modelPath, gpuLayers: 'auto', onLoadProgress });
      } catch (err) {
        if (!(err instanceof InsufficientMemoryError) || llama.gpu === false) throw err;
        this.runtime.gpuFallbackReason = `not enough GPU memory (${describe(err)}); running on CPU`;
        model = await llama.loadModel({ modelPath: req.modelPath, gpuLayers: 0, onLoadProgress });
      }
      const maxSessions = req.maxSessions ?? DEFAULT_MAX_SESSIONS;
      const contextSize = Math.min(req.contextSize, model.trainContextSize);
      const context = await model.createContext({ contextSize, sequences: maxSessions, threads: req.threads });
      const gpu = model.gpuLayers > 0 ? llama.gpu : false;
      const info: LoadedInfo = {
        gpu,
        ...(gpu === false && this.runtime.gpuFallbackReason && req.gpu === 'auto' ? { gpuFallbackReason: this.runtime.gpuFallbackReason } : {}),
        threads: req.threads,
        contextSize: context.contextSize,
        trainContextSize: model.trainContextSize,
        maxSessions,
        params: model.fileInsights.totalParameters,
        formatHints: formatHints(model),
      };
      this.loaded = { modelPath: req.modelPath, model, context, pool: new SessionPool(context), info };
      this.send({ type: 'loaded', info });
    } catch (err) {
      this.send({ type: 'load_error', message: `Could not load ${req.modelPath}: ${await this.runtime.describeLoadFailure(err)}` });
    }
  }

  private async unload(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    this.grammars.clear();
    if (!loaded) return;
    for (const controller of this.running.values()) controller.abort();
    await loaded.context.dispose();
    await loaded.model.dispose();
  }

  private grammarFor(llama: Llama, tools: GenerateRequest['tools']): Promise<LlamaGrammar> {
    const key = JSON.stringify(tools.map((t) => [t.name, t.parameters]));
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = (async () => {
        // The schema is built at run time from the tools, so its precise literal type is unknowable here.
        const json = await llama.createGrammarForJsonSchema(toolCallGrammarSchema(tools) as Readonly<GbnfJsonSchema> & { type: 'object' });
        return llama.createGrammar({ grammar: boundNumberRules(json.grammar) });
      })();
      // A tool schema the grammar generator rejects must not stay cached as a failure forever.
      grammar.catch(() => this.grammars.delete(key));
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  private tokenizePrompt(model: LlamaModel, req: GenerateRequest): Token[] {
    const forceCall = req.toolChoice === 'required';
    const pieces = renderHermesPrompt(req.messages, req.tools, forceCall ? { assistantPrefix: `${TOOL_CALL_OPEN}\n` } : {});
    const tokens: Token[] = [];
    if (model.tokens.shouldPrependBosToken && model.tokens.bos !== null) tokens.push(model.tokens.bos);
    for (const piece of pieces) tokens.push(...model.tokenize(piece.text, piece.special));
    return tokens;
  }

  private async generate(req: GenerateRequest): Promise<void> {
    const { requestId } = req;
    const fail = (code: HostErrorCode, message: string): void =>
      this.send({ type: 'error', requestId, code, message });
    const loaded = this.loaded;
    const llama = this.runtime.instance;
    if (!loaded || !llama) return fail('not_loaded', 'No model is loaded: send `load` first.');
    if (req.toolChoice === 'required' && req.tools.length === 0) return fail('invalid_message', "toolChoice 'required' needs at least one tool.");
    if (this.running.has(requestId)) return fail('invalid_message', `Request ${requestId} is already running.`);

    const controller = new AbortController();
    this.running.set(requestId, controller);
    let sequence;
    try {
      sequence = await loaded.pool.acquire(req.sessionKey);
    } catch (err) {
      this.running.delete(requestId);
      return fail(err instanceof SessionPoolExhaustedError ? 'busy' : 'generation_failed', describe(err));
    }
    try {
      const promptTokens = this.tokenizePrompt(loaded.model, req);
      if (promptTokens.length >= sequence.contextSize) {
        return fail('context_overflow', `The prompt is ${promptTokens.length} tokens but the context holds ${sequence.contextSize}.`);
      }
      const grammar = req.tools.length > 0 && req.toolChoice !== 'none' ? await this.grammarFor(llama, req.tools) : undefined;
      const result = await generateResponse(
        {
          model: loaded.model,
          sequence,
          promptTokens,
          toolChoice: req.toolChoice,
          toolCallGrammar: grammar,
          maxTokens: Math.min(req.maxTokens, sequence.contextSize - promptTokens.length),
          temperature: req.temperature,
          seed: req.seed,
          signal: controller.signal,
        },
        {
          text: (delta) => this.send({ type: 'text', requestId, delta }),
          toolCall: (call) => this.send({ type: 'tool_call', requestId, call }),
        },
      );
      this.send({
        type: 'usage',
        requestId,
        usage: { inputTokens: promptTokens.length, evaluatedInputTokens: result.evaluatedInputTokens, outputTokens: result.outputTokens },
      });
      this.send({ type: 'done', requestId, finishReason: result.finishReason });
    } catch (err) {
      // The sequence may hold a half-evaluated state now: drop it rather than reuse it wrongly.
      await sequence.clearHistory().catch((clearErr: unknown) => fail('generation_failed', `Also failed to reset the session: ${describe(clearErr)}`));
      fail('generation_failed', `Generation failed: ${describe(err)}`);
    } finally {
      this.running.delete(requestId);
      loaded.pool.release(sequence);
    }
  }

  async shutdown(): Promise<void> {
    try {
      await this.unload();
      await this.runtime.dispose();
    } finally {
      process.exit(0);
    }
  }
}
