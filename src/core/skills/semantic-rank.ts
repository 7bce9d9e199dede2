/**
 * Semantic skill ranking, used when an embedding model is configured (`search.embedding_model`). The
 * lexical ranker cannot know that "mariadb" is about MySQL or that "the site says not secure" is about
 * TLS; an embedding model can. Each skill is embedded once per content version (skill-vectors.ts), in the
 * background, and each request costs one embedding call; the two rankings are then fused.
 *
 * Fusion is reciprocal rank fusion (rank-fusion.ts), not a weighted sum of scores: bm25 is unbounded and
 * query-dependent, and cosine ranges differ by model (bge packs everything into 0.6–0.9, nomic spreads
 * wider), so a weight would need tuning per model against labelled requests, and the only labelled
 * requests here are the benchmark's, which the weight must not be fitted to. RRF needs only ranks, and it
 * is what session search already uses. Two choices make it work for skills:
 * - The semantic list is short (SEMANTIC_DEPTH). Cosine ranks every skill, so a full-library list would
 *   give every lexical hit a second vote and a skill found only semantically (the very case this exists
 *   for) could never climb above them.
 * - A skill enters the semantic list only when its cosine stands out from the library's (a robust z-score
 *   floor), so a message with nothing to do with any skill ("thanks!") still gets no hint.
 * Skills found only lexically keep their lexical rank's share, so fusion never loses a keyword hit.
 */
import { abortError, errorMessage } from '../errors.js';
import type { Embedder } from '../llm/embedder.js';
import { reciprocalRankFusion } from '../search/rank-fusion.js';
import { dot } from '../search/vectors.js';
import { rankSkills, type RankedSkill, type RankOptions } from './relevance.js';
import { contentHash, embeddingPrompts, skillEmbeddingText, type EmbeddingPrompts, type SkillVectorStore } from './skill-vectors.js';
import type { Skill } from './types.js';

/** Lexical hits fed to fusion: deeper than any caller shows, so fusion can promote from below the cut. */
const LEXICAL_DEPTH = 50;
/** Semantic hits fed to fusion; see the module comment for why this is short. */
export const SEMANTIC_DEPTH = 10;
/**
 * A skill must sit this many standard deviations above the library's typical cosine to count as a semantic
 * hit. Among 200 unrelated skills the best lands near 2.7 σ by chance, so 3 σ lets through what really
 * stands out and little else. Centre and spread are the median and the median absolute deviation, not
 * mean and standard deviation: the standouts themselves (one in a small library, a cluster of thirty git
 * skills in a large one) would otherwise inflate the spread and hide each other.
 */
const MIN_Z = 3;
/** MAD × this estimates the standard deviation of normally distributed scores. */
const MAD_TO_SD = 1.4826;
/** Mean absolute deviation × this estimates it too; the fallback when over half the scores are equal. */
const MEAN_AD_TO_SD = 1.2533;
const DEFAULT_BATCH_SIZE = 32;
/** After the model failed, wait this long before trying it again (a bad file fails every time, and costs a process start). */
const DEFAULT_RETRY_AFTER_MS = 5 * 60_000;

export interface SemanticSkillRankerOptions {
  embedder: Embedder;
  vectors: SkillVectorStore;
  /** Told once, the first time the semantic path fails; ranking then stays lexical. */
  warn(message: string): void;
  /** Skill texts per embed call (default 32). */
  batchSize?: number;
  retryAfterMs?: number;
  now?: () => number;
}

export interface SkillSimilarity {
  skill: Skill;
  /** Cosine similarity with the request, in [-1, 1]. */
  cosine: number;
}

type State = { kind: 'starting' } | { kind: 'ready'; model: string } | { kind: 'failed'; at: number };

/** Skill vectors of the current library, kept up to date in the background, and the request side of the comparison. */
export class SemanticSkillRanker {
  private state: State = { kind: 'starting' };
  /** Content hash → unit vector, for the skills of the latest library and the current model. */
  private readonly known = new Map<string, Float32Array>();
  private readonly hashes = new WeakMap<Skill, string>();
  private readonly prompts: EmbeddingPrompts;
  private latest: readonly Skill[] = [];
  /** Refreshes run one at a time, in order; a refresh for a library that was replaced meanwhile is skipped. */
  private queue: Promise<void> = Promise.resolve();
  private readonly closing = new AbortController();
  private warned = false;

  constructor(private readonly options: SemanticSkillRankerOptions) {
    this.prompts = embeddingPrompts(options.embedder.id);
  }

  /** Whether requests are being ranked semantically now (false while the model loads, and after a failure). */
  get ready(): boolean {
    return this.state.kind === 'ready';
  }

  /**
   * Embed the skills of `skills` that have no stored vector for this model, and forget vectors of skills
   * that are gone or changed. Meant to run in the background (engine start, after a library change):
   * it never rejects; a failure warns once and leaves ranking lexical.
   */
  refresh(skills: readonly Skill[]): Promise<void> {
    this.latest = skills;
    const run = this.queue.then(() => (this.latest === skills ? this.index(skills) : undefined));
    this.queue = run;
    return run;
  }

  /** Cosine of the request with every skill that has a vector; null when the semantic path cannot answer now. */
  async similarities(skills: readonly Skill[], request: string, signal?: AbortSignal): Promise<SkillSimilarity[] | null> {
    if (this.state.kind === 'failed') {
      if (this.now() - this.state.at >= (this.options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS)) void this.refresh(this.latest);
      return null;
    }
    if (this.state.kind !== 'ready' || request.trim() === '') return null;
    const withVectors = skills.flatMap((skill) => {
      const vector = skill.disableModelInvocation ? undefined : this.known.get(this.hashOf(skill));
      return vector === undefined ? [] : [{ skill, vector }];
    });
    if (withVectors.length === 0) return null;
    let query: Float32Array | undefined;
    try {
      [query] = await this.options.embedder.embed([`${this.prompts.query}${request}`], signal);
    } catch (err) {
      if (signal?.aborted === true || this.closing.signal.aborted) throw err;
      this.fail(err);
      return null;
    }
    if (query === undefined) return null;
    const q = query;
    return withVectors.map(({ skill, vector }) => ({ skill, cosine: vector.length === q.length ? dot(q, vector) : 0 }));
  }

  /** Stop background embedding (engine shutdown); resolves when the refresh in flight has stopped. */
  async close(): Promise<void> {
    this.closing.abort(new Error('the engine is closing'));
    await this.queue;
  }

  private async index(skills: readonly Skill[]): Promise<void> {
    const { embedder, vectors } = this.options;
    try {
      const model = `${embedder.id}#${await this.whileOpen(embedder.dimensions())}`;
      if (this.state.kind !== 'ready' || this.state.model !== model) this.known.clear();
      const offered = skills.filter((skill) => !skill.disableModelInvocation);
      const texts = new Map<string, string>();
      for (const skill of offered) {
        const text = skillEmbeddingText(skill, this.prompts);
        const hash = contentHash(text);
        this.hashes.set(skill, hash);
        texts.set(hash, text);
      }
      const keep = new Set(texts.keys());
      for (const hash of [...this.known.keys()]) if (!keep.has(hash)) this.known.delete(hash);
      const wanted = [...keep].filter((hash) => !this.known.has(hash));
      for (const [hash, vector] of vectors.get(model, wanted)) this.known.set(hash, vector);
      // Skills with vectors are ranked semantically from here on; the rest join as their batches complete.
      this.state = { kind: 'ready', model };
      const missing = [...keep].filter((hash) => !this.known.has(hash));
      const batchSize = Math.max(1, this.options.batchSize ?? DEFAULT_BATCH_SIZE);
      for (let start = 0; start < missing.length; start += batchSize) {
        const batch = missing.slice(start, start + batchSize);
        const embedded = await embedder.embed(
          batch.map((hash) => texts.get(hash) as string),
          this.closing.signal,
        );
        const rows = batch.map((hash, i) => ({ hash, vector: embedded[i] as Float32Array }));
        vectors.put(model, rows);
        for (const { hash, vector } of rows) this.known.set(hash, vector);
      }
      vectors.prune(model, keep);
    } catch (err) {
      // Shutting down cancels the refresh on purpose (and may kill the host under it): nothing to tell anyone.
      if (this.closing.signal.aborted) return;
      this.fail(err);
    }
  }

  /** `promise`, or an abort error as soon as the ranker closes: shutdown must not wait for a model load. */
  private whileOpen<T>(promise: Promise<T>): Promise<T> {
    const signal = this.closing.signal;
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      // Settling after the abort is a no-op: the abandoned load cannot surface as an unhandled rejection.
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private fail(err: unknown): void {
    this.state = { kind: 'failed', at: this.now() };
    if (!this.warned) this.options.warn(`Semantic skill ranking is off for now, keyword ranking still works: ${errorMessage(err)}`);
    this.warned = true;
  }

  private hashOf(skill: Skill): string {
    let hash = this.hashes.get(skill);
    if (hash === undefined) {
      hash = contentHash(skillEmbeddingText(skill, this.prompts));
      this.hashes.set(skill, hash);
    }
    return hash;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

/**
 * The skills whose similarity stands out from the rest (module comment), best first, at most `depth`.
 * Empty when nothing stands out, e.g. a message that is about none of the skills.
 */
export function semanticHits(similarities: readonly SkillSimilarity[], depth = SEMANTIC_DEPTH): SkillSimilarity[] {
  if (similarities.length < 2) return [];
  const centre = median(similarities.map((s) => s.cosine));
  const deviations = similarities.map((s) => Math.abs(s.cosine - centre));
  const spread = MAD_TO_SD * median(deviations) || (MEAN_AD_TO_SD * deviations.reduce((sum, d) => sum + d, 0)) / deviations.length;
  if (!(spread > 0)) return [];
  const floor = centre + MIN_Z * spread;
  return similarities
    .filter((s) => s.cosine >= floor)
    .sort((a, b) => b.cosine - a.cosine || (a.skill.name < b.skill.name ? -1 : 1))
    .slice(0, depth);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Reciprocal rank fusion of the lexical ranking and the semantic hits, best first; `score` is the fused
 * score. Equal scores keep the lexical order first, so with no semantic hits the lexical ranking is returned as is.
 */
export function fuseSkillRankings(lexical: readonly RankedSkill[], semantic: readonly SkillSimilarity[], limit: number): RankedSkill[] {
  const skills: Skill[] = [];
  const ids = new Map<string, number>();
  const idOf = (skill: Skill): number => {
    let id = ids.get(skill.name);
    if (id === undefined) {
      id = skills.push(skill) - 1;
      ids.set(skill.name, id);
    }
    return id;
  };
  const lists = [lexical.map((r) => idOf(r.skill)), semantic.map((s) => idOf(s.skill))];
  return reciprocalRankFusion(lists)
    .slice(0, limit)
    .map(({ id, score }) => ({ skill: skills[id] as Skill, score }));
}

export interface FusedRankOptions extends RankOptions {
  signal?: AbortSignal;
}

/**
 * The shipped ranking: lexical (relevance.ts) fused with semantic hits when `semantic` is given and ready,
 * the lexical ranking alone otherwise. Never waits for skill vectors: only for the one request embedding.
 */
export async function rankSkillsFused(skills: readonly Skill[], request: string, semantic: SemanticSkillRanker | undefined, options: FusedRankOptions = {}): Promise<RankedSkill[]> {
  const limit = options.limit ?? 5;
  const lexical = rankSkills(skills, request, { ...options, limit: Math.max(limit, LEXICAL_DEPTH) });
  const similarities = semantic === undefined ? null : await semantic.similarities(skills, request, options.signal);
  if (similarities === null) return lexical.slice(0, limit);
  return fuseSkillRankings(lexical, semanticHits(similarities), limit);
}
