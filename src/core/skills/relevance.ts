/**
 * Which skills matter for a request. With hundreds of skills the full catalog does not fit the prompt and
 * models skip skills (Hermes Agent issue #66180), so the prompt carries a bounded catalog and each request
 * gets a hint built from `rankSkills`: BM25F over name, tags, description, the SKILL.md body and the learned
 * "when to use" phrasings (skill-triggers.ts), query words widened by a thesaurus and by shared prefixes, plus a
 * small usage prior. Ranking is lexical and in memory; the only model involved wrote the phrasings, once per
 * version of a skill, not per request.
 */
import type { Skill } from './types.js';
import type { SkillUsage } from './usage.js';
import { analyze, analyzeQuery, type QueryTerm } from './text-analysis.js';

export interface RankedSkill {
  skill: Skill;
  score: number;
}

/** The parts of the ranker beyond plain BM25F over name, tags and description; all on by default. */
export interface RankFeatures {
  /** Widen query words with the thesaurus ("db" ~ "database"). */
  synonyms: boolean;
  /** Index the SKILL.md body (steps, commands, file types) as a low-weight fourth field. */
  body: boolean;
  /** Let a query word meet an indexed word it shares a long prefix with ("installable" ~ "install"). */
  prefixes: boolean;
}

export interface RankOptions {
  usage?: Map<string, SkillUsage>;
  /** Default 5. */
  limit?: number;
  /** Epoch ms for the recency part of the prior; default Date.now(). */
  now?: number;
  /** Same as `features.synonyms` (kept for callers written before `features`). */
  expandSynonyms?: boolean;
  /** Switch ranker parts off, to measure what each adds; all false = plain BM25F. */
  features?: Partial<RankFeatures>;
  /** Weight of the learned-phrasings field instead of TRIGGER_WEIGHT: only for the benchmark's weight sweep. */
  triggerWeight?: number;
}

/**
 * Name words say most about a skill, tags are curated keywords, descriptions are wordy, and the body is long
 * and mostly procedure: it helps when the request uses a tool or file name only the instructions mention, but
 * must not outvote a matching name or description, hence its low weight.
 */
/**
 * Learned phrasings (`Skill.triggers`) are what a model guessed users would type: closer to a request's words
 * than the description, so weighed like tags, above the description but below the name, and barely
 * length-normalised (one skill's longer list is not less relevant). 2 had the best top-5 on the tuning seeds
 * 101…120 (tied with 1 and 2.5, and the best top-1 of the three; bench/skills-retrieval.ts
 * --sweep-trigger-weight, decision 0013), never chosen on the frozen held-out set.
 */
export const TRIGGER_WEIGHT = 2;

const FIELDS = [
  { key: 'name', weight: 3, b: 0.3 },
  { key: 'tags', weight: 2, b: 0.3 },
  { key: 'description', weight: 1, b: 0.75 },
  { key: 'body', weight: 0.5, b: 0.75 },
  { key: 'triggers', weight: TRIGGER_WEIGHT, b: 0.3 },
] as const;
type FieldKey = (typeof FIELDS)[number]['key'];
type Field = (typeof FIELDS)[number];
const K1 = 1.2;
/** Only the head of a long body is indexed: the instructions come first, long reference material adds noise and cost. */
const BODY_CHARS = 8_000;
/** A query word reached through a shared prefix counts this much of a typed one (like a thesaurus synonym). */
const PREFIX_WEIGHT = 0.5;
/** Prefix matches need this many shared characters, and the shorter word must be this share of the longer. */
const PREFIX_MIN_CHARS = 4;
const PREFIX_MIN_SHARE = 0.6;
/**
 * The usage prior multiplies the text score by at most 1 + PRIOR_WEIGHT: it reorders near-ties (a frequently
 * used skill ahead of an equally matching one) but a skill whose text matches clearly better still wins.
 */
const PRIOR_WEIGHT = 0.08;
const RECENCY_HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;

interface IndexedSkill {
  skill: Skill;
  /** Term frequencies per field. */
  tf: Record<FieldKey, Map<string, number>>;
  length: Record<FieldKey, number>;
}

/** Document frequencies and average field lengths over one set of fields. */
interface FieldStats {
  fields: readonly Field[];
  docFreq: Map<string, number>;
  averageLength: Record<FieldKey, number>;
}

/** An inverted view of one skill list; built once per list (cached by identity) since libraries change rarely. */
export class SkillIndex {
  private readonly docs: IndexedSkill[];
  private readonly withBody: FieldStats;
  private readonly withoutBody: FieldStats;
  /** Indexed words by first two letters, for the prefix fallback. */
  private readonly vocabulary = new Map<string, string[]>();
  private readonly prefixCache = new Map<string, string[]>();

  constructor(skills: readonly Skill[]) {
    this.docs = skills.filter((s) => !s.disableModelInvocation).map(indexSkill);
    this.withBody = fieldStats(this.docs, FIELDS);
    this.withoutBody = fieldStats(this.docs, FIELDS.filter((f) => f.key !== 'body'));
    for (const term of this.withBody.docFreq.keys()) {
      const bucket = this.vocabulary.get(term.slice(0, 2)) ?? [];
      bucket.push(term);
      this.vocabulary.set(term.slice(0, 2), bucket);
    }
  }

  rank(query: string, options: RankOptions = {}): RankedSkill[] {
    const features: RankFeatures = {
      synonyms: options.features?.synonyms ?? options.expandSynonyms ?? true,
      body: options.features?.body ?? true,
      prefixes: options.features?.prefixes ?? true,
    };
    const stats = features.body ? this.withBody : this.withoutBody;
    let terms = analyzeQuery(query, { expandSynonyms: features.synonyms });
    if (features.prefixes) terms = this.withPrefixMatches(terms, stats);
    if (terms.length === 0 || this.docs.length === 0) return [];
    const now = options.now ?? Date.now();
    const n = this.docs.length;
    const results: RankedSkill[] = [];
    for (const doc of this.docs) {
      let text = 0;
      for (const { term, weight } of terms) {
        const df = stats.docFreq.get(term);
        if (df === undefined) continue;
        let tf = 0;
        for (const field of stats.fields) {
          const count = doc.tf[field.key].get(term);
          if (count === undefined) continue;
          const weight = field.key === 'triggers' ? (options.triggerWeight ?? field.weight) : field.weight;
          tf += (weight * count) / (1 - field.b + (field.b * doc.length[field.key]) / stats.averageLength[field.key]);
        }
        if (tf === 0) continue;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        text += weight * idf * (tf / (K1 + tf));
      }
      if (text <= 0) continue;
      const prior = usagePrior(options.usage?.get(doc.skill.name), now);
      results.push({ skill: doc.skill, score: text * (1 + PRIOR_WEIGHT * prior) });
    }
    results.sort((a, b) => b.score - a.score || compareNames(a.skill.name, b.skill.name));
    return results.slice(0, options.limit ?? 5);
  }

  /**
   * For a query word no skill contains, adds indexed words that share a long prefix with it: derivations
   * the stemmer leaves apart ("installable"/"install", "dockerfile"/"docker", "configure"/"config"). Only
   * as a fallback: a word the library does contain keeps its exact meaning ("read" must not pull "readme").
   */
  private withPrefixMatches(terms: QueryTerm[], stats: FieldStats): QueryTerm[] {
    const weights = new Map(terms.map(({ term, weight }) => [term, weight]));
    for (const { term, weight } of terms) {
      if (stats.docFreq.has(term)) continue;
      for (const related of this.prefixRelatives(term)) {
        if (!stats.docFreq.has(related)) continue;
        weights.set(related, Math.max(weights.get(related) ?? 0, weight * PREFIX_WEIGHT));
      }
    }
    return [...weights].map(([term, weight]) => ({ term, weight }));
  }

  private prefixRelatives(term: string): string[] {
    const cached = this.prefixCache.get(term);
    if (cached !== undefined) return cached;
    const found: string[] = [];
    if (term.length >= PREFIX_MIN_CHARS) {
      for (const word of this.vocabulary.get(term.slice(0, 2)) ?? []) {
        if (word === term || Math.min(word.length, term.length) < PREFIX_MIN_CHARS) continue;
        const [short, long] = word.length < term.length ? [word, term] : [term, word];
        if (long.startsWith(short) && short.length / long.length >= PREFIX_MIN_SHARE) found.push(word);
      }
    }
    this.prefixCache.set(term, found);
    return found;
  }
}

function fieldStats(docs: readonly IndexedSkill[], fields: readonly Field[]): FieldStats {
  const docFreq = new Map<string, number>();
  const totals: Record<FieldKey, number> = { name: 0, tags: 0, description: 0, body: 0, triggers: 0 };
  // Learned phrasings arrive skill by skill: averaged over all skills, the first few would look many times longer
  // than average and be normalised away. Averaged over the skills that have them, a list is judged among lists.
  let withTriggers = 0;
  for (const doc of docs) {
    const seen = new Set<string>();
    for (const { key } of fields) {
      totals[key] += doc.length[key];
      if (key === 'triggers' && doc.length.triggers > 0) withTriggers += 1;
      for (const term of doc.tf[key].keys()) seen.add(term);
    }
    for (const term of seen) docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
  }
  const n = Math.max(1, docs.length);
  const average = (key: FieldKey): number => totals[key] / (key === 'triggers' ? Math.max(1, withTriggers) : n) || 1;
  return { fields, docFreq, averageLength: { name: average('name'), tags: average('tags'), description: average('description'), body: average('body'), triggers: average('triggers') } };
}

const indexCache = new WeakMap<readonly Skill[], SkillIndex>();

/** The skills most relevant to `query`, best first; skills with no matching word are left out. */
export function rankSkills(skills: readonly Skill[], query: string, options: RankOptions = {}): RankedSkill[] {
  let index = indexCache.get(skills);
  if (index === undefined) {
    index = new SkillIndex(skills);
    indexCache.set(skills, index);
  }
  return index.rank(query, options);
}

/**
 * 0…1: how much a skill has been used (log-scaled counts) and how recently. Pinned skills are not boosted
 * here: pinning is about keeping a skill in the catalog, not about what a request is asking for.
 */
export function usagePrior(usage: SkillUsage | undefined, now: number): number {
  if (usage === undefined) return 0;
  const count = usage.useCount + usage.viewCount + usage.patchCount;
  const frequency = Math.min(1, Math.log1p(count) / Math.log1p(50));
  const last = Math.max(usage.lastUsedAt ?? 0, usage.lastPatchedAt ?? 0, usage.createdAt ?? 0);
  const recency = last === 0 ? 0 : 0.5 ** (Math.max(0, now - last) / DAY_MS / RECENCY_HALF_LIFE_DAYS);
  return 0.5 * frequency + 0.5 * recency;
}

/**
 * The order of the system-prompt catalog: pinned skills, then the most used, then the most recently used,
 * then by name. It depends only on its inputs (never on input order or the clock), so the engine computes it
 * once at session start from a usage snapshot and the prompt stays byte-identical for the whole session.
 */
export function catalogOrder(skills: readonly Skill[], usage: Map<string, SkillUsage> = new Map()): Skill[] {
  const key = (s: Skill): { pinned: number; count: number; last: number } => {
    const u = usage.get(s.name);
    return { pinned: u?.pinned === true ? 1 : 0, count: u === undefined ? 0 : u.useCount + u.viewCount, last: u?.lastUsedAt ?? 0 };
  };
  return skills
    .filter((s) => !s.disableModelInvocation)
    .map((skill) => ({ skill, key: key(skill) }))
    .sort((a, b) => b.key.pinned - a.key.pinned || b.key.count - a.key.count || b.key.last - a.key.last || compareNames(a.skill.name, b.skill.name))
    .map((entry) => entry.skill);
}

/** The first line of the skill hint: the user model's reflection cuts the hint off a stored request there. */
export const SKILL_HINT_HEADER = 'Skills that look relevant to this request (load one with skill_view before you start):';

/** The per-request hint listing relevant skills, or null when nothing matches (no empty block in the prompt). */
export function renderSkillHint(ranked: readonly RankedSkill[]): string | null {
  if (ranked.length === 0) return null;
  const lines = ranked.map(({ skill }) => `- ${skill.name}: ${oneLine(skill.description)}`);
  return [SKILL_HINT_HEADER, ...lines].join('\n');
}

export interface NearDuplicate {
  skill: Skill;
  /** Jaccard similarity of the analysed words of name + description, 0…1. */
  similarity: number;
}

/** Word-set similarity at or above which a new skill is treated as a copy of an existing one. */
export const DUPLICATE_SIMILARITY = 0.6;

/**
 * The existing skill that a proposed one mostly repeats (same words in name and description), if any, so
 * `skill_manage create` can point the agent at patching it instead of growing a second copy.
 */
export function findNearDuplicate(skills: readonly Skill[], candidate: { name: string; description: string }): NearDuplicate | null {
  const words = new Set(analyze(`${candidate.name} ${candidate.description}`));
  if (words.size === 0) return null;
  let best: NearDuplicate | null = null;
  for (const skill of skills) {
    if (skill.name === candidate.name) continue;
    const other = new Set(analyze(`${skill.name} ${skill.description}`));
    let shared = 0;
    for (const word of words) if (other.has(word)) shared += 1;
    const similarity = shared / (words.size + other.size - shared);
    if (similarity >= DUPLICATE_SIMILARITY && (best === null || similarity > best.similarity)) best = { skill, similarity };
  }
  return best;
}

function indexSkill(skill: Skill): IndexedSkill {
  const fields: Record<FieldKey, string[]> = {
    name: analyze(skill.name),
    tags: analyze([...skill.tags, skill.category ?? ''].join(' ')),
    description: analyze(skill.description),
    body: analyze(skill.body.slice(0, BODY_CHARS)),
    triggers: analyze((skill.triggers ?? []).join('\n')),
  };
  const tf = {} as Record<FieldKey, Map<string, number>>;
  const length = {} as Record<FieldKey, number>;
  for (const { key } of FIELDS) {
    tf[key] = new Map<string, number>();
    for (const term of fields[key]) tf[key].set(term, (tf[key].get(term) ?? 0) + 1);
    length[key] = fields[key].length;
  }
  return { skill, tf, length };
}

/** Code-unit order, not locale order: the catalog must not change with the machine's locale. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
