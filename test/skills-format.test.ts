import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SkillDirValidation } from '../src/core/skills/validate.js';
import { validateSkillDir } from '../src/core/skills/validate.js';
import { basicFields, skillMd, tempDir, writeSkill } from './fixtures/skills/write-skill.js';

/**
 * SKILLS-SPEC §9, cases 1–40: every case is a real folder on disk, validated in strict mode (the
 * reference `skills-ref validate` verdicts) and in compat mode (what Hearth's loader does). Compat
 * `ok` is verdict `valid`, `warn` is `warn` (loads with an issue), `skip` is `invalid` (not loaded).
 * Each row catches a rule that was dropped, loosened or applied in the wrong mode.
 */
type Verdict = SkillDirValidation['verdict'];
interface Expected {
  verdict: Verdict;
  /** Rule ids that must be among the issues. */
  rules?: string[];
}
interface Case {
  n: number;
  title: string;
  make: (tmp: string) => string;
  strict: Expected;
  compat: Expected;
  /** Extra checks on the compat result (what was recovered and how). */
  check?: (compat: SkillDirValidation, strict: SkillDirValidation) => void;
}

const simple = (dirName: string, fields: string, body?: string) => (tmp: string) => writeSkill(tmp, dirName, skillMd(fields, body));
const named = (name: string, dirName = name) => simple(dirName, basicFields(name));
const longBody = Array.from({ length: 600 }, (_, i) => `Step ${i + 1}: keep going.`).join('\n');

const cases: Case[] = [
  { n: 1, title: 'valid skill', make: named('pdf-tools'), strict: { verdict: 'valid' }, compat: { verdict: 'valid' } },
  { n: 2, title: 'nonexistent path', make: (tmp) => join(tmp, 'no-such-dir'), strict: { verdict: 'invalid', rules: ['D1'] }, compat: { verdict: 'invalid', rules: ['D1'] } },
  {
    n: 3,
    title: 'not a directory',
    make: (tmp) => {
      writeFileSync(join(tmp, 'SKILL.md'), skillMd(basicFields('x')));
      return join(tmp, 'SKILL.md');
    },
    strict: { verdict: 'invalid', rules: ['D1'] },
    compat: { verdict: 'invalid', rules: ['D1'] },
  },
  { n: 4, title: 'missing SKILL.md', make: (tmp) => writeSkill(tmp, 'pdf-tools', null), strict: { verdict: 'invalid', rules: ['D2'] }, compat: { verdict: 'invalid', rules: ['D2'] } },
  { n: 5, title: 'uppercase name', make: named('PDF-Tools'), strict: { verdict: 'invalid', rules: ['N4'] }, compat: { verdict: 'warn', rules: ['N4'] } },
  { n: 6, title: 'name too long', make: named('a'.repeat(65)), strict: { verdict: 'invalid', rules: ['N3'] }, compat: { verdict: 'warn', rules: ['N3'] } },
  { n: 7, title: 'leading hyphen', make: named('-pdf'), strict: { verdict: 'invalid', rules: ['N5'] }, compat: { verdict: 'warn', rules: ['N5'] } },
  { n: 8, title: 'consecutive hyphens', make: named('pdf--tools'), strict: { verdict: 'invalid', rules: ['N5'] }, compat: { verdict: 'warn', rules: ['N5'] } },
  { n: 9, title: 'underscore', make: named('pdf_tools'), strict: { verdict: 'invalid', rules: ['N6'] }, compat: { verdict: 'warn', rules: ['N6'] } },
  {
    n: 10,
    title: 'dir mismatch',
    make: named('pdf-tools', 'tools'),
    strict: { verdict: 'invalid', rules: ['N7'] },
    compat: { verdict: 'warn', rules: ['N7'] },
    check: (compat) => expect(compat.skill?.name).toBe('pdf-tools'),
  },
  {
    n: 11,
    title: 'unexpected fields',
    make: simple('pdf-tools', basicFields('pdf-tools', 'version: "1.0"')),
    strict: { verdict: 'invalid', rules: ['K1'] },
    compat: { verdict: 'warn', rules: ['K1'] },
    check: (compat) => expect(compat.skill?.frontmatter.version).toBe('1.0'),
  },
  {
    n: 12,
    title: 'all fields valid',
    make: simple('pdf-tools', basicFields('pdf-tools', 'license: MIT\ncompatibility: Requires git and network access\nmetadata:\n  author: me\nallowed-tools: Read')),
    strict: { verdict: 'valid' },
    compat: { verdict: 'valid' },
  },
  { n: 13, title: 'allowed-tools accepted', make: simple('pdf-tools', basicFields('pdf-tools', 'allowed-tools: Bash(git:*) Bash(jq:*) Read')), strict: { verdict: 'valid' }, compat: { verdict: 'valid' } },
  { n: 14, title: 'i18n Chinese name', make: named('技能'), strict: { verdict: 'valid' }, compat: { verdict: 'valid' } },
  { n: 15, title: 'i18n Russian with hyphens', make: named('мой-навык'), strict: { verdict: 'valid' }, compat: { verdict: 'valid' } },
  { n: 16, title: 'Russian lowercase', make: named('навык'), strict: { verdict: 'valid' }, compat: { verdict: 'valid' } },
  { n: 17, title: 'Russian uppercase rejected', make: named('Навык'), strict: { verdict: 'invalid', rules: ['N4'] }, compat: { verdict: 'warn', rules: ['N4'] } },
  {
    n: 18,
    title: 'description too long',
    make: simple('pdf-tools', `name: pdf-tools\ndescription: ${'d'.repeat(1025)}`),
    strict: { verdict: 'invalid', rules: ['S3'] },
    compat: { verdict: 'warn', rules: ['S3'] },
  },
  { n: 19, title: 'valid compatibility', make: simple('pdf-tools', basicFields('pdf-tools', `compatibility: ${'c'.repeat(500)}`)), strict: { verdict: 'valid' }, compat: { verdict: 'valid' } },
  {
    n: 20,
    title: 'compatibility too long',
    make: simple('pdf-tools', basicFields('pdf-tools', `compatibility: ${'c'.repeat(501)}`)),
    strict: { verdict: 'invalid', rules: ['C2'] },
    compat: { verdict: 'warn', rules: ['C2'] },
  },
  {
    n: 21,
    title: 'NFKC normalisation (precomposed name, decomposed folder)',
    make: named('caf\u00e9', 'cafe\u0301'),
    strict: { verdict: 'valid' },
    compat: { verdict: 'valid' },
    check: (compat) => expect(compat.skill?.name).toBe('caf\u00e9'),
  },
  { n: 21, title: 'NFKC normalisation (fullwidth name)', make: named('\uff50\uff44\uff46', 'pdf'), strict: { verdict: 'valid' }, compat: { verdict: 'valid' }, check: (c) => expect(c.skill?.name).toBe('pdf') },
  { n: 22, title: 'no frontmatter', make: (tmp) => writeSkill(tmp, 'pdf-tools', '# Title\n\nname: pdf-tools\n'), strict: { verdict: 'invalid', rules: ['F1'] }, compat: { verdict: 'invalid', rules: ['F1'] } },
  { n: 23, title: 'unterminated frontmatter', make: (tmp) => writeSkill(tmp, 'pdf-tools', `---\n${basicFields('pdf-tools')}\n# Body\n`), strict: { verdict: 'invalid', rules: ['F2'] }, compat: { verdict: 'invalid', rules: ['F2'] } },
  { n: 24, title: 'unparseable YAML', make: simple('pdf-tools', 'name: [unclosed\ndescription: Does X. Use when Y.'), strict: { verdict: 'invalid', rules: ['F3'] }, compat: { verdict: 'invalid', rules: ['F3'] } },
  { n: 25, title: 'frontmatter not a mapping', make: simple('pdf-tools', '- a\n- b'), strict: { verdict: 'invalid', rules: ['F3'] }, compat: { verdict: 'invalid', rules: ['F3'] } },
  {
    n: 26,
    title: 'lowercase file name',
    make: (tmp) => writeSkill(tmp, 'pdf-tools', skillMd(basicFields('pdf-tools')), {}, 'skill.md'),
    strict: { verdict: 'valid' },
    compat: { verdict: 'valid' },
    check: (compat) => expect(compat.location?.endsWith('skill.md')).toBe(true),
  },
  { n: 27, title: 'description missing', make: simple('pdf-tools', 'name: pdf-tools'), strict: { verdict: 'invalid', rules: ['S1'] }, compat: { verdict: 'invalid', rules: ['S1'] } },
  { n: 28, title: 'description whitespace only', make: simple('pdf-tools', 'name: pdf-tools\ndescription: "   "'), strict: { verdict: 'invalid', rules: ['S2'] }, compat: { verdict: 'invalid', rules: ['S2'] } },
  {
    n: 29,
    title: 'name missing',
    make: simple('pdf-tools', 'description: Does X. Use when Y.'),
    strict: { verdict: 'invalid', rules: ['N1'] },
    compat: { verdict: 'warn', rules: ['N1'] },
    check: (compat) => expect(compat.skill?.name).toBe('pdf-tools'),
  },
  {
    n: 30,
    title: 'scalar coerced',
    make: simple('pdf-tools', basicFields('pdf-tools', 'metadata:\n  version: 1')),
    strict: { verdict: 'valid' },
    compat: { verdict: 'valid' },
    check: (_compat, strict) => expect(strict.skill?.frontmatter.metadata).toEqual({ version: '1' }),
  },
  {
    n: 31,
    title: 'flow mapping',
    make: simple('pdf-tools', basicFields('pdf-tools', 'metadata: { "openclaw": { "emoji": "🔐" } }')),
    strict: { verdict: 'invalid', rules: ['F4'] },
    compat: { verdict: 'valid' },
    check: (compat) => expect(compat.skill?.frontmatter.metadata).toEqual({ openclaw: { emoji: '🔐' } }),
  },
  {
    n: 32,
    title: 'flow list + extra key',
    make: simple('pdf-tools', basicFields('pdf-tools', 'tags: [a, b]')),
    // Both problems are listed at once: flow style does not hide the unexpected key.
    strict: { verdict: 'invalid', rules: ['F4', 'K1'] },
    compat: { verdict: 'warn', rules: ['K1'] },
    check: (compat) => expect(compat.skill?.tags).toEqual(['a', 'b']),
  },
  {
    n: 33,
    title: 'unquoted colon',
    make: simple('pdf-tools', 'name: pdf-tools\ndescription: Use when: converting PDFs'),
    strict: { verdict: 'invalid', rules: ['F3'] },
    compat: { verdict: 'warn', rules: ['F3'] },
    check: (compat) => expect(compat.skill?.description).toBe('Use when: converting PDFs'),
  },
  {
    n: 34,
    title: 'metadata not a map',
    make: simple('pdf-tools', basicFields('pdf-tools', 'metadata: hello')),
    strict: { verdict: 'invalid', rules: ['M1'] },
    compat: { verdict: 'warn', rules: ['M1'] },
    check: (compat) => expect(compat.skill?.frontmatter).not.toHaveProperty('metadata'),
  },
  {
    n: 35,
    title: 'nested metadata value',
    make: simple('pdf-tools', basicFields('pdf-tools', 'metadata:\n  hermes:\n    tags:\n      - pdf\n      - forms')),
    strict: { verdict: 'warn', rules: ['M2'] },
    compat: { verdict: 'valid' },
    check: (compat) => {
      expect(compat.skill?.frontmatter.metadata).toEqual({ hermes: { tags: ['pdf', 'forms'] } });
      expect(compat.skill?.tags).toEqual(['pdf', 'forms']);
    },
  },
  {
    n: 36,
    title: '--- inside the body',
    make: simple('pdf-tools', basicFields('pdf-tools'), '# Part one\n\n---\n\n# Part two\n'),
    strict: { verdict: 'valid' },
    compat: { verdict: 'valid' },
    check: (compat) => expect(compat.skill?.body).toBe('# Part one\n\n---\n\n# Part two'),
  },
  { n: 37, title: 'body over 500 lines', make: simple('pdf-tools', basicFields('pdf-tools'), longBody), strict: { verdict: 'warn', rules: ['F6'] }, compat: { verdict: 'warn', rules: ['F6'] } },
  {
    n: 38,
    title: 'allowed-tools as list',
    make: simple('pdf-tools', basicFields('pdf-tools', 'allowed-tools:\n  - Read\n  - Bash(git:*)')),
    strict: { verdict: 'warn', rules: ['T1'] },
    compat: { verdict: 'valid' },
  },
  { n: 39, title: 'unsafe name', make: named('../evil', 'evil'), strict: { verdict: 'invalid', rules: ['N6'] }, compat: { verdict: 'invalid', rules: ['H-path'] } },
  { n: 40, title: 'Hermes-style name', make: named('my.skill_v2'), strict: { verdict: 'invalid', rules: ['N6'] }, compat: { verdict: 'warn', rules: ['N6'] } },
];

function expectVerdict(result: SkillDirValidation, expected: Expected): void {
  const summary = result.issues.map((i) => `${i.severity} ${i.rule}: ${i.message}`);
  expect({ verdict: result.verdict, issues: summary }).toMatchObject({ verdict: expected.verdict });
  for (const rule of expected.rules ?? []) expect(result.issues.map((i) => i.rule), `rule ${rule} in ${summary.join('; ')}`).toContain(rule);
  if (expected.verdict === 'valid') expect(result.issues).toEqual([]);
  if (expected.verdict === 'warn') expect(result.issues.every((i) => i.severity === 'warning')).toBe(true);
  // Loadable exactly when not invalid: the loader must never half-load a skipped skill.
  expect(result.skill === undefined).toBe(expected.verdict === 'invalid');
}

describe('SKILLS-SPEC §9 cases 1–40 in strict and compat mode', () => {
  for (const c of cases) {
    it(`case ${c.n}: ${c.title} — strict ${c.strict.verdict}, compat ${c.compat.verdict}`, () => {
      const tmp = tempDir();
      const path = c.make(tmp);
      const strict = validateSkillDir(path, 'strict');
      const compat = validateSkillDir(path, 'compat');
      expectVerdict(strict, c.strict);
      expectVerdict(compat, c.compat);
      c.check?.(compat, strict);
    });
  }
});

describe('format details the table implies', () => {
  it('strict mode reads every scalar as a string (F4), compat mode as YAML 1.2 types', () => {
    // Catches a strict parser that lets `true`/`1` through as booleans/numbers (the reference reads them as text).
    const dir = writeSkill(tempDir(), 'pdf-tools', skillMd(basicFields('pdf-tools', 'metadata:\n  enabled: true\n  count: 3')));
    expect(validateSkillDir(dir, 'strict').skill?.frontmatter.metadata).toEqual({ enabled: 'true', count: '3' });
    expect(validateSkillDir(dir, 'compat').skill?.frontmatter.metadata).toEqual({ enabled: true, count: 3 });
  });

  it('strict mode rejects anchors and aliases, which strictyaml refuses', () => {
    const dir = writeSkill(tempDir(), 'pdf-tools', skillMd('name: &n pdf-tools\ndescription: *n'));
    const result = validateSkillDir(dir, 'strict');
    expect(result.verdict).toBe('invalid');
    expect(result.issues.map((i) => i.rule)).toContain('F4');
  });

  it('a Windows-saved SKILL.md (CRLF, BOM) is the same skill', () => {
    // Catches a fence check that only accepts "\n": every Windows-authored skill would be "no frontmatter".
    const text = `\uFEFF${skillMd(basicFields('pdf-tools'))}`.replace(/\n/g, '\r\n');
    const result = validateSkillDir(writeSkill(tempDir(), 'pdf-tools', text), 'strict');
    expect(result.verdict).toBe('valid');
    expect(result.skill?.body).toBe('# Steps\n\n1. Read the input.\n2. Do the work.');
  });

  it('compat: the colon-quoting retry leaves block scalar text exactly as written', () => {
    // Catches the retry "fixing" `Needs: poppler: any` inside a literal block, silently changing its text.
    const fields = 'name: pdf-tools\ndescription: Use when: converting PDFs\ncompatibility: |\n  Needs: poppler: any version\n  Network: no';
    const result = validateSkillDir(writeSkill(tempDir(), 'pdf-tools', skillMd(fields)), 'compat');
    expect(result.verdict).toBe('warn');
    expect(result.skill?.frontmatter.compatibility).toBe('Needs: poppler: any version\nNetwork: no\n');
    expect(result.skill?.description).toBe('Use when: converting PDFs');
  });

  it('compat: `metadata` written as a JSON string is parsed with JSON5, as OpenClaw does', () => {
    const fields = basicFields('pdf-tools', `metadata: '{"openclaw": {"emoji": "📄", "os": ["linux"]}}'`);
    const result = validateSkillDir(writeSkill(tempDir(), 'pdf-tools', skillMd(fields)), 'compat');
    expect(result.verdict).toBe('valid');
    expect(result.skill?.frontmatter.metadata).toEqual({ openclaw: { emoji: '📄', os: ['linux'] } });
  });

  it('compat: a JSON5 metadata block with comments is read by JSON5, not folded into YAML keys', () => {
    // YAML alone would turn "// who to call" into part of a key; OpenClaw reads the block with JSON5.
    const fields = basicFields('pdf-tools', 'metadata:\n  {\n    // who to call\n    "openclaw": { "requires": { "bins": ["op"] }, },\n  }');
    const result = validateSkillDir(writeSkill(tempDir(), 'pdf-tools', skillMd(fields)), 'compat');
    expect(result.skill?.frontmatter.metadata).toEqual({ openclaw: { requires: { bins: ['op'] } } });
  });

  it('compat: metadata that is neither YAML nor JSON5 is a hard failure with the YAML error (F3), not a silent drop', () => {
    const fields = 'name: pdf-tools\ndescription: Does X. Use when Y.\nmetadata: {openclaw: {emoji: "x"\nlicense: MIT';
    const result = validateSkillDir(writeSkill(tempDir(), 'pdf-tools', skillMd(fields)), 'compat');
    expect(result.verdict).toBe('invalid');
    expect(result.issues.map((i) => i.rule)).toEqual(['F3']);
  });

  it('a link deeper than one level below the skill is a style warning (D5), a one-level link is not', () => {
    const body = 'See [forms](references/forms.md) and [deep](references/a/b.md) and [site](https://example.com/a/b/c).\n';
    const result = validateSkillDir(writeSkill(tempDir(), 'pdf-tools', skillMd(basicFields('pdf-tools'), body)), 'strict');
    expect(result.verdict).toBe('warn');
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ rule: 'D5', severity: 'warning' });
    expect(result.issues[0]?.message).toContain('references/a/b.md');
  });

  it('a SKILL.md that links to a file outside its folder is not read (H-symlink)', async () => {
    // Catches a loader that would pull e.g. ~/.ssh/config into the prompt through a planted link.
    const { symlinkSync } = await import('node:fs');
    const tmp = tempDir();
    writeFileSync(join(tmp, 'outside.md'), skillMd(basicFields('pdf-tools')));
    mkdirSync(join(tmp, 'pdf-tools'));
    symlinkSync(join(tmp, 'outside.md'), join(tmp, 'pdf-tools', 'SKILL.md'));
    const result = validateSkillDir(join(tmp, 'pdf-tools'), 'compat');
    expect(result.verdict).toBe('invalid');
    expect(result.issues[0]?.rule).toBe('H-symlink');
  });

  it('Hermes and OpenClaw extensions are kept as structured data', () => {
    const fields = [
      'name: deploy-docs',
      'description: Publish the docs site. Use when docs changed.',
      'disable-model-invocation: true',
      'metadata:',
      '  hermes:',
      '    tags: [Docs, deploy]',
      '    category: devops',
    ].join('\n');
    const result = validateSkillDir(writeSkill(tempDir(), 'deploy-docs', skillMd(fields)), 'compat');
    expect(result.verdict).toBe('valid');
    expect(result.skill).toMatchObject({ tags: ['docs', 'deploy'], category: 'devops', disableModelInvocation: true });
  });
});
