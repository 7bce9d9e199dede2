/**
 * The embedding host: owns one `Llama`, the loaded embedding model and its embedding context, and
 * answers protocol messages. Every incoming message is validated; a bad one gets an `error` reply
 * and the host carries on. Texts are embedded one at a time (node-llama-cpp's embedding context has a
 * single sequence), so an `abort` takes effect before the next text.
 */
import { InsufficientMemoryError, type LlamaEmbeddingContext, type LlamaModel, type Token } from 'node-llama-cpp';
import { describe, LlamaRuntime } from './llama-runtime.js';
import { parseRequest } from './invalid-request.js';
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
  /** Serializes loads so a second `load` never races the first. */
  private loadChain: Promise<void> = Promise.resolve();
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly transport: MessageTransport<EmbedHostEvent, unknown>) {}

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
        this.loadChain = this.loadChain.then(() => this.load(msg));
        return;
      case 'embed':
        void this.embed(msg);
        return;
      case 'abort':
        this.running.get(msg.requestId)?.abort();
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

  private async unload(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (!loaded) return;
    for (const controller of this.running.values()) controller.abort();
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
    const loaded = this.loaded;
    if (!loaded) return fail('not_loaded', 'No embedding model is loaded: send `load` first.');
    if (this.running.has(requestId)) return fail('invalid_message', `Request ${requestId} is already running.`);
    const controller = new AbortController();
    this.running.set(requestId, controller);
    try {
      const vectors: number[][] = [];
      let truncated = 0;
      for (const text of req.texts) {
        if (controller.signal.aborted) return fail('aborted', `Embedding request ${requestId} was aborted.`);
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
      this.running.delete(requestId);
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
