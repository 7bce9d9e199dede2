/**
 * Prompt cost of skills: tokens of the system-prompt catalog with 0, 20 and 200 skills installed, bounded
 * by `skills.catalog_size`, next to what listing every skill would cost, plus the per-request hint (top 5).
 * Skills are real folders read by the loader. Run: node --import tsx bench/skills-prompt.ts
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../src/core/config/schema.js';
import { countReferenceTokens, REFERENCE_TOKENIZER } from '../src/core/llm/token-count.js';
import { renderSkillCatalog } from '../src/core/skills/catalog.js';
import { loadSkillLibrary } from '../src/core/skills/library.js';
import { catalogOrder, rankSkills, renderSkillHint } from '../src/core/skills/relevance.js';
import { generateSkillCorpus, writeCorpusSkills } from './skill-corpus.js';

export function runSkillsPromptBench(sizes = [0, 20, 200]): Record<string, unknown> {
  const catalogSize = defaultConfig().skills.catalog_size;
  const corpus = generateSkillCorpus();
  const request = corpus.requests[0]?.text ?? 'back up my database';
  console.log(`tokenizer ${REFERENCE_TOKENIZER}; skills.catalog_size ${catalogSize}; hint = top 5 for "${request}"`);
  const rows: Record<string, unknown> = {};
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-skills-bench-'));
    try {
      const root = join(dir, 'skills');
      mkdirSync(root);
      writeCorpusSkills(root, corpus.skills.slice(0, size));
      const library = loadSkillLibrary([{ path: root, scope: 'user', label: 'HEARTH_HOME/skills' }]);
      const ordered = catalogOrder(library.skills);
      const bounded = countReferenceTokens(renderSkillCatalog(ordered, { limit: catalogSize }));
      const everything = countReferenceTokens(renderSkillCatalog(ordered));
      const hint = countReferenceTokens(renderSkillHint(rankSkills(library.skills, request, { limit: 5 })) ?? '');
      rows[String(size)] = { loaded: library.skills.length, catalogTokens: bounded, unboundedTokens: everything, hintTokens: hint };
      console.log(
        `${String(size).padStart(4)} skills: catalog ${String(bounded).padStart(5)} tokens (bounded) vs ${String(everything).padStart(6)} listing all; ` +
          `per-request hint ${String(hint).padStart(4)} tokens; ratio bounded/all ${everything === 0 ? '-' : (bounded / everything).toFixed(3)}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) runSkillsPromptBench();
