/**
 * The embedding host: owns one `Llama`, the loaded embedding model and its embedding context, and
 * answers protocol messages. Every incoming message is validated; a bad one gets an `error` reply
 * and the host carries on. Texts are embedded one at a time (node-llama-cpp's embedding context has a
 * single sequence), so an `abort` takes effect before the next text.
 */
import { InsufficientMemoryError, type LlamaEmbeddingContext, type LlamaModel, type Token } from 'node-llama-cpp';
import { describe, LlamaRuntime } from './llama-runtime.js';
import { parseRequest } from './invalid-request.js';
import { InFlight, LifecycleLock } from './lifecycle-lock.js';
import { embedHostRequestSchema, type EmbedHostErrorCode, type EmbedHostEvent, type EmbedLoadedInfo, type EmbedLoadRequest, type EmbedRequest } from '../shared/embed-host-protocol.js';
import type { MessageTransport } from '../shared/model-host-protocol.js';

interface Loaded {
  modelPath: string;
  model: LlamaModel;
  context: LlamaEmbeddingContext;
  info: EmbedLoadedInfo;
}

export class EmbedHost {
  private readonly runtime = new LlamaRuntime();
  private loaded: Loaded | undefined;
  /** Load and shutdown run one at a time; an `embed` waits for the steps that arrived before it (see model-host.ts). */
  private readonly lifecycle = new LifecycleLock((err) => {
    this.send({ type: 'error', code: 'embed_failed', message: `Embedding host lifecycle step failed: ${describe(err)}` });
  });
  private readonly requests = new InFlight();
  private closing = false;
  private shutdownDone: Promise<void> | undefined;

  constructor(
    private readonly transport: MessageTransport<EmbedHostEvent, unknown>,
    private readonly options: { exit?: (code: number) => void } = {},
  ) {}

  private send(event: EmbedHostEvent): void {
    this.transport.postMessage(event);
  }

  /** Entry point for every message from the engine. Never throws. */
  handle(raw: unknown): void {
    const parsed = parseRequest(embedHostRequestSchema, raw, 'embedding host');
    if (!parsed.ok) {
      this.send(parsed.error);
      return;
    }
    const msg = parsed.request;
    switch (msg.type) {
      case 'load':
        if (this.closing) return this.send({ type: 'load_error', message: 'The embedding host is shutting down.' });
        void this.lifecycle.run(() => this.load(msg));
        return;
      case 'embed':
        void this.embed(msg);
        return;
      case 'abort':
        this.requests.abort(msg.requestId);
        return;
      case 'shutdown':
        void this.shutdown();
        return;
    }
  }

  private async load(req: EmbedLoadRequest): Promise<void> {
    this.runtime.startLoad();
    try {
      if (this.loaded?.modelPath === req.modelPath) {
        this.send({ type: 'loaded', info: this.loaded.info });
        return;
      }
      await this.unload();
      const llama = await this.runtime.get(req.gpu, req.threads);
      let model: LlamaModel;
      try {
        model = await llama.loadModel({ modelPath: req.modelPath, gpuLayers: req.gpu === false ? 0 : 'auto' });
      } catch (err) {
        if (!(err instanceof InsufficientMemoryError) || llama.gpu === false) throw err;
        // Embedding models are small: CPU is a fine place for one that does not fit next to the chat model.
        model = await llama.loadModel({ modelPath: req.modelPath, gpuLayers: 0 });
      }
      const contextSize = Math.min(req.contextSize, model.trainContextSize);
      // batchSize = contextSize: non-causal (BERT-style) embedding models need the whole input in one batch.
      const context = await model.createEmbeddingContext({ contextSize, batchSize: contextSize, threads: req.threads });
      const info: EmbedLoadedInfo = {
        dimensions: model.embeddingVectorSize,
        contextSize,
        gpu: model.gpuLayers > 0 ? llama.gpu : false,
        threads: req.threads,
      };
      this.loaded = { modelPath: req.modelPath, model, context, info };
      this.send({ type: 'loaded', info });
    } catch (err) {
      this.send({ type: 'load_error', message: `Could not load the embedding model ${req.modelPath}: ${await this.runtime.describeLoadFailure(err)}` });
    }
  }

  /** Stop the embeddings in progress and wait for them before disposing; only under the lifecycle lock. */
  private async unload(): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    await this.requests.stopStarted();
    this.loaded = undefined;
    await loaded.context.dispose();
    await loaded.model.dispose();
  }

  /**
   * The tokens to embed for `text`, cut to leave room for the BOS/EOS tokens node-llama-cpp adds.
   * Plain tokenization (no special tokens), so a message quoting `<|im_start|>` embeds as text.
   */
  private tokensFor(loaded: Loaded, text: string): { tokens: Token[]; truncated: boolean } {
    const all = loaded.model.tokenize(text);
    const room = loaded.info.contextSize - 2;
    return all.length > room ? { tokens: all.slice(0, room), truncated: true } : { tokens: all, truncated: false };
  }

  private async embed(req: EmbedRequest): Promise<void> {
    const { requestId } = req;
    const fail = (code: EmbedHostErrorCode, message: string): void => this.send({ type: 'error', requestId, code, message });
    if (this.closing) return fail('not_loaded', 'The embedding host is shutting down.');
    if (this.requests.has(requestId)) return fail('invalid_message', `Request ${requestId} is already running.`);
    const { request, finish } = this.requests.add(requestId);
    try {
      await this.lifecycle.idle;
      request.started = true;
      const loaded = this.loaded;
      if (this.closing) return fail('not_loaded', 'The embedding host is shutting down.');
      if (!loaded) return fail('not_loaded', 'No embedding model is loaded: send `load` first.');
      const vectors: number[][] = [];
      let truncated = 0;
      for (const text of req.texts) {
        if (request.unloading) return fail('not_loaded', 'The embedding model was unloaded while this request was running.');
        if (request.controller.signal.aborted) return fail('aborted', `Embedding request ${requestId} was aborted.`);
        const input = this.tokensFor(loaded, text);
        if (input.truncated) truncated++;
        // An empty text has no tokens to evaluate; all zeros matches nothing (cosine 0 with any vector).
        if (input.tokens.length === 0) {
          vectors.push(new Array<number>(loaded.info.dimensions).fill(0));
          continue;
        }
        const embedding = await loaded.context.getEmbeddingFor(input.tokens);
        vectors.push([...embedding.vector]);
      }
      this.send({ type: 'embedded', requestId, vectors, truncated });
    } catch (err) {
      fail('embed_failed', `Embedding failed: ${describe(err)}`);
    } finally {
      finish();
    }
  }

  /** Dispose everything, after a load in progress and the embeddings running now, then exit. Idempotent. */
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
