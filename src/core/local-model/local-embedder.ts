/**
 * `LocalEmbedder`: text embeddings from a user-chosen GGUF, computed in the embedding host process.
 * The host starts lazily on the first call and again after it dies; a bad GGUF is a typed error and
 * the next call retries with a fresh process. Vectors come back L2-normalised (dot product = cosine).
 */
import { randomUUID } from 'node:crypto';
import { abortError, HearthError } from '../errors.js';
import type { Embedder } from '../llm/embedder.js';
import { MAX_EMBED_BATCH, type EmbedHostErrorCode, type EmbedLoadedInfo } from '../../shared/embed-host-protocol.js';
import { EmbedHostProcess } from './embed-host-process.js';
import { assertGgufFile } from './gguf-file.js';
import { defaultLocalThreads } from './local.js';
import { describeExit, type HostSpawner } from './local-process.js';

export interface LocalEmbedderOptions {
  /** The embedding GGUF (`search.embedding_model`). */
  modelPath: string;
  /** Default `defaultLocalThreads()`; never more than the physical cores. */
  threads?: number;
  /** Default false: embedding models are small and fast on CPU, and the VRAM belongs to the chat model. */
  gpu?: 'auto' | false;
  /** Tokens per text (default 512, capped by the model's trained context); longer texts are cut. */
  contextSize?: number;
  /** Texts per host request (default 32): bounds one IPC message and how long an abort waits. */
  batchSize?: number;
  /** How to start the host (default `child_process.fork`; the desktop shell passes a utilityProcess one). */
  spawnHost?: HostSpawner;
}

const DEFAULT_CONTEXT_SIZE = 512;
const DEFAULT_BATCH_SIZE = 32;

export function createLocalEmbedder(options: LocalEmbedderOptions): LocalEmbedder {
  return new LocalEmbedder(options);
}

/** Scale to unit length; an all-zero vector (empty text) stays zero so it matches nothing. */
export function l2Normalize(raw: readonly number[]): Float32Array {
  let sumSquares = 0;
  for (const x of raw) sumSquares += x * x;
  const norm = Math.sqrt(sumSquares);
  const out = new Float32Array(raw.length);
  if (norm === 0) return out;
  for (let i = 0; i < raw.length; i++) out[i] = (raw[i] as number) / norm;
  return out;
}

export class LocalEmbedder implements Embedder {
  readonly id: string;
  private host: EmbedHostProcess | undefined;
  private info: EmbedLoadedInfo | undefined;
  private loading: Promise<EmbedHostProcess> | undefined;
  /** Hosts being shut down on purpose: a request they leave unanswered was cancelled, not crashed. */
  private readonly closing = new WeakSet<EmbedHostProcess>();
  /** Bumped by `dispose()`: a multi-batch call that began before it stops instead of starting a new host. */
  private disposals = 0;
  private readonly threads: number;
  private readonly batchSize: number;

  constructor(private readonly options: LocalEmbedderOptions) {
    this.id = `local:${options.modelPath}`;
    this.threads = options.threads ?? defaultLocalThreads();
    this.batchSize = Math.max(1, Math.min(MAX_EMBED_BATCH, options.batchSize ?? DEFAULT_BATCH_SIZE));
  }

  /** Dimensions, context, GPU and threads in use once loaded (for `hearth doctor`). */
  loadedInfo(): EmbedLoadedInfo | undefined {
    return this.info;
  }

  /** The running host's pid (tests use it to prove a crashed host was replaced). */
  get hostPid(): number | undefined {
    return this.host?.alive ? this.host.pid : undefined;
  }

  async dimensions(): Promise<number> {
    await this.ensureHost();
    return (this.info as EmbedLoadedInfo).dimensions;
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (signal?.aborted) throw abortError(signal);
    const vectors: Float32Array[] = [];
    const disposalsAtStart = this.disposals;
    for (let start = 0; start < texts.length; start += this.batchSize) {
      if (this.disposals !== disposalsAtStart) throw closedError();
      // Free while the host is up; starts it on first use (a crash rejects the whole call, below).
      const host = await this.ensureHost(signal);
      const raw = await this.request(host, texts.slice(start, start + this.batchSize), signal);
      for (const vector of raw) vectors.push(l2Normalize(vector));
    }
    return vectors;
  }

  /** Start a host and load the model; resolves once `loaded` arrives. */
  private async startHost(): Promise<EmbedHostProcess> {
    const { modelPath } = this.options;
    await assertGgufFile(modelPath, 'the embedding model');
    const host = EmbedHostProcess.start(this.options.spawnHost);
    this.host = host;
    host.onExit(() => {
      if (this.host === host) {
        this.host = undefined;
        this.info = undefined;
      }
    });
    return new Promise<EmbedHostProcess>((resolve, reject) => {
      const stopListening = host.subscribe((event) => {
        if (event.type === 'loaded') {
          cleanup();
          this.info = event.info;
          resolve(host);
        } else if (event.type === 'load_error') {
          cleanup();
          // The next call must start clean, not reuse a host that failed to load; answer once it is gone.
          const err = new HearthError('model_load_failed', `${event.message}. Check search.embedding_model in config.yaml.`);
          void host.stop().then(() => reject(err));
        }
      });
      const stopWatchingExit = host.onExit((exit) => {
        cleanup();
        reject(new HearthError('model_load_failed', `The embedding host died while loading ${modelPath} (${describeExit(exit)}). The GGUF file is probably malformed or not an embedding-capable model.`, { details: { ...exit } }));
      });
      const cleanup = (): void => {
        stopListening();
        stopWatchingExit();
      };
      host.send({ type: 'load', modelPath, threads: this.threads, gpu: this.options.gpu ?? false, contextSize: this.options.contextSize ?? DEFAULT_CONTEXT_SIZE });
    });
  }

  private async ensureHost(signal?: AbortSignal): Promise<EmbedHostProcess> {
    if (this.host?.alive && this.info) return this.host;
    this.loading ??= this.startHost().finally(() => {
      this.loading = undefined;
    });
    const loading = this.loading;
    if (!signal) return loading;
    // An interrupt stops the wait, not the load: the next call finds the model ready.
    return new Promise<EmbedHostProcess>((resolve, reject) => {
      const onAbort = (): void => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      loading.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** One `embed` request: resolves with the raw vectors, rejects on a host error, crash or abort. */
  private request(host: EmbedHostProcess, texts: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const requestId = randomUUID();
    const dimensions = (this.info as EmbedLoadedInfo).dimensions;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<number[][]>((resolve, reject) => {
      const finish = (result: { vectors: number[][] } | { error: Error }): void => {
        stopListening();
        stopWatchingExit();
        signal?.removeEventListener('abort', onAbort);
        if ('error' in result) reject(result.error);
        else resolve(result.vectors);
      };
      const stopListening = host.subscribe((event) => {
        if (!('requestId' in event) || event.requestId !== requestId) return;
        // A host being closed on purpose fails its current text in whatever way the native side reports a
        // disposed model; the caller asked for nothing wrong, so that is a cancellation.
        if (event.type === 'error') return finish({ error: this.closing.has(host) ? closedError() : hostError(event.code, event.message, signal) });
        if (event.type !== 'embedded') return;
        const wrong = event.vectors.length !== texts.length ? `${event.vectors.length} vectors for ${texts.length} texts` : event.vectors.find((v) => v.length !== dimensions) ? `a vector that is not ${dimensions} long` : undefined;
        if (wrong) return finish({ error: new HearthError('model_bad_response', `The embedding host answered with ${wrong}.`) });
        finish({ vectors: event.vectors });
      });
      const stopWatchingExit = host.onExit((exit) => {
        if (this.closing.has(host)) return finish({ error: closedError() });
        finish({ error: new HearthError('model_host_crashed', `The embedding host stopped unexpectedly (${describeExit(exit)}). It will be restarted on the next call.`, { details: { ...exit } }) });
      });
      // Stop the host working for nobody, and answer the caller now rather than after the current text.
      const onAbort = (): void => {
        host.send({ type: 'abort', requestId });
        finish({ error: abortError(signal) });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      host.send({ type: 'embed', requestId, texts });
    });
  }

  async dispose(): Promise<void> {
    const host = this.host;
    this.host = undefined;
    this.info = undefined;
    this.disposals++;
    if (!host) return;
    this.closing.add(host);
    await host.stop();
  }
}

function closedError(): HearthError {
  return new HearthError('aborted', 'The embedding model was closed before it answered.');
}

/** A host `error` as the engine's typed error, with what the user can do about it. */
function hostError(code: EmbedHostErrorCode, message: string, signal: AbortSignal | undefined): HearthError {
  const details = { hostCode: code };
  switch (code) {
    case 'aborted':
      return abortError(signal);
    case 'not_loaded':
      return new HearthError('model_load_failed', `Embedding model: ${message}`, { details });
    default:
      return new HearthError('model_bad_response', `Embedding model: ${message}`, { details });
  }
}
