/**
 * Semantic skill ranking with a generated GGUF embedding model in the real embedding host process, skill
 * folders on disk, and vectors in a real encrypted store: what is embedded when, what the fused ranking
 * returns, and what happens when the model is broken.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../src/core/local-model/local-embedder.js';
import { rankSkills } from '../src/core/skills/relevance.js';
import { SemanticSkillRanker, semanticHits } from '../src/core/skills/semantic-rank.js';
import { SkillService } from '../src/core/skills/service.js';
import { contentHash, skillEmbeddingText, SqliteSkillVectors } from '../src/core/skills/skill-vectors.js';
import type { Skill } from '../src/core/skills/types.js';
import { SkillUsageStore } from '../src/core/skills/usage.js';
import type { SqliteSessionStore } from '../src/core/store/session-store.js';
import { modelDir, writeGguf, writeMalformedGguf } from './fixtures/gguf/index.js';
import { createTempStore } from './fixtures/temp-store.js';
import { CountingEmbedder, editSkill, LIBRARY, writeLibrary } from './skills-semantic-fixture.js';

const dirs = modelDir('hearth-skill-embed-');
/** One model load for the whole file; each "start" below wraps it in a fresh counter and ranker. */
const embedder = createLocalEmbedder({ modelPath: writeGguf(dirs.path('embed.gguf'), { preset: 'tiny' }).path, threads: 1 });
const temp = createTempStore('hearth-skill-embed-');
const root = writeLibrary();

afterAll(async () => {
  await embedder.dispose();
  temp.cleanup();
  dirs.cleanup();
});

/** One engine start: a store connection, a ranker and a skill service over the same library folder. */
function start(store: SqliteSessionStore = temp.open()): { store: SqliteSessionStore; counting: CountingEmbedder; ranker: SemanticSkillRanker; service: SkillService; warnings: string[] } {
  const counting = new CountingEmbedder(embedder);
  const warnings: string[] = [];
  const ranker = new SemanticSkillRanker({ embedder: counting, vectors: new SqliteSkillVectors(store.db), warn: (w) => warnings.push(w), batchSize: 2 });
  const service = new SkillService({ roots: [{ path: root, scope: 'user', label: 'test' }], usage: new SkillUsageStore(store.db), catalogSize: 12, semantic: ranker });
  return { store, counting, ranker, service, warnings };
}

function skill(service: SkillService, name: string): Skill {
  const found = service.find(name);
  if (found === undefined) throw new Error(`no skill ${name} in the test library`);
  return found;
}

function storedHashes(store: SqliteSessionStore): string[] {
  return (store.db.prepare('SELECT content_hash FROM skill_embeddings ORDER BY content_hash').all() as { content_hash: string }[]).map((r) => r.content_hash);
}

describe('semantic skill ranking with a generated embedding model', () => {
  const first = start();

  it('embeds every skill once at start, in batches, and stores one vector per skill text', async () => {
    // Catches: vectors never computed (ranking silently lexical) or a batch boundary (2) dropping skills.
    await first.service.semanticReady();
    expect(first.ranker.ready).toBe(true);
    expect(first.counting.textsEmbedded).toBe(Object.keys(LIBRARY).length);
    expect(Math.max(...first.counting.calls)).toBeLessThanOrEqual(2);
    const expected = first.service.library().skills.map((s) => contentHash(skillEmbeddingText(s)));
    expect(storedHashes(first.store)).toEqual([...expected].sort());
    expect(first.warnings).toEqual([]);
  }, 60_000);

  it('ranks first a skill no keyword can reach when the request is that skill’s own text', async () => {
    // Catches: fusion that ignores the semantic list, or semantic ranking that is never consulted.
    const request = skillEmbeddingText(skill(first.service, 'when-it-is-not-there'));
    expect(rankSkills(first.service.library().skills, request)).toEqual([]); // the keyword path finds nothing
    expect(first.service.hint(request)).toBeNull();
    const ranked = await first.service.rank(request, 5);
    expect(ranked[0]?.skill.name).toBe('when-it-is-not-there');
    expect(await first.service.relevantHint(request)).toContain('- when-it-is-not-there: What to do when it is not there any more.');
  }, 30_000);

  it('keeps a keyword hit that the semantic path does not find', async () => {
    // Catches: fusion that trusts the embedding alone and loses the exact keyword match.
    const request = `${skillEmbeddingText(skill(first.service, 'when-it-is-not-there'))} pg_dump`;
    const skills = first.service.library().skills;
    expect(rankSkills(skills, request).map((r) => r.skill.name)).toEqual(['postgres-backup']);
    const semantic = semanticHits((await first.ranker.similarities(skills, request)) ?? []).map((s) => s.skill.name);
    expect(semantic).toEqual(['when-it-is-not-there']); // the precondition: only the embedding's favourite
    expect((await first.service.rank(request, 5)).map((r) => r.skill.name).sort()).toEqual(['postgres-backup', 'when-it-is-not-there']);
  }, 30_000);

  it('a request costs exactly one embedding call of one text', async () => {
    // Catches: re-embedding the library (or the request per skill) on every turn.
    const before = first.counting.calls.length;
    await first.service.rank('restore the postgres database from last night', 5);
    expect(first.counting.calls.slice(before)).toEqual([1]);
  }, 30_000);

  it('a second start over the same database embeds nothing and ranks the same', async () => {
    // Catches: vectors kept only in memory, or keyed so that a restart cannot find them again.
    const request = skillEmbeddingText(skill(first.service, 'when-it-is-not-there'));
    const second = start(temp.open());
    await second.service.semanticReady();
    expect(second.counting.textsEmbedded).toBe(0);
    expect(second.ranker.ready).toBe(true);
    expect((await second.service.rank(request, 5)).map((r) => r.skill.name)).toEqual((await first.service.rank(request, 5)).map((r) => r.skill.name));
    expect(second.counting.calls).toEqual([1]);
  }, 60_000);

  it('editing a skill re-embeds that skill only, drops its old vector, and ranks by the new text', async () => {
    // Catches: a stale vector still answering for an edited skill, or an edit re-embedding the whole library.
    const run = start(temp.open());
    await run.service.semanticReady();
    const oldText = skillEmbeddingText(skill(run.service, 'postgres-backup'));
    editSkill(root, 'postgres-backup', 'Nightly dumps of the orders cluster, kept for thirty days.');
    run.service.reload();
    await run.service.semanticReady();
    expect(run.counting.textsEmbedded).toBe(1);
    const edited = skill(run.service, 'postgres-backup');
    const newText = skillEmbeddingText(edited);
    expect(storedHashes(run.store)).toContain(contentHash(newText));
    expect(storedHashes(run.store)).not.toContain(contentHash(oldText));
    expect(storedHashes(run.store)).toHaveLength(Object.keys(LIBRARY).length);

    const similarities = (await run.ranker.similarities(run.service.library().skills, newText)) ?? [];
    expect(similarities.find((s) => s.skill === edited)?.cosine).toBeCloseTo(1, 4);
    const toOld = (await run.ranker.similarities(run.service.library().skills, oldText)) ?? [];
    expect(toOld.find((s) => s.skill === edited)?.cosine).toBeLessThan(0.999);
  }, 60_000);

  it('editing only the body embeds nothing (the vector covers name, description and tags)', async () => {
    // Catches: a content key that includes text the vector is not computed from, re-embedding for nothing.
    const run = start(temp.open());
    await run.service.semanticReady();
    const current = skill(run.service, 'git-bisect');
    editSkill(root, 'git-bisect', current.description, '# Steps\n\n1. git bisect start\n2. Mark good and bad commits.\n');
    run.service.reload();
    await run.service.semanticReady();
    expect(readFileSync(join(root, 'git-bisect', 'SKILL.md'), 'utf8')).toContain('git bisect start');
    expect(run.counting.textsEmbedded).toBe(0);
  }, 60_000);

  it('closing while the model is still loading returns without waiting for it and warns nothing', async () => {
    // Catches: shutdown blocked on a model load, or a "semantic ranking is off" warning printed on every exit.
    const loading = createLocalEmbedder({ modelPath: dirs.path('embed.gguf'), threads: 1 });
    const warnings: string[] = [];
    const ranker = new SemanticSkillRanker({ embedder: loading, vectors: new SqliteSkillVectors(first.store.db), warn: (w) => warnings.push(w) });
    const refreshed = ranker.refresh(first.service.library().skills);
    await ranker.close();
    await refreshed;
    // Close came back before the model finished loading (a load takes a process start; close takes microtasks).
    expect(loading.loadedInfo()).toBeUndefined();
    await loading.dispose();
    expect(ranker.ready).toBe(false);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('a broken embedding model leaves the keyword ranking, with one warning however often it is asked', async () => {
    // Catches: a failing model breaking skill ranking, or warning the user on every turn.
    const store = temp.open();
    const broken = createLocalEmbedder({ modelPath: writeMalformedGguf(dirs.path('broken.gguf'), 'truncated'), threads: 1 });
    const warnings: string[] = [];
    const ranker = new SemanticSkillRanker({ embedder: broken, vectors: new SqliteSkillVectors(store.db), warn: (w) => warnings.push(w) });
    const service = new SkillService({ roots: [{ path: root, scope: 'user', label: 'test' }], usage: new SkillUsageStore(store.db), catalogSize: 12, semantic: ranker });
    try {
      await service.semanticReady();
      expect(ranker.ready).toBe(false);
      const request = 'snapshot the postgres database before the upgrade';
      const lexical = rankSkills(service.library().skills, request, { usage: service.usage.byName(), limit: 5 });
      expect(lexical.length).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) {
        expect(await service.rank(request, 5)).toEqual(lexical);
        expect(await service.relevantHint(request)).toBe(service.hint(request));
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^Semantic skill ranking is off for now, keyword ranking still works: .+/);
    } finally {
      await ranker.close();
      await broken.dispose();
    }
  }, 60_000);

  it('a model that fails later is retried after the back-off, without a second warning', async () => {
    // Catches: one transient failure switching semantic ranking off for the rest of the run.
    let clock = 0;
    const store = temp.open();
    const warnings: string[] = [];
    // Not a GGUF at all: refused before a host process starts, so three attempts stay cheap.
    writeFileSync(dirs.path('not-a-model.gguf'), '<html>404</html>');
    const broken = new CountingEmbedder(createLocalEmbedder({ modelPath: dirs.path('not-a-model.gguf'), threads: 1 }));
    const ranker = new SemanticSkillRanker({ embedder: broken, vectors: new SqliteSkillVectors(store.db), warn: (w) => warnings.push(w), retryAfterMs: 1000, now: () => clock });
    const skills = first.service.library().skills;
    try {
      await ranker.refresh(skills);
      expect(ranker.ready).toBe(false);
      expect(broken.dimensionCalls).toBe(1);
      clock = 500; // inside the back-off: a request answers at once (lexical) and starts no new attempt
      expect(await ranker.similarities(skills, 'anything')).toBeNull();
      expect(broken.dimensionCalls).toBe(1);
      clock = 5000; // past it: the request still answers at once, and a retry starts in the background
      expect(await ranker.similarities(skills, 'anything')).toBeNull();
      await ranker.refresh(skills); // queued behind the retry, so both attempts have run when it resolves
      expect(broken.dimensionCalls).toBe(3);
      expect(warnings).toHaveLength(1);
    } finally {
      await ranker.close();
      await broken.dispose();
    }
  }, 60_000);
});
