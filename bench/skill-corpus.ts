/**
 * A seeded, generated skill library for the skills benchmarks: 200 distinct skills (20 domains × 10
 * subject/task pairs from bench/skill-corpus-domains.ts, each with a SKILL.md body of instructions from
 * bench/skill-corpus-bodies.ts) and 100 requests phrased the way a user asks, each naming the one skill that
 * should answer it. Same seed, same corpus. `fullLibrary` holds every subject × task pair (284 skills) for the
 * held-out requests, so each of them is scored whatever a seed happened to pick.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Skill, SkillRoot } from '../src/core/skills/types.js';
import { skillBodyText } from './skill-corpus-bodies.js';
import { DOMAINS, type CorpusDomain, type CorpusSubject, type CorpusTask } from './skill-corpus-domains.js';
import { HELD_OUT_REQUESTS } from './skill-corpus-held-out.js';
import { seededRandom } from '../src/core/seeded-random.js';

export interface CorpusSkill {
  name: string;
  description: string;
  tags: string[];
  category: string;
  /** SKILL.md without frontmatter. */
  body: string;
}

export interface CorpusRequest {
  text: string;
  expected: string;
}

export interface SkillCorpus {
  skills: CorpusSkill[];
  requests: CorpusRequest[];
  /** Requests never used for tuning, limited to skills this seed put in the library. */
  heldOut: CorpusRequest[];
}

const SKILLS_PER_DOMAIN = 10;
const REQUESTS_PER_DOMAIN = 5;
const DESCRIPTION_SHAPES = ['{D}. Use when {W}.', '{D}. Useful for {W}.', '{D} — for {W}.', '{D}. Triggers: {W}.'];
const OPENERS = ['', '', 'hey, ', 'quick question: ', 'can you help? ', 'ok so '];
const CLOSERS = ['', '', '?', ' please', ', thanks', ' asap'];

/** `skills` = up to domains × 10 skills; `requests` = 5 per domain, each about one of that domain's skills. */
export function generateSkillCorpus(seed = 20_250_601, domains: CorpusDomain[] = DOMAINS): SkillCorpus {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const skills: CorpusSkill[] = [];
  const requests: CorpusRequest[] = [];
  for (const domain of domains) {
    const pairs = shuffle(
      domain.subjects.flatMap((subject) => domain.tasks.map((task) => ({ subject, task }))),
      random,
    ).slice(0, SKILLS_PER_DOMAIN);
    for (const { subject, task } of pairs) skills.push(makeSkill(domain, subject, task, pick));
    for (const { subject, task } of shuffle(pairs, random).slice(0, REQUESTS_PER_DOMAIN)) {
      const ask = pick(task.asks).replaceAll('{A}', pick(subject.aliases));
      requests.push({ text: `${pick(OPENERS)}${ask}${pick(CLOSERS)}`, expected: skillName(subject, task) });
    }
  }
  const names = new Set(skills.map((skill) => skill.name));
  return { skills, requests, heldOut: HELD_OUT_REQUESTS.filter((r) => names.has(r.expected)) };
}

/**
 * Every subject × task pair of every domain as a skill (aliases and description shapes still drawn from
 * `seed`), with all held-out requests: a bigger library than the main benchmark's, and no request skipped.
 */
export function fullLibrary(seed = 20_250_601, domains: CorpusDomain[] = DOMAINS): { skills: CorpusSkill[]; requests: CorpusRequest[] } {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const skills = domains.flatMap((domain) => domain.subjects.flatMap((subject) => domain.tasks.map((task) => makeSkill(domain, subject, task, pick))));
  const names = new Set(skills.map((skill) => skill.name));
  const unknown = HELD_OUT_REQUESTS.filter((r) => !names.has(r.expected));
  if (unknown.length > 0) throw new Error(`held-out requests name skills that cannot exist: ${unknown.map((r) => r.expected).join(', ')}`);
  return { skills, requests: HELD_OUT_REQUESTS };
}

function makeSkill(domain: CorpusDomain, subject: CorpusSubject, task: CorpusTask, pick: <T>(items: readonly T[]) => T): CorpusSkill {
  const what = task.describe.replaceAll('{S}', subject.label);
  const when = task.when.join(' or ');
  const name = skillName(subject, task);
  const description = pick(DESCRIPTION_SHAPES).replace('{D}', what).replace('{W}', when);
  return {
    name,
    description,
    // Authors tag a skill with a keyword or two, not every way a user might name the tool: one alias, picked at random.
    tags: [...new Set([subject.id, pick(subject.aliases), ...task.tags])],
    category: domain.id,
    body: skillBodyText(name, description, subject.label, subject.id, `${domain.id}.${task.id}`),
  };
}

function skillName(subject: CorpusSubject, task: CorpusTask): string {
  return `${subject.id}-${task.id}`;
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** SKILL.md text in the Hermes layout (tags and category under metadata.hermes). */
export function skillMarkdown(skill: CorpusSkill): string {
  const tags = skill.tags.map((tag) => `      - ${tag}`).join('\n');
  return `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\nmetadata:\n  hermes:\n    category: ${skill.category}\n    tags:\n${tags}\n---\n${skill.body}`;
}

/** Write skills as real folders under `root` (for benchmarks that go through the loader). */
export function writeCorpusSkills(root: string, skills: readonly CorpusSkill[]): void {
  for (const skill of skills) {
    mkdirSync(join(root, skill.name), { recursive: true });
    writeFileSync(join(root, skill.name, 'SKILL.md'), skillMarkdown(skill));
  }
}

/** In-memory `Skill` objects for ranking without touching the disk. */
export function toSkills(skills: readonly CorpusSkill[], rootPath = '/bench/skills'): Skill[] {
  const root: SkillRoot = { path: rootPath, scope: 'user', label: 'bench' };
  return skills.map((s) => ({
    name: s.name,
    description: s.description,
    dir: join(rootPath, s.name),
    location: join(rootPath, s.name, 'SKILL.md'),
    root,
    body: s.body,
    frontmatter: { name: s.name, description: s.description },
    tags: s.tags,
    category: s.category,
    disableModelInvocation: false,
    issues: [],
  }));
}
