import { catalogSkills, renderSkillCatalog } from './catalog.js';
import { loadSkillLibrary } from './library.js';
import { catalogOrder, rankSkills, renderSkillHint, type RankedSkill } from './relevance.js';
import { rankSkillsFused, type SemanticSkillRanker } from './semantic-rank.js';
import type { SkillTriggerLearner, TriggerRefresh } from './skill-triggers.js';
import type { Skill, SkillLibrary, SkillRoot } from './types.js';
import type { SkillUsageStore } from './usage.js';

/** A hint lists at most this many skills: enough to catch the right one, few enough to read. */
const HINT_SIZE = 3;

/**
 * The skill library one engine works with: scanned once, rescanned after the agent or the user changes
 * skills, and the two views the prompt needs — a bounded, stable catalog for the system prompt and a
 * per-request hint of the most relevant skills (so a large library neither bloats every call nor gets
 * skipped; Hermes Agent issue #66180). With an embedding model (`semantic`), every rescan re-embeds the
 * changed skills in the background, and `rank`/`relevantHint` fuse keyword and semantic rankings. With a
 * trigger learner (a chat model is configured), every rescan also asks the model, in the background, for "when
 * to use" phrasings of each new or changed skill; once they are stored the skills are ranked with them.
 */
export class SkillService {
  private cached: { library: SkillLibrary; offered: Skill[]; vectorsReady: Promise<void>; triggersReady: Promise<TriggerRefresh> } | null = null;

  constructor(
    private readonly options: {
      roots: readonly SkillRoot[];
      usage: SkillUsageStore;
      /** Skills listed in the system prompt (config `skills.catalog_size`). */
      catalogSize: number;
      /** Semantic ranking (only when an embedding model is configured). */
      semantic?: SemanticSkillRanker;
      /** Learned "when to use" phrasings (only when a chat model is configured and `skills.learn_triggers` is on). */
      triggers?: SkillTriggerLearner;
    },
  ) {}

  get usage(): SkillUsageStore {
    return this.options.usage;
  }

  library(): SkillLibrary {
    return this.load().library;
  }

  /** Forget the scan: the next `library()` reads the disk again (after skill_manage, install, curator). */
  reload(): void {
    this.cached = null;
    // With a trigger learner the disk is read again now: a created or improved skill gets its phrasings in the
    // background at once, not only when the next request happens to rank skills.
    if (this.options.triggers !== undefined) this.load();
  }

  find(name: string): Skill | undefined {
    return this.library().skills.find((skill) => skill.name === name);
  }

  /** The `<available_skills>` block: the `catalogSize` skills that are pinned or used most. */
  catalog(): string {
    const { offered } = this.load();
    return renderSkillCatalog(catalogOrder(offered, this.options.usage.byName()), { limit: this.options.catalogSize });
  }

  /** Relevant skills for one request by keywords alone (synchronous), or null when no skill matches any of its words. */
  hint(requestText: string): string | null {
    const { offered } = this.load();
    if (offered.length === 0) return null;
    return renderSkillHint(rankSkills(offered, requestText, { usage: this.options.usage.byName(), limit: HINT_SIZE }));
  }

  /**
   * The hint with the fused ranking when semantic ranking is ready (one embedding call for the request),
   * the keyword hint otherwise; null when nothing is relevant.
   */
  async relevantHint(requestText: string, signal?: AbortSignal): Promise<string | null> {
    const { offered } = this.load();
    if (offered.length === 0) return null;
    return renderSkillHint(await this.rankAmong(offered, requestText, HINT_SIZE, signal));
  }

  /** Skills of the whole library (as `skills_search` sees them) ranked for `query`, best first, fused when possible. */
  rank(query: string, limit: number, signal?: AbortSignal): Promise<RankedSkill[]> {
    return this.rankAmong(this.library().skills, query, limit, signal);
  }

  /** Resolves once the library's skill vectors are stored (or the semantic path has failed); at once without a model. */
  semanticReady(): Promise<void> {
    return this.load().vectorsReady;
  }

  /**
   * Resolves once every skill of the current scan has phrasings or a kept failure, with what was learned and
   * what failed; at once (nothing learned) without a trigger learner.
   */
  triggersReady(): Promise<TriggerRefresh> {
    return this.load().triggersReady;
  }

  private rankAmong(skills: readonly Skill[], query: string, limit: number, signal: AbortSignal | undefined): Promise<RankedSkill[]> {
    return rankSkillsFused(skills, query, this.options.semantic, { usage: this.options.usage.byName(), limit, ...(signal === undefined ? {} : { signal }) });
  }

  /**
   * The same `offered` array until a reload or until new phrasings land, so relevance ranking reuses its index
   * (cached by identity).
   */
  private load(): { library: SkillLibrary; offered: Skill[]; vectorsReady: Promise<void>; triggersReady: Promise<TriggerRefresh> } {
    if (this.cached === null) {
      const library = loadSkillLibrary([...this.options.roots]);
      const learner = this.options.triggers;
      if (learner !== undefined) attachTriggers(library.skills, learner);
      // Every skill the model may be offered, including those unavailable here: skills_search lists them too.
      const vectorsReady = this.options.semantic?.refresh(library.skills) ?? Promise.resolve();
      const triggersReady = learner === undefined ? Promise.resolve({ learned: [], failed: [] }) : this.learnTriggers(learner, library);
      this.cached = { library, offered: catalogSkills(library.skills), vectorsReady, triggersReady };
    }
    return this.cached;
  }

  /** Background: phrasings for new or changed skills; when some land, the scan is re-indexed with them. */
  private async learnTriggers(learner: SkillTriggerLearner, library: SkillLibrary): Promise<TriggerRefresh> {
    const report = await learner.refresh(library.skills);
    const current = this.cached;
    // Attached again whatever this refresh learned: an earlier refresh may have stored phrasings for this scan's
    // skills after it was loaded (it was superseded, so its own report did not reach this scan).
    if (current !== null && current.library === library && attachTriggers(library.skills, learner)) {
      // New arrays: the ranker's index is cached by array identity and must be rebuilt with the phrasings.
      const relisted = { ...library, skills: [...library.skills] };
      this.cached = { ...current, library: relisted, offered: catalogSkills(relisted.skills) };
    }
    return report;
  }
}

/** Sets each skill's stored phrasings; true when any changed. */
function attachTriggers(skills: readonly Skill[], learner: SkillTriggerLearner): boolean {
  let changed = false;
  for (const skill of skills) {
    const triggers = learner.triggersFor(skill);
    const before = skill.triggers ?? [];
    if (triggers.length !== before.length || triggers.some((t, i) => t !== before[i])) changed = true;
    if (triggers.length > 0) skill.triggers = triggers;
    else delete skill.triggers;
  }
  return changed;
}
