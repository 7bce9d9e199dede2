/**
 * The model host: owns the one `Llama` instance, the loaded model, its context and the per-session
 * sequences, and answers protocol messages. Every incoming message is validated; a bad one gets an
 * `error` reply and the host carries on.
 */
import { InsufficientMemoryError, type GbnfJsonSchema, type Llama, type LlamaContext, type LlamaContextSequence, type LlamaGrammar, type LlamaModel, type Token } from 'node-llama-cpp';
import { describe, LlamaRuntime } from './llama-runtime.js';
import { parseRequest } from './invalid-request.js';
import { InFlight, LifecycleLock, type InFlightRequest } from './lifecycle-lock.js';
import { hostRequestSchema, type GenerateRequest, type HostErrorCode, type HostEvent, type LoadedInfo, type LoadRequest, type MessageTransport } from '../shared/model-host-protocol.js';
import { generateResponse, type ResponseResult, type ResponseSink } from './generate-response.js';
import { generateWithWrapper } from './generate-with-wrapper.js';
import { choosePromptFamily, forcingFunctionCalls, toChatHistory, toFunctions, wrapperPromptTokens, type PromptFamily } from './family-prompt.js';
import { renderHermesPrompt, TOOL_CALL_OPEN } from './hermes-prompt.js';
import { SessionPool, SessionPoolExhaustedError, type SlotState } from './session-pool.js';
import { boundNumberRules, toolCallGrammarSchema } from './tool-call-schema.js';

const DEFAULT_MAX_SESSIONS = 4;

interface Loaded {
  modelPath: string;
  model: LlamaModel;
  context: LlamaContext;
  pool: SessionPool;
  info: LoadedInfo;
  /** Hermes prompt, or the model's own chat wrapper: chosen once at load, so a session's prompt never changes format. */
  family: PromptFamily;
}

/** A request's prompt, rendered, and how to generate the response to it on a sequence. */
interface PreparedPrompt {
  tokens: Token[];
  /**
   * Context tokens that must stay free beyond prompt and response: LlamaChat shifts the context (drops
   * history, silently) unless one token is left, so the wrapper path reserves it and overflows instead.
   */
  headroom: number;
  generate(sequence: LlamaContextSequence, maxTokens: number, signal: AbortSignal, sink: ResponseSink): Promise<ResponseResult>;
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

/** What the host holds right now (tests and diagnostics; nothing in the protocol depends on it). */
export interface HostState {
  modelPath: string | undefined;
  /** Requests accepted and not yet finished (waiting for a load included). */
  requests: number;
  sessions: SlotState[];
  closing: boolean;
}

export interface ModelHostOptions {
  /** Called after shutdown has disposed everything (default `process.exit`; in-process tests pass their own). */
  exit?: (code: number) => void;
}

export class ModelHost {
  private readonly runtime = new LlamaRuntime();
  private loaded: Loaded | undefined;
  /**
   * The lifecycle lock: load, release and shutdown run one at a time, in arrival order, and a
   * `generate` waits for every step that arrived before it. A step never overlaps a running
   * generation on the model it disposes: unload aborts them and waits for them to settle first.
   */
  private readonly lifecycle = new LifecycleLock((err) => {
    this.send({ type: 'error', code: 'generation_failed', message: `Model host lifecycle step failed: ${describe(err)}` });
  });
  /** Each `generate` from its arrival until its last event is sent. */
  private readonly requests = new InFlight();
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private closing = false;
  private shutdownDone: Promise<void> | undefined;

  constructor(
    private readonly transport: MessageTransport<HostEvent, unknown>,
    private readonly options: ModelHostOptions = {},
  ) {}

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
        if (this.closing) return this.send({ type: 'load_error', message: 'The model host is shutting down.' });
        void this.lifecycle.run(() => this.load(msg));
        return;
      case 'generate':
        void this.generate(msg);
        return;
      case 'abort':
        this.requests.abort(msg.requestId);
        return;
      case 'release_session':
        void this.lifecycle.run(() => this.releaseSession(msg.sessionKey));
        return;
      case 'shutdown':
        void this.shutdown();
        return;
    }
  }

  /** Resolves once every lifecycle step that has arrived so far (load, release, shutdown) has run. */
  lifecycleIdle(): Promise<void> {
    return this.lifecycle.idle;
  }

  state(): HostState {
    return { modelPath: this.loaded?.modelPath, requests: this.requests.size, sessions: this.loaded?.pool.state() ?? [], closing: this.closing };
  }

  private async releaseSession(sessionKey: string): Promise<void> {
    try {
      await this.loaded?.pool.forget(sessionKey);
    } catch (err) {
      this.send({ type: 'error', code: 'generation_failed', message: `Could not release session ${sessionKey}: ${describe(err)}` });
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
      this.loaded = { modelPath: req.modelPath, model, context, pool: new SessionPool(context), info, family: choosePromptFamily(model) };
      this.send({ type: 'loaded', info });
    } catch (err) {
      this.send({ type: 'load_error', message: `Could not load ${req.modelPath}: ${await this.runtime.describeLoadFailure(err)}` });
    }
  }

  /**
   * Stop every generation running on the loaded model, wait until each has released its sequence
   * and sent its last event, then dispose the context (and with it every sequence) and the model.
   * Only ever called under the lifecycle lock.
   */
  private async unload(): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    await this.requests.stopStarted();
    this.loaded = undefined;
    this.grammars.clear();
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

  /** The request's prompt in the loaded model's family format, and the generation that goes with it. */
  private async prepare(loaded: Loaded, llama: Llama, req: GenerateRequest): Promise<PreparedPrompt> {
    const { model, family } = loaded;
    const sampling = { temperature: req.temperature, seed: req.seed };
    if (family.kind === 'wrapper') {
      const functions = req.toolChoice === 'none' ? undefined : toFunctions(req.tools);
      const history = toChatHistory(req.messages);
      const tokens = wrapperPromptTokens(model, family.wrapper, history, functions);
      const wrapper = req.toolChoice === 'required' ? forcingFunctionCalls(family.wrapper) : family.wrapper;
      return {
        tokens,
        headroom: 1,
        generate: (sequence, maxTokens, signal, sink) => generateWithWrapper({ sequence, wrapper, history, functions, promptTokens: tokens, maxTokens, ...sampling, signal }, sink),
      };
    }
    const tokens = this.tokenizePrompt(model, req);
    const grammar = req.tools.length > 0 && req.toolChoice !== 'none' ? await this.grammarFor(llama, req.tools) : undefined;
    return {
      tokens,
      headroom: 0,
      generate: (sequence, maxTokens, signal, sink) =>
        generateResponse({ model, sequence, promptTokens: tokens, toolChoice: req.toolChoice, toolCallGrammar: grammar, maxTokens, ...sampling, signal }, sink),
    };
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
    if (this.closing) return fail('not_loaded', 'The model host is shutting down.');
    if (req.toolChoice === 'required' && req.tools.length === 0) return fail('invalid_message', "toolChoice 'required' needs at least one tool.");
    if (this.requests.has(requestId)) return fail('invalid_message', `Request ${requestId} is already running.`);

    const { request, finish } = this.requests.add(requestId);
    try {
      // A load, unload or shutdown that arrived before this request finishes first: never race it.
      await this.lifecycle.idle;
      // Synchronously after the gate: an unload queued behind this request now sees it as started.
      request.started = true;
      if (request.controller.signal.aborted) {
        this.send({ type: 'done', requestId, finishReason: 'aborted' });
        return;
      }
      const loaded = this.loaded;
      const llama = this.runtime.instance;
      if (this.closing) return fail('not_loaded', 'The model host is shutting down.');
      if (!loaded || !llama) return fail('not_loaded', 'No model is loaded: send `load` first.');
      await this.generateOn(loaded, llama, req, request, fail);
    } finally {
      finish();
    }
  }

  /**
   * Generate on the session's sequence. The request's last events (usage and done, or an error) are
   * sent only after the sequence is released, so the engine's next request on the session never finds
   * it still busy.
   */
  private async generateOn(loaded: Loaded, llama: Llama, req: GenerateRequest, request: InFlightRequest, fail: (code: HostErrorCode, message: string) => void): Promise<void> {
    const { requestId } = req;
    const error = (code: HostErrorCode, message: string): HostEvent => ({ type: 'error', requestId, code, message });
    let sequence;
    try {
      sequence = await loaded.pool.acquire(req.sessionKey);
    } catch (err) {
      return fail(err instanceof SessionPoolExhaustedError ? 'busy' : 'generation_failed', describe(err));
    }
    const last: HostEvent[] = [];
    try {
      const prompt = await this.prepare(loaded, llama, req);
      const promptTokens = prompt.tokens;
      const room = sequence.contextSize - prompt.headroom;
      if (promptTokens.length >= room) {
        last.push(error('context_overflow', `The prompt is ${promptTokens.length} tokens but the context holds ${room}.`));
        return;
      }
      const result = await prompt.generate(sequence, Math.min(req.maxTokens, room - promptTokens.length), request.controller.signal, {
        text: (delta) => this.send({ type: 'text', requestId, delta }),
        toolCall: (call) => this.send({ type: 'tool_call', requestId, call }),
      });
      if (request.unloading) {
        last.push(error('not_loaded', 'The model was unloaded while this response was generating (another model is loading, or the host is shutting down).'));
        return;
      }
      last.push(
        { type: 'usage', requestId, usage: { inputTokens: promptTokens.length, evaluatedInputTokens: result.evaluatedInputTokens, outputTokens: result.outputTokens } },
        { type: 'done', requestId, finishReason: result.finishReason },
      );
    } catch (err) {
      // The sequence may hold a half-evaluated state now: drop it rather than reuse it wrongly.
      await sequence.clearHistory().catch((clearErr: unknown) => last.push(error('generation_failed', `Also failed to reset the session: ${describe(clearErr)}`)));
      last.unshift(error('generation_failed', `Generation failed: ${describe(err)}`));
    } finally {
      await loaded.pool.release(sequence).catch((err: unknown) => last.push(error('generation_failed', `Could not release the session's sequence: ${describe(err)}`)));
      for (const event of last) this.send(event);
    }
  }

  /**
   * Stop generating, dispose everything, then exit. Waits behind a load in progress (disposing a model
   * llama.cpp is still loading is not safe) and for running generations to settle. Idempotent.
   */
  shutdown(): Promise<void> {
    this.closing = true;
    this.shutdownDone ??= this.lifecycle.run(async () => {
      try {
        await this.unload();
        await this.runtime.dispose();
      } finally {
        (this.options.exit ?? ((code: number) => process.exit(code)))(0);
      }
    });
    return this.shutdownDone;
  }
}
