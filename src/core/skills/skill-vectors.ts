/**
 * What a skill's embedding is computed from, and where the vectors are kept. A vector is keyed by the
 * model (`<embedder id>#<dimensions>`, as `message_embeddings.model`) and the sha256 of exactly the text
 * that was embedded, so an edit to a skill's name, description or tags gives it a new key (its old vector
 * is simply never looked up again and is pruned), and an unchanged skill is never embedded twice — not
 * across restarts, and not when two skill folders carry the same text.
 */
import { createHash } from 'node:crypto';
import { decodeVector, encodeVector } from '../search/vectors.js';
import type { Db } from '../store/database.js';
import type { Skill } from './types.js';

/**
 * Some embedding models are trained with a task prefix on each side and retrieve noticeably worse without
 * it (their model cards say so). Recognised from the model file's name; any other model gets the bare text.
 */
export interface EmbeddingPrompts {
  query: string;
  document: string;
}

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';
const KNOWN_PROMPTS: { pattern: RegExp; prompts: EmbeddingPrompts }[] = [
  { pattern: /nomic-embed-text/i, prompts: { query: 'search_query: ', document: 'search_document: ' } },
  { pattern: /(^|[^a-z])(multilingual-)?e5-(small|base|large)/i, prompts: { query: 'query: ', document: 'passage: ' } },
  { pattern: /bge-(small|base|large)-en|mxbai-embed-large/i, prompts: { query: BGE_QUERY, document: '' } },
];

export function embeddingPrompts(embedderId: string): EmbeddingPrompts {
  const file = embedderId.split(/[\\/]/).pop() ?? embedderId;
  return KNOWN_PROMPTS.find(({ pattern }) => pattern.test(file))?.prompts ?? { query: '', document: '' };
}

/**
 * Name, description and tags: the description is the author's answer to "what does it do and when should
 * it be used" (Agent Skills spec), which is what a request should be compared with. The body is left out:
 * it is procedure (commands, steps) that dilutes a pooled sentence vector, it would be cut at the model's
 * context anyway, and the lexical ranker already indexes it.
 */
export function skillEmbeddingText(skill: Skill, prompts: EmbeddingPrompts = { query: '', document: '' }): string {
  const keywords = [...skill.tags, ...(skill.category === null ? [] : [skill.category])];
  const tags = keywords.length === 0 ? '' : `\nTags: ${keywords.join(', ')}`;
  return `${prompts.document}${skill.name.replace(/[-_]+/g, ' ')}: ${skill.description.replace(/\s+/g, ' ').trim()}${tags}`;
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Persisted skill vectors of one or more models. */
export interface SkillVectorStore {
  /** Whether vectors survive a restart (false: the in-memory store). */
  readonly persistent: boolean;
  /** The stored vectors among `hashes` for `model`. */
  get(model: string, hashes: readonly string[]): Map<string, Float32Array>;
  put(model: string, rows: readonly { hash: string; vector: Float32Array }[]): void;
  /** Forget this model's vectors whose hash is not in `keep`, and the model's rows stored under another size. */
  prune(model: string, keep: ReadonlySet<string>): number;
}

export class SqliteSkillVectors implements SkillVectorStore {
  readonly persistent = true;

  /** The table comes with store migration 3. */
  constructor(private readonly db: Db) {}

  get(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    const select = this.db.prepare<[string, string], { vector: Uint8Array }>('SELECT vector FROM skill_embeddings WHERE model = ? AND content_hash = ?');
    const found = new Map<string, Float32Array>();
    for (const hash of hashes) {
      const row = select.get(model, hash);
      const vector = row === undefined ? undefined : decodeVector(row.vector);
      // A blob that is not whole float32s is treated as missing: it is embedded again and overwritten.
      if (vector !== undefined) found.set(hash, vector);
    }
    return found;
  }

  put(model: string, rows: readonly { hash: string; vector: Float32Array }[]): void {
    const insert = this.db.prepare('INSERT OR REPLACE INTO skill_embeddings (model, content_hash, vector) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const { hash, vector } of rows) insert.run(model, hash, encodeVector(vector));
    })();
  }

  prune(model: string, keep: ReadonlySet<string>): number {
    return this.db.transaction(() => {
      const stored = this.db.prepare<[string], { content_hash: string }>('SELECT content_hash FROM skill_embeddings WHERE model = ?').all(model);
      const remove = this.db.prepare('DELETE FROM skill_embeddings WHERE model = ? AND content_hash = ?');
      let removed = 0;
      for (const { content_hash: hash } of stored) if (!keep.has(hash)) removed += remove.run(model, hash).changes;
      // Same embedder id, another size: a different model file now sits at that path (as EmbeddingIndex does).
      // Only `<id>#<digits>`, so a model whose path merely starts with ours is left alone.
      const prefix = model.slice(0, model.lastIndexOf('#') + 1);
      removed += this.db
        .prepare("DELETE FROM skill_embeddings WHERE substr(model, 1, length(@prefix)) = @prefix AND substr(model, length(@prefix) + 1) NOT GLOB '*[^0-9]*' AND model != @model")
        .run({ prefix, model }).changes;
      return removed;
    })();
  }
}

/** Vectors for one process only: for measurements, and for a database that cannot store them yet. */
export class MemorySkillVectors implements SkillVectorStore {
  readonly persistent = false;
  private readonly byModel = new Map<string, Map<string, Float32Array>>();

  get(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    const stored = this.byModel.get(model);
    const found = new Map<string, Float32Array>();
    for (const hash of hashes) {
      const vector = stored?.get(hash);
      if (vector !== undefined) found.set(hash, vector);
    }
    return found;
  }

  put(model: string, rows: readonly { hash: string; vector: Float32Array }[]): void {
    const stored = this.byModel.get(model) ?? new Map<string, Float32Array>();
    for (const { hash, vector } of rows) stored.set(hash, vector);
    this.byModel.set(model, stored);
  }

  prune(model: string, keep: ReadonlySet<string>): number {
    const stored = this.byModel.get(model);
    let removed = 0;
    for (const hash of stored?.keys() ?? []) {
      if (keep.has(hash)) continue;
      stored?.delete(hash);
      removed += 1;
    }
    return removed;
  }
}
