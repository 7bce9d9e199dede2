import { catalogSkills, renderSkillCatalog } from './catalog.js';
import { loadSkillLibrary } from './library.js';
import { catalogOrder, rankSkills, renderSkillHint } from './relevance.js';
import type { Skill, SkillLibrary, SkillRoot } from './types.js';
import type { SkillUsageStore } from './usage.js';

/** A hint lists at most this many skills: enough to catch the right one, few enough to read. */
const HINT_SIZE = 3;

/**
 * The skill library one engine works with: scanned once, rescanned after the agent or the user changes
 * skills, and the two views the prompt needs — a bounded, stable catalog for the system prompt and a
 * per-request hint of the most relevant skills (so a large library neither bloats every call nor gets
 * skipped; Hermes Agent issue #66180).
 */
export class SkillService {
  private cached: { library: SkillLibrary; offered: Skill[] } | null = null;

  constructor(
    private readonly options: {
      roots: readonly SkillRoot[];
      usage: SkillUsageStore;
      /** Skills listed in the system prompt (config `skills.catalog_size`). */
      catalogSize: number;
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
  }

  find(name: string): Skill | undefined {
    return this.library().skills.find((skill) => skill.name === name);
  }

  /** The `<available_skills>` block: the `catalogSize` skills that are pinned or used most. */
  catalog(): string {
    const { offered } = this.load();
    return renderSkillCatalog(catalogOrder(offered, this.options.usage.byName()), { limit: this.options.catalogSize });
  }

  /** Relevant skills for one request, or null when no skill matches any of its words. */
  hint(requestText: string): string | null {
    const { offered } = this.load();
    if (offered.length === 0) return null;
    return renderSkillHint(rankSkills(offered, requestText, { usage: this.options.usage.byName(), limit: HINT_SIZE }));
  }

  /** The same `offered` array until a reload, so relevance ranking reuses its index (cached by identity). */
  private load(): { library: SkillLibrary; offered: Skill[] } {
    if (this.cached === null) {
      const library = loadSkillLibrary([...this.options.roots]);
      this.cached = { library, offered: catalogSkills(library.skills) };
    }
    return this.cached;
  }
}
