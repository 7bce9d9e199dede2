/**
 * `LocalModel`: a GGUF model served by the model host process. The host is started lazily on the
 * first `stream`, and again after it dies (a malformed GGUF aborts natively and takes only the
 * host down); the engine sees a typed error instead of a crash.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { abortError, HearthError } from '../errors.js';
import { assertGgufFile } from './gguf-file.js';
import type { ChatModel, ChatRequest, ModelDescription, ModelEvent } from '../llm/types.js';
import { withReasoningTags } from '../llm/reasoning-tags.js';
import { withTextToolCalls } from '../llm/text-tool-calls.js';
import { chooseToolCallFormat } from '../llm/tool-call-formats/index.js';
import type { HostErrorCode, HostEvent, LoadedInfo } from '../../shared/model-host-protocol.js';
import { describeExit, ModelHostProcess, type HostSpawner } from './local-process.js';

export interface LocalModelOptions {
  modelPath: string;
  /** Inference threads. Use `defaultLocalThreads()` for 'auto'; never more than the physical cores. */
  threads: number;
  /** 'auto': GPU when available, CPU otherwise (`info().gpuFallbackReason` says why). */
  gpu: 'auto' | false;
  /** Tokens per session. */
  contextSize: number;
  /** Sessions that keep a live KV cache at once (default 4). */
  maxSessions?: number;
  onLoadProgress?: (progress: number) => void;
  /** How to start the host process (default: `child_process.fork`; the desktop shell passes a utilityProcess one). */
  spawnHost?: HostSpawner;
}

/** Threads for 'auto': leave a core for the UI and engine, never oversubscribe (2 cores → 1). */
export function defaultLocalThreads(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

const DEFAULT_MAX_TOKENS = 2048;
const DEFAULT_TEMPERATURE = 0.7;

/** Push-to-pull bridge from host events to the `for await` in `stream`. */
class EventQueue {
  private items: HostEvent[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  push(event: HostEvent): void {
    this.items.push(event);
    this.wake?.();
  }

  fail(err: Error): void {
    this.failure ??= err;
    this.wake?.();
  }

  async next(): Promise<HostEvent> {
    for (;;) {
      const item = this.items.shift();
      if (item) return item;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

export class LocalModel implements ChatModel {
  readonly id: string;
  private host: ModelHostProcess | undefined;
  private loadedInfo: LoadedInfo | undefined;
  private loading: Promise<ModelHostProcess> | undefined;
  /** Per session, the promise that the last request queued on it has finished in the host. */
  private readonly sessionTails = new Map<string, Promise<void>>();

  constructor(private readonly options: LocalModelOptions) {
    this.id = `local:${options.modelPath}`;
  }

  get contextLength(): number {
    return this.loadedInfo?.contextSize ?? this.options.contextSize;
  }

  describe(): ModelDescription {
    const info = this.loadedInfo;
    const template = info?.formatHints?.chatTemplate;
    return {
      kind: 'local',
      provider: 'local',
      model: basename(this.options.modelPath),
      contextLength: this.contextLength,
      // The host prompts the tools in the model's own format and reads the calls it writes (text, grammar-constrained for Hermes).
      capabilities: { tools: 'text', images: false, ...(template === undefined ? {} : { reasoning: template.includes('<think>') }) },
      file: this.options.modelPath,
      ...(info === undefined ? {} : { device: info.gpu === false ? 'cpu' : 'gpu' }),
    };
  }

  /** GPU/threads/context actually in use, once loaded (for `hearth doctor`). */
  info(): LoadedInfo | undefined {
    return this.loadedInfo;
  }

  /** The running host's pid (tests use it to prove a crashed host was replaced). */
  get hostPid(): number | undefined {
    return this.host?.alive ? this.host.pid : undefined;
  }

  /** Start a host and load the model; resolves once `loaded` arrives. */
  private async startHost(): Promise<ModelHostProcess> {
    const { modelPath } = this.options;
    await assertGgufFile(modelPath, 'local model', 'Download a .gguf model, e.g. Hermes 3.');
    const host = ModelHostProcess.start(this.options.spawnHost);
    this.host = host;
    host.onExit(() => {
      if (this.host === host) {
        this.host = undefined;
        this.loadedInfo = undefined;
      }
    });
    return new Promise<ModelHostProcess>((resolve, reject) => {
      const stopListening = host.subscribe((event) => {
        if (event.type === 'load_progress') this.options.onLoadProgress?.(event.progress);
        else if (event.type === 'loaded') {
          cleanup();
          this.loadedInfo = event.info;
          resolve(host);
        } else if (event.type === 'load_error') {
          cleanup();
          void host.stop();
          reject(new HearthError('model_load_failed', event.message));
        }
      });
      const stopWatchingExit = host.onExit((exit) => {
        cleanup();
        reject(new HearthError('model_load_failed', `The model host died while loading ${modelPath} (${describeExit(exit)}). The GGUF file is probably malformed or unsupported.`, { details: { ...exit } }));
      });
      const cleanup = (): void => {
        stopListening();
        stopWatchingExit();
      };
      host.send({ type: 'load', modelPath, threads: this.options.threads, gpu: this.options.gpu, contextSize: this.options.contextSize, ...(this.options.maxSessions ? { maxSessions: this.options.maxSessions } : {}) });
    });
  }

  private async ensureHost(signal: AbortSignal): Promise<ModelHostProcess> {
    if (this.host?.alive && this.loadedInfo) return this.host;
    this.loading ??= this.startHost().finally(() => {
      this.loading = undefined;
    });
    // An interrupt stops the wait, not the load: the next call finds the model ready.
    return new Promise<ModelHostProcess>((resolve, reject) => {
      const onAbort = (): void => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      (this.loading as Promise<ModelHostProcess>).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * Wait for the previous request on `sessionKey` to finish in the host (one sequence serves one
   * request at a time), and register ours; the returned function marks ours finished.
   */
  private async queueOnSession(sessionKey: string, signal: AbortSignal): Promise<() => void> {
    const previous = this.sessionTails.get(sessionKey) ?? Promise.resolve();
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    const tail = previous.then(() => mine);
    this.sessionTails.set(sessionKey, tail);
    void tail.then(() => {
      if (this.sessionTails.get(sessionKey) === tail) this.sessionTails.delete(sessionKey);
    });
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    }).catch((err: unknown) => {
      // We never started: hand the session on as soon as the previous request is done.
      void previous.then(finish);
      throw err;
    });
    return finish;
  }

  /**
   * The host constrains Hermes `<tool_call>` blocks with a grammar; a model that falls back to its own
   * format (`<|python_tag|>`, `[TOOL_CALLS]`, …) writes it as text, read here in the format its GGUF names.
   */
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    const tools = request.toolChoice === 'none' ? [] : request.tools;
    // As for OpenAI-compatible servers: thinking (`<think>`, the host's rendering of thought segments) comes off first.
    return withTextToolCalls(withReasoningTags(this.hostStream(request, signal)), tools, { formats: () => [chooseToolCallFormat(this.loadedInfo?.formatHints ?? {}).format] });
  }

  private async *hostStream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    if (signal.aborted) throw abortError(signal);
    const host = await this.ensureHost(signal);
    const requestId = randomUUID();
    const sessionKey = request.sessionKey ?? `ephemeral:${requestId}`;
    const sessionDone = await this.queueOnSession(sessionKey, signal);
    const queue = new EventQueue();
    // Settles when the host has finished this request (done, error or death), even if our consumer left early.
    let hostFinished = false;
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = () => {
      hostFinished = true;
      resolve();
    }));
    const stopListening = host.subscribe((event) => {
      if (!('requestId' in event) || event.requestId !== requestId) return;
      queue.push(event);
      if (event.type === 'done' || event.type === 'error') settle();
    });
    const stopWatchingExit = host.onExit((exit) => {
      queue.fail(new HearthError('model_host_crashed', `The local model host stopped unexpectedly (${describeExit(exit)}). It will be restarted on the next message.`, { details: { ...exit } }));
      settle();
    });
    const onAbort = (): void => host.send({ type: 'abort', requestId });
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      host.send({
        type: 'generate',
        requestId,
        sessionKey,
        messages: request.messages,
        tools: request.tools,
        toolChoice: request.toolChoice ?? 'auto',
        maxTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
        temperature: request.temperature ?? DEFAULT_TEMPERATURE,
      });
      for (;;) {
        const event = await queue.next();
        switch (event.type) {
          case 'text':
            yield { type: 'text', delta: event.delta };
            break;
          case 'tool_call':
            yield { type: 'tool_call', call: event.call };
            break;
          case 'usage':
            yield { type: 'usage', usage: event.usage };
            break;
          case 'done':
            if (event.finishReason === 'aborted' || signal.aborted) throw abortError(signal);
            yield { type: 'done', finishReason: event.finishReason };
            return;
          case 'error':
            throw hostError(event.code, event.message);
          default:
            break;
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      // The consumer stopped early (break, throw): stop the host from generating for nobody.
      if (!hostFinished) host.send({ type: 'abort', requestId });
      void settled.then(() => {
        stopListening();
        stopWatchingExit();
        if (request.sessionKey === undefined) host.send({ type: 'release_session', sessionKey });
        sessionDone();
      });
    }
  }

  /** Forget a session's KV cache (e.g. when the session is closed). */
  releaseSession(sessionKey: string): void {
    this.host?.send({ type: 'release_session', sessionKey });
  }

  async dispose(): Promise<void> {
    const host = this.host;
    this.host = undefined;
    this.loadedInfo = undefined;
    await host?.stop();
  }
}

/** A host `error` as the engine's typed error, with what the user can do about it. */
function hostError(code: HostErrorCode, message: string): HearthError {
  const details = { hostCode: code };
  switch (code) {
    case 'context_overflow':
      return new HearthError('model_context_overflow', `Local model: ${message} Start a new session, or raise local.context_size in config.yaml (the model's trained context is the upper limit).`, { details });
    case 'not_loaded':
      return new HearthError('model_load_failed', `Local model: ${message}`, { details });
    default:
      return new HearthError('model_bad_response', `Local model: ${message}`, { details });
  }
}
