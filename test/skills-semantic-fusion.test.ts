/**
 * How keyword and semantic rankings of skills are fused, and which semantic scores count as hits.
 * Pure functions over hand-made rankings: no model needed to pin the rules down.
 */
import { describe, expect, it } from 'vitest';
import type { RankedSkill } from '../src/core/skills/relevance.js';
import { fuseSkillRankings, SEMANTIC_DEPTH, semanticHits, type SkillSimilarity } from '../src/core/skills/semantic-rank.js';
import type { Skill } from '../src/core/skills/types.js';

function skill(name: string): Skill {
  const root = { path: '/skills', scope: 'user' as const, label: 'test' };
  return { name, description: `${name} things.`, dir: `/skills/${name}`, location: `/skills/${name}/SKILL.md`, root, body: '', frontmatter: {}, tags: [], category: null, disableModelInvocation: false, issues: [] };
}

const lexical = (...names: string[]): RankedSkill[] => names.map((name, i) => ({ skill: skill(name), score: 10 - i }));
const similar = (...pairs: [string, number][]): SkillSimilarity[] => pairs.map(([name, cosine]) => ({ skill: skill(name), cosine }));
const names = (ranked: readonly RankedSkill[]): string[] => ranked.map((r) => r.skill.name);

/** Deterministic, roughly normal cosines (sum of uniforms) for a library where nothing stands out. */
function unrelatedLibrary(n: number): SkillSimilarity[] {
  let seed = 42;
  const uniform = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, (_, i) => ({ skill: skill(`skill-${i}`), cosine: 0.4 + 0.05 * (uniform() + uniform() + uniform() + uniform() - 2) }));
}

describe('fuseSkillRankings', () => {
  it('keeps keyword hits the semantic list does not have, and adds semantic-only ones', () => {
    // Catches: fusion that intersects the lists (losing exact keyword hits) or drops semantic-only skills.
    const fused = fuseSkillRankings(lexical('deploy-docs', 'git-bisect'), similar(['tls-certificates', 0.8]), 5);
    expect(names(fused).sort()).toEqual(['deploy-docs', 'git-bisect', 'tls-certificates']);
    expect(names(fused)[0]).toBe('deploy-docs'); // ties (both first in their list) go to the keyword ranking
  });

  it('puts a skill both rankings agree on above skills only one of them found', () => {
    // Catches: scores summed per list in the wrong direction, or a semantic list ignored altogether.
    const fused = fuseSkillRankings(lexical('a', 'b', 'c'), similar(['c', 0.9], ['d', 0.8]), 5);
    expect(names(fused)[0]).toBe('c');
  });

  it('without semantic hits, returns the keyword ranking in its order, cut at the limit', () => {
    // Catches: a semantic path that reorders or drops keyword results when it has nothing to say.
    expect(names(fuseSkillRankings(lexical('a', 'b', 'c', 'd'), [], 3))).toEqual(['a', 'b', 'c']);
  });
});

describe('semanticHits', () => {
  it('a message about none of 200 skills yields no semantic hit', () => {
    // Catches: a hint of three arbitrary skills on every "thanks!" because cosine always ranks something first.
    const library = unrelatedLibrary(200);
    expect(semanticHits(library)).toEqual([]);
  });

  it('a skill that stands out from 200 is a hit, best first, and the list stops at its depth', () => {
    // Catches: a floor so high that a clearly matching skill never counts, or an unbounded semantic list.
    const library = unrelatedLibrary(200);
    library[17] = { skill: skill('tls-certificates'), cosine: 0.75 };
    expect(names(semanticHits(library).map((s) => ({ skill: s.skill, score: s.cosine })))).toEqual(['tls-certificates']);
    // Thirty related skills (a big git cluster): a plain standard deviation would grow so much that none counts.
    const many = unrelatedLibrary(200).map((s, i) => (i < 30 ? { ...s, cosine: 0.9 - i * 0.001 } : s));
    const hits = semanticHits(many);
    expect(hits).toHaveLength(SEMANTIC_DEPTH);
    expect(hits.map((h) => h.cosine)).toEqual([...hits.map((h) => h.cosine)].sort((a, b) => b - a));
  });

  it('in a library of five, the one skill that stands out still counts', () => {
    // Catches: a spread estimate the standout inflates itself (plain mean and standard deviation put it at 1.9 σ).
    expect(semanticHits(similar(['a', 0.55], ['b', 0.6], ['c', 0.58], ['d', 0.62], ['e', 0.95])).map((s) => s.skill.name)).toEqual(['e']);
  });

  it('identical scores (a model that says nothing) yield no hits', () => {
    // Catches: a division by a zero spread letting every skill through.
    expect(semanticHits(similar(['a', 0.5], ['b', 0.5], ['c', 0.5]))).toEqual([]);
  });
});
