import { describe, expect, it } from 'vitest';
import { generateSkillCorpus, toSkills } from '../bench/skill-corpus.js';
import { catalogOrder, findNearDuplicate, rankSkills, renderSkillHint } from '../src/core/skills/relevance.js';
import { stem } from '../src/core/skills/text-analysis.js';
import type { Skill } from '../src/core/skills/types.js';
import type { SkillUsage } from '../src/core/skills/usage.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 1);

function skill(name: string, description: string, extra: Partial<Skill> = {}): Skill {
  return {
    name,
    description,
    dir: `/skills/${name}`,
    location: `/skills/${name}/SKILL.md`,
    root: { path: '/skills', scope: 'user', label: 'test' },
    body: `# ${name}`,
    frontmatter: { name, description },
    tags: [],
    category: null,
    disableModelInvocation: false,
    issues: [],
    ...extra,
  };
}

function usage(name: string, fields: Partial<SkillUsage>): [string, SkillUsage] {
  return [
    name,
    { name, createdBy: 'user', viewCount: 0, useCount: 0, patchCount: 0, createdAt: null, lastUsedAt: null, lastPatchedAt: null, archivedAt: null, pinned: false, ...fields },
  ];
}

const LIBRARY: Skill[] = [
  skill('postgres-backup', 'Back up and restore PostgreSQL databases with pg_dump.', { tags: ['postgres', 'backup'] }),
  skill('nginx-tls', 'Issue and renew TLS certificates for nginx sites.', { tags: ['https'] }),
  skill('deploy-docs', 'Publish the documentation site after a release.'),
  skill('pdf-extract', 'Extract text and tables from PDF files.'),
  skill('release-notes', 'Write release notes from merged pull requests.'),
  skill('secret-runner', 'Run scripts with credentials injected.', { disableModelInvocation: true }),
];

const names = (results: { skill: Skill }[]): string[] => results.map((r) => r.skill.name);

describe('rankSkills', () => {
  it('puts the skill whose name, tags and description match first (a ranking that ignored fields would mix them up)', () => {
    expect(names(rankSkills(LIBRARY, 'renew the TLS certificate on my nginx box'))[0]).toBe('nginx-tls');
    expect(names(rankSkills(LIBRARY, 'pull the tables out of this pdf'))[0]).toBe('pdf-extract');
  });

  it('matches inflected words through stemming and ignores stop words (bug: "deploying" missing "deploy-docs")', () => {
    expect(names(rankSkills(LIBRARY, 'I am deploying the docs now'))[0]).toBe('deploy-docs');
    expect(stem('deploying')).toBe(stem('deploy'));
    expect(stem('databases')).toBe(stem('database'));
    expect(rankSkills(LIBRARY, 'could you please do that for me')).toEqual([]);
  });

  it('bridges everyday synonyms through the thesaurus, which plain BM25 cannot', () => {
    const query = 'take a snapshot of my db';
    expect(names(rankSkills(LIBRARY, query, { expandSynonyms: false }))).not.toContain('postgres-backup');
    expect(names(rankSkills(LIBRARY, query))[0]).toBe('postgres-backup');
  });

  it('finds a skill through its SKILL.md body when only the instructions name the tool (bug: body not indexed)', () => {
    const library = [
      ...LIBRARY,
      skill('repo-cleanup', 'Remove a leaked file from the repository history.', { body: '# repo-cleanup\n\n1. Run BFG or git filter-repo to drop the file.\n2. Force-push.' }),
    ];
    expect(names(rankSkills(library, 'how do I use bfg'))[0]).toBe('repo-cleanup');
    expect(names(rankSkills(library, 'how do I use bfg', { features: { body: false } }))).toEqual([]);
  });

  it('ranks a description match above the same words in another skill’s body (bug: body weighted above the description)', () => {
    const library = [
      skill('one', 'Renew TLS certificates before they expire.', { body: 'Steps.' }),
      skill('two', 'Notes about web servers.', { body: 'Renew TLS certificates before they expire.' }),
    ];
    expect(names(rankSkills(library, 'renew tls certificates'))).toEqual(['one', 'two']);
  });

  it('indexes only the head of a very long body (bug: megabyte reference sections slowing every index build)', () => {
    const long = skill('long-body', 'A skill with long reference material.', { body: `${'filler words here. '.repeat(1_000)}zanzibarword` });
    expect(rankSkills([long], 'zanzibarword')).toEqual([]);
  });

  it('meets a derived word the stemmer leaves apart through a shared prefix, only when the word is unknown', () => {
    const library = [skill('image-build', 'Build docker images for the app.'), skill('readme-writer', 'Write a readme for a project.'), skill('log-reader', 'Read log files.')];
    // "dockerfile" appears in no skill: the prefix fallback reaches "docker" (bug: no fallback, nothing found).
    expect(names(rankSkills(library, 'lint my dockerfile'))[0]).toBe('image-build');
    expect(rankSkills(library, 'lint my dockerfile', { features: { prefixes: false } })).toEqual([]);
    // "read" is a known word and keeps its meaning; as a prefix match it would also pull "readme" (bug: fallback always on).
    expect(names(rankSkills(library, 'read'))).toEqual(['log-reader']);
  });

  it('never returns disable-model-invocation skills and respects the limit', () => {
    expect(names(rankSkills(LIBRARY, 'run scripts with credentials', { limit: 10 }))).not.toContain('secret-runner');
    expect(rankSkills(LIBRARY, 'release notes docs site', { limit: 1 })).toHaveLength(1);
  });

  it('lets usage break a tie between equally matching skills (bug: tie order by input order or name only)', () => {
    const twins = [skill('alpha-sync', 'Sync calendar events to the team calendar.'), skill('beta-sync', 'Sync calendar events to the team calendar.')];
    expect(names(rankSkills(twins, 'calendar events', { now: NOW }))).toEqual(['alpha-sync', 'beta-sync']);
    const used = new Map([usage('beta-sync', { useCount: 12, lastUsedAt: NOW - DAY })]);
    expect(names(rankSkills(twins, 'calendar events', { usage: used, now: NOW }))).toEqual(['beta-sync', 'alpha-sync']);
  });

  it('keeps a clearly better text match ahead of a heavily used weaker one (bug: prior overriding relevance)', () => {
    const used = new Map([usage('deploy-docs', { useCount: 500, viewCount: 500, lastUsedAt: NOW })]);
    expect(names(rankSkills(LIBRARY, 'write release notes from merged pull requests', { usage: used, now: NOW }))[0]).toBe('release-notes');
  });
});

describe('catalogOrder', () => {
  const used = new Map([
    usage('pdf-extract', { useCount: 3, lastUsedAt: NOW - 5 * DAY }),
    usage('nginx-tls', { useCount: 3, lastUsedAt: NOW - DAY }),
    usage('release-notes', { pinned: true }),
  ]);

  it('orders pinned, then most used, then most recent, then name, without hidden skills', () => {
    expect(catalogOrder(LIBRARY, used).map((s) => s.name)).toEqual(['release-notes', 'nginx-tls', 'pdf-extract', 'deploy-docs', 'postgres-backup']);
  });

  it('is the same for any input order, so the prompt stays byte-identical (bug: order leaking from the scan)', () => {
    const expected = catalogOrder(LIBRARY, used).map((s) => s.name);
    for (const shuffled of [[...LIBRARY].reverse(), [LIBRARY[3], LIBRARY[0], LIBRARY[5], LIBRARY[2], LIBRARY[1], LIBRARY[4]] as Skill[]]) {
      expect(catalogOrder(shuffled, used).map((s) => s.name)).toEqual(expected);
    }
  });
});

describe('findNearDuplicate and the hint', () => {
  it('flags a reworded copy of an existing skill but not a sibling about another tool', () => {
    const copy = findNearDuplicate(LIBRARY, { name: 'postgresql-backups', description: 'Backup and restore Postgres databases with pg_dump.' });
    expect(copy?.skill.name).toBe('postgres-backup');
    expect(findNearDuplicate(LIBRARY, { name: 'mysql-backup', description: 'Back up MySQL with mysqldump before upgrades.' })).toBeNull();
  });

  it('renders a hint only when something matched', () => {
    expect(renderSkillHint([])).toBeNull();
    const hint = renderSkillHint(rankSkills(LIBRARY, 'renew tls certificate'));
    expect(hint).toContain('- nginx-tls: Issue and renew TLS certificates for nginx sites.');
  });
});

describe('learned trigger phrasings as a ranking field', () => {
  // The 200-skill library of the retrieval benchmark's main seed, where this request is a top-5 miss: its words
  // ("mariadb", "follower") are in no part of the MySQL replication skill, and other skills match "read" and "cluster".
  const library = toSkills(generateSkillCorpus(20_250_601).skills);
  const request = 'hey, add a read-only follower to our mariadb cluster?';

  it('brings the right skill into the top 5 that its own text does not (bug: phrasings stored but not ranked)', () => {
    expect(names(rankSkills(library, request))).not.toContain('mysql-replication');
    const learned = library.map((s) => (s.name === 'mysql-replication' ? { ...s, triggers: ['mariadb read replica', 'standby mysql server', 'read-only follower database', 'mysql failover', 'primary and replica'] } : s));
    expect(names(rankSkills(learned, request))).toContain('mysql-replication');
  });

  it('ranks a skill with phrasings but no other match, and one without phrasings exactly as before', () => {
    const withTriggers = LIBRARY.map((s) => (s.name === 'deploy-docs' ? { ...s, triggers: ['ship the handbook website', 'mkdocs gh-pages', 'push docs live'] } : s));
    expect(names(rankSkills(withTriggers, 'mkdocs handbook'))).toEqual(['deploy-docs']);
    expect(rankSkills(withTriggers, 'renew the TLS certificate on my nginx box')[0]).toEqual(rankSkills(LIBRARY, 'renew the TLS certificate on my nginx box')[0]);
  });
});
