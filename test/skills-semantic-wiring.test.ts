/**
 * Semantic skill ranking wired through the engine: with `search.embedding_model` set, the skills of
 * HEARTH_HOME are embedded in the background at start (real embedding host, generated GGUF) and both the
 * per-request hint and the `skills_search` tool use the fused ranking; a broken model leaves keyword
 * ranking working and tells the user once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import { skillEmbeddingText } from '../src/core/skills/skill-vectors.js';
import type { AnyTool } from '../src/core/tools/registry.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { modelDir, writeGguf, writeMalformedGguf } from './fixtures/gguf/index.js';
import { tempDir } from './fixtures/skills/write-skill.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';
import { writeLibrary } from './skills-semantic-fixture.js';

const dirs = modelDir('hearth-skill-wiring-');
afterAll(() => dirs.cleanup());
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.dispose();
});

async function engineWithSkills(modelPath: string, warnings: string[]): Promise<Engine> {
  const env = freshHomeEnv();
  const home = env.HEARTH_HOME as string;
  writeFileSync(
    join(home, 'config.yaml'),
    `version: 1\nmodel:\n  default: idle:m\nproviders:\n  idle: { type: openai, base_url: "http://127.0.0.1:9/v1" }\nsearch:\n  embedding_model: ${JSON.stringify(modelPath)}\n`,
  );
  writeLibrary(join(home, 'skills'));
  const workspace = tempDir('hearth-skill-wiring-ws-');
  const engine = await openEngine({ env, workspace, userHome: workspace, onWarning: (w) => warnings.push(w) });
  engines.push(engine);
  return engine;
}

function skillsSearch(engine: Engine): AnyTool {
  const tool = engine.learning.tools.find((t) => t.name === 'skills_search');
  if (tool === undefined) throw new Error('skills_search is not among the learning tools');
  return tool;
}

async function search(engine: Engine, query: string): Promise<string> {
  return (await runTool(skillsSearch(engine), { query }, toolContext({ workspace: engine.home }))).content;
}

describe('semantic skill ranking through the engine', () => {
  it('the hint and skills_search find a skill only its embedding can match', async () => {
    // Catches: the config key reaching session search but not the skill ranking, or skills_search left lexical.
    const warnings: string[] = [];
    const engine = await engineWithSkills(writeGguf(dirs.path('embed.gguf'), { preset: 'tiny' }).path, warnings);
    await engine.learning.skills.semanticReady();
    const target = engine.learning.skills.find('when-it-is-not-there');
    if (target === undefined) throw new Error('the test library did not load');
    const request = skillEmbeddingText(target);
    expect(engine.learning.skills.hint(request)).toBeNull(); // keywords alone find nothing
    expect(await engine.learning.skills.relevantHint(request)).toContain('- when-it-is-not-there:');
    expect((await search(engine, request)).split('\n')[0]).toMatch(/^- when-it-is-not-there: /);
    expect(await search(engine, 'pg_dump')).toContain('- postgres-backup: ');
    expect(warnings.filter((w) => w.includes('Semantic skill ranking'))).toEqual([]);
  }, 90_000);

  it('a broken embedding model: keyword ranking everywhere, one warning', async () => {
    // Catches: a bad model breaking skills_search, or a warning on every call.
    const warnings: string[] = [];
    const engine = await engineWithSkills(writeMalformedGguf(dirs.path('broken.gguf'), 'truncated'), warnings);
    await engine.learning.skills.semanticReady();
    for (let i = 0; i < 2; i++) {
      expect(await search(engine, 'pg_dump')).toContain('- postgres-backup: ');
      expect(await engine.learning.skills.relevantHint('snapshot the postgres database')).toContain('- postgres-backup: ');
    }
    const semantic = warnings.filter((w) => w.includes('Semantic skill ranking'));
    expect(semantic).toHaveLength(1);
    expect(semantic[0]).toMatch(/Semantic skill ranking is off for now, keyword ranking still works: .+/);
  }, 90_000);
});
