/**
 * Semantic index over stored messages: one vector per message per embedding model, in
 * `message_embeddings`. `indexPending` catches up with new messages in batches; `query` returns the
 * nearest messages by cosine, ready to be fused with bm25 (`SessionSearch`'s `semantic` option).
 *
 * Search is brute force: every stored vector of the model is scored per query, from an in-memory copy
 * (VectorCache). Measured at 768 dimensions (bench/embeddings.ts): ~25 ms per query at 10k messages,
 * ~250 ms at 100k, after a one-time load of the vectors (call `warm()` at start-up so the first query
 * does not pay it). Past ~100k messages, or where ~300 MB of vectors per 100k is too much memory, an ANN
 * index (HNSW) or int8 vectors would be the next step.
 */
import type { Embedder } from '../llm/embedder.js';
import type { Db } from '../store/database.js';
import { VectorCache } from './vector-cache.js';
import { encodeVector } from './vectors.js';

export interface SemanticHit {
  messageId: number;
  /** Cosine similarity, in [-1, 1]. */
  score: number;
}

export interface IndexProgress {
  /** Messages embedded by this call. */
  embedded: number;
  /** Messages still without a vector for this model (a later call picks them up). */
  pending: number;
}

export interface EmbeddingIndexOptions {
  /** Messages per `embed` call (default 32): the unit of progress an abort or a crash can lose. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 32;

/**
 * What is worth embedding: what the user and the assistant said. Tool output (file dumps, command
 * logs) and system prompts would crowd the neighbours of every query; empty assistant turns (pure
 * tool calls) carry no text. (SQLite's one-argument trim() strips only spaces, hence the explicit set.)
 */
const PENDING_WHERE = `
  m.role IN ('user', 'assistant')
  AND NOT EXISTS (SELECT 1 FROM message_embeddings e WHERE e.message_id = m.id AND e.model = @key)
  AND length(trim(m.content, char(32, 9, 10, 13))) > 0`;

export class EmbeddingIndex {
  private readonly batchSize: number;
  /** One `indexPending` at a time, so two callers never embed the same messages twice. */
  private indexing: Promise<unknown> = Promise.resolve();
  /**
   * Messages up to this id are embedded or not worth embedding (ids only grow: AUTOINCREMENT), so a
   * call after a turn looks only at the new messages. 0 until the first call has caught up.
   */
  private cursor = 0;
  private keyPromise: Promise<string> | undefined;
  /** Created on the first query, when the model's dimensions are known. */
  private cache: VectorCache | undefined;

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder,
    options: EmbeddingIndexOptions = {},
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  }

  /**
   * The `model` value of this index's rows: the embedder id plus its dimensions. A different model
   * file put at the same path (another size) thus gets a key of its own instead of mixing with the
   * old vectors; the old rows are removed once, on first use. (A same-size replacement cannot be told
   * apart from the path alone.)
   */
  storageKey(): Promise<string> {
    this.keyPromise ??= this.embedder.dimensions().then((dimensions) => {
      const key = `${this.embedder.id}#${dimensions}`;
      const prefix = `${this.embedder.id}#`;
      // Only `<id>#<digits>`: another model whose path merely starts with ours ("m.gguf#2.gguf") is not ours to remove.
      this.db
        .prepare("DELETE FROM message_embeddings WHERE substr(model, 1, length(@prefix)) = @prefix AND substr(model, length(@prefix) + 1) NOT GLOB '*[^0-9]*' AND model != @key")
        .run({ prefix, key });
      return key;
    });
    // A failed load must not be remembered: the next call tries again (e.g. after the file is fixed).
    this.keyPromise.catch(() => (this.keyPromise = undefined));
    return this.keyPromise;
  }

  /** Vectors stored for this index's model. */
  async count(): Promise<number> {
    const row = this.db.prepare('SELECT count(*) AS n FROM message_embeddings WHERE model = ?').get(await this.storageKey()) as { n: number };
    return row.n;
  }

  /** Messages that still need a vector from this model (a full scan: for status displays, not per turn). */
  async pendingCount(): Promise<number> {
    const row = this.db.prepare(`SELECT count(*) AS n FROM messages m WHERE ${PENDING_WHERE}`).get({ key: await this.storageKey() }) as { n: number };
    return row.n;
  }

  /**
   * Embed up to `limit` messages that have no vector for this model yet, oldest first, committing
   * each batch as it completes (an abort or a crash loses at most the batch in flight).
   */
  indexPending(limit = Number.POSITIVE_INFINITY, signal?: AbortSignal): Promise<IndexProgress> {
    const run = this.indexing.then(() => this.indexPendingNow(limit, signal));
    // The chain only orders calls; each caller gets its own outcome from `run`.
    this.indexing = run.catch(() => undefined);
    return run;
  }

  private async indexPendingNow(limit: number, signal: AbortSignal | undefined): Promise<IndexProgress> {
    const key = await this.storageKey();
    const selectBatch = this.db.prepare(`SELECT m.id, m.content FROM messages m WHERE m.id > @after AND ${PENDING_WHERE} ORDER BY m.id LIMIT @limit`);
    // The message may have been deleted while its batch was being embedded: store nothing for it then.
    const insert = this.db.prepare('INSERT OR IGNORE INTO message_embeddings (message_id, model, vector) SELECT @id, @key, @vector WHERE EXISTS (SELECT 1 FROM messages WHERE id = @id)');
    const store = this.db.transaction((rows: { id: number; vector: Float32Array }[]) => {
      for (const row of rows) insert.run({ id: row.id, key, vector: encodeVector(row.vector) });
    });

    let embedded = 0;
    while (embedded < limit) {
      const batch = selectBatch.all({ after: this.cursor, key, limit: Math.min(this.batchSize, limit - embedded) }) as { id: number; content: string }[];
      const last = batch[batch.length - 1];
      if (last === undefined) break;
      const vectors = await this.embedder.embed(
        batch.map((row) => row.content),
        signal,
      );
      store(batch.map((row, i) => ({ id: row.id, vector: vectors[i] as Float32Array })));
      embedded += batch.length;
      this.cursor = last.id;
    }
    const pending = this.db.prepare(`SELECT count(*) AS n FROM messages m WHERE m.id > @after AND ${PENDING_WHERE}`).get({ after: this.cursor, key }) as { n: number };
    return { embedded, pending: pending.n };
  }

  /** Load the stored vectors into memory now (start-up, idle), so the first query does not wait for it. */
  async warm(): Promise<void> {
    const key = await this.storageKey();
    this.cache ??= new VectorCache(this.db, key, await this.embedder.dimensions());
    this.cache.sync();
  }

  /** The `k` stored messages nearest to `text` by cosine similarity, best first. */
  async query(text: string, k: number, signal?: AbortSignal): Promise<SemanticHit[]> {
    if (k <= 0 || text.trim() === '') return [];
    const key = await this.storageKey();
    const [queryVector] = await this.embedder.embed([text], signal);
    if (queryVector === undefined || queryVector.every((x) => x === 0)) return [];
    this.cache ??= new VectorCache(this.db, key, queryVector.length);
    return this.cache.nearest(queryVector, k);
  }
}
