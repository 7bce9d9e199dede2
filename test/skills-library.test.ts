import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSkillRoots, findSkillDirs, isProjectTrusted } from '../src/core/skills/discover.js';
import { loadSkillLibrary } from '../src/core/skills/library.js';
import type { SkillRoot } from '../src/core/skills/types.js';
import { validateSkillDir } from '../src/core/skills/validate.js';
import { basicFields, skillMd, tempDir, writeSkill } from './fixtures/skills/write-skill.js';

/** SKILLS-SPEC §9 cases 41–44 and 50 (discovery, precedence, trust), scan bounds, real skill folders. */

const userRoot = (path: string, label = 'user'): SkillRoot => ({ path, scope: 'user', label });

describe('discovery and precedence (cases 41–44, 50)', () => {
  it('case 41: the same name in <project>/.agents/skills and ~/.agents/skills: project wins, one collision warning', () => {
    const tmp = tempDir();
    const ws = join(tmp, 'ws');
    const userHome = join(tmp, 'user');
    writeSkill(join(ws, '.agents', 'skills'), 'deploy', skillMd(basicFields('deploy')));
    writeSkill(join(userHome, '.agents', 'skills'), 'deploy', skillMd(basicFields('deploy')));
    const roots = defaultSkillRoots({ home: join(tmp, 'hearth'), workspace: ws, userHome, projectTrusted: true });
    const library = loadSkillLibrary(roots);

    expect(library.skills).toHaveLength(1);
    expect(library.skills[0]?.root.scope).toBe('project');
    expect(library.skills[0]?.dir).toBe(join(ws, '.agents', 'skills', 'deploy'));
    expect(library.collisions).toEqual([
      { name: 'deploy', winner: join(ws, '.agents', 'skills', 'deploy', 'SKILL.md'), shadowed: [join(userHome, '.agents', 'skills', 'deploy', 'SKILL.md')] },
    ]);
    expect(library.skills[0]?.issues.filter((i) => i.rule === 'H-collision')).toHaveLength(1);
  });

  it('roots come in precedence order: project .hearth > .agents > .claude, then HEARTH_HOME, external dirs, ~/.agents, ~/.claude', () => {
    const tmp = tempDir();
    const roots = defaultSkillRoots({ home: join(tmp, 'h'), workspace: join(tmp, 'ws'), userHome: join(tmp, 'u'), externalDirs: ['~/shared-skills', 'rel'], projectTrusted: true });
    expect(roots.map((r) => [r.scope, r.path])).toEqual([
      ['project', join(tmp, 'ws', '.hearth', 'skills')],
      ['project', join(tmp, 'ws', '.agents', 'skills')],
      ['project', join(tmp, 'ws', '.claude', 'skills')],
      ['user', join(tmp, 'h', 'skills')],
      ['user', join(tmp, 'u', 'shared-skills')],
      ['user', join(tmp, 'h', 'rel')],
      ['user', join(tmp, 'u', '.agents', 'skills')],
      ['user', join(tmp, 'u', '.claude', 'skills')],
    ]);
  });

  it('a folder reachable as both a project and a user root is scanned once (workspace = home)', () => {
    // Catches every skill in ~/.agents/skills colliding with itself when the terminal is opened in ~.
    const tmp = tempDir();
    writeSkill(join(tmp, '.agents', 'skills'), 'deploy', skillMd(basicFields('deploy')));
    const roots = defaultSkillRoots({ home: join(tmp, '.hearth'), workspace: tmp, userHome: tmp, projectTrusted: true });
    const library = loadSkillLibrary(roots);
    expect(library.collisions).toEqual([]);
    expect(library.skills.map((s) => s.root.scope)).toEqual(['project']);
  });

  it('case 42: SKILL.md under node_modules/x/ or .git/ is not discovered', () => {
    const root = tempDir();
    writeSkill(join(root, 'node_modules'), 'x', skillMd(basicFields('x')));
    writeSkill(join(root, '.git'), 'hooks', skillMd(basicFields('hooks')));
    writeSkill(join(root, '.archive'), 'old', skillMd(basicFields('old')));
    writeSkill(root, 'kept', skillMd(basicFields('kept')));
    expect(loadSkillLibrary([userRoot(root)]).skills.map((s) => s.name)).toEqual(['kept']);
  });

  it('case 43: SKILL.md 7 folders deep is not discovered; at 6 deep it is', () => {
    const root = tempDir();
    writeSkill(join(root, 'a', 'b', 'c', 'd', 'e'), 'six', skillMd(basicFields('six')));
    writeSkill(join(root, 'a', 'b', 'c', 'd', 'e', 'f'), 'seven', skillMd(basicFields('seven')));
    expect(findSkillDirs(root).found.map((f) => f.segments.length)).toEqual([6]);
    expect(loadSkillLibrary([userRoot(root)]).skills.map((s) => s.name)).toEqual(['six']);
  });

  it('case 44: project skills in an untrusted repository are not loaded until it is trusted', () => {
    const tmp = tempDir();
    const ws = join(tmp, 'repo');
    writeSkill(join(ws, '.agents', 'skills'), 'evil-helper', skillMd(basicFields('evil-helper')));
    const base = { home: join(tmp, 'h'), workspace: ws, userHome: join(tmp, 'u') };

    const untrusted = isProjectTrusted(join(ws, 'src'), [join(tmp, 'other')], base.userHome);
    expect(untrusted).toBe(false);
    expect(loadSkillLibrary(defaultSkillRoots({ ...base, projectTrusted: untrusted })).skills).toEqual([]);

    const trusted = isProjectTrusted(join(ws, 'src'), [ws], base.userHome);
    expect(trusted).toBe(true);
    expect(loadSkillLibrary(defaultSkillRoots({ ...base, projectTrusted: trusted })).skills.map((s) => s.name)).toEqual(['evil-helper']);
  });

  it('case 50: a symlink in a skill root pointing outside it is not followed unless its target is allowed', () => {
    const tmp = tempDir();
    const root = join(tmp, 'root');
    const outside = join(tmp, 'outside');
    writeSkill(outside, 'linked', skillMd(basicFields('linked')));
    mkdirSync(root);
    symlinkSync(outside, join(root, 'shared'));

    const refused = loadSkillLibrary([userRoot(root)]);
    expect(refused.skills).toEqual([]);
    expect(refused.skipped).toHaveLength(1);
    expect(refused.skipped[0]?.path).toBe(join(root, 'shared'));
    expect(refused.skipped[0]?.reason).toContain('outside the skill folder');

    const allowed = loadSkillLibrary([userRoot(root)], { allowedSymlinkTargets: [outside] });
    expect(allowed.skills.map((s) => s.name)).toEqual(['linked']);
  });

  it('a symlink inside the root is followed once, and a link back up the tree does not loop', () => {
    const root = tempDir();
    writeSkill(join(root, 'team'), 'deploy', skillMd(basicFields('deploy')));
    symlinkSync(join(root, 'team'), join(root, 'alias'));
    symlinkSync(root, join(root, 'team', 'loop'));
    const library = loadSkillLibrary([userRoot(root)]);
    expect(library.skills.map((s) => s.name)).toEqual(['deploy']);
    expect(library.collisions).toEqual([]);
  });

  it('a skill folder is not searched further: a template SKILL.md inside a skill is a resource, not a skill', () => {
    const root = tempDir();
    writeSkill(root, 'authoring', skillMd(basicFields('authoring')), { 'templates/example/SKILL.md': skillMd(basicFields('example')) });
    expect(loadSkillLibrary([userRoot(root)]).skills.map((s) => s.name)).toEqual(['authoring']);
  });

  it('scan bounds: the walk stops after 2,000 folders and says so', () => {
    // Catches a root set to ~ (or a monorepo) making every session start walk the whole disk.
    const root = tempDir();
    for (let i = 0; i < 2050; i++) mkdirSync(join(root, `d${String(i).padStart(4, '0')}`));
    writeSkill(root, 'zz-late', skillMd(basicFields('zz-late')));
    writeSkill(root, 'a-early', skillMd(basicFields('a-early')));
    const library = loadSkillLibrary([userRoot(root)]);
    expect(library.skills.map((s) => s.name)).toEqual(['a-early']);
    expect(library.skipped.map((s) => s.reason)).toEqual(['the scan stopped after 2000 folders; skills deeper in this folder were not loaded']);
  });

  it('a bad skill is skipped with its reason, never thrown, and the others still load', () => {
    const root = tempDir();
    writeSkill(root, 'good', skillMd(basicFields('good')));
    writeSkill(root, 'no-description', skillMd('name: no-description'));
    writeSkill(root, 'broken-yaml', skillMd('name: [oops\ndescription: x'));
    const library = loadSkillLibrary([userRoot(root)]);
    expect(library.skills.map((s) => s.name)).toEqual(['good']);
    expect(library.skipped.map((s) => [s.path, s.reason.split(':')[0]])).toEqual([
      [join(root, 'broken-yaml', 'SKILL.md'), 'F3'],
      [join(root, 'no-description', 'SKILL.md'), 'S1'],
    ]);
  });
});

/** Folders modelled on the real-world fixtures of SKILLS-SPEC §9 (written for Hearth, not copied). */
describe('real skill folders (test/fixtures/skills/real)', () => {
  const real = resolve(import.meta.dirname, 'fixtures', 'skills', 'real');
  const library = loadSkillLibrary([userRoot(real, 'fixtures')]);
  const byName = (name: string) => library.skills.find((s) => s.name === name);

  const table: [folder: string, strict: string, strictRule: string | null, compat: string, compatRule: string | null][] = [
    ['pdf-forms', 'valid', null, 'valid', null],
    ['brand-voice', 'valid', null, 'valid', null],
    ['model-api', 'invalid', 'S3', 'warn', 'S3'],
    ['template', 'invalid', 'N7', 'warn', 'N7'],
    ['secret-vault', 'invalid', 'F4', 'valid', null],
    ['hermes/software-development/agent-skill-authoring', 'invalid', 'F4', 'valid', null],
    ['hermes/migration/openclaw-migration', 'invalid', 'F4', 'valid', null],
  ];
  for (const [folder, strictVerdict, strictRule, compatVerdict, compatRule] of table) {
    it(`${folder}: strict ${strictVerdict}, compat ${compatVerdict}`, () => {
      const strict = validateSkillDir(join(real, folder), 'strict');
      const compat = validateSkillDir(join(real, folder), 'compat');
      expect([strict.verdict, compat.verdict], JSON.stringify([strict.issues, compat.issues])).toEqual([strictVerdict, compatVerdict]);
      if (strictRule) expect(strict.issues.map((i) => i.rule)).toContain(strictRule);
      if (compatRule) expect(compat.issues.map((i) => i.rule)).toContain(compatRule);
    });
  }

  it('the 1,068-character block-scalar description is read whole (folded), not cut at the first line', () => {
    expect([...(byName('model-api')?.description ?? '')]).toHaveLength(1068);
  });

  it('every real folder loads in compat mode; nothing is skipped', () => {
    expect(library.skipped).toEqual([]);
    expect(library.skills.map((s) => s.name).sort()).toEqual(['agent-skill-authoring', 'brand-voice', 'model-api', 'openclaw-migration', 'pdf-forms', 'secret-vault', 'template-skill']);
  });

  it('the OpenClaw skill keeps homepage and its parsed JSON5 metadata, with no warnings', () => {
    const skill = byName('secret-vault');
    expect(skill?.issues).toEqual([]);
    expect(skill?.frontmatter.homepage).toBe('https://developer.1password.com/docs/cli/get-started/');
    expect(skill?.frontmatter.metadata).toMatchObject({ openclaw: { emoji: '🔐', requires: { bins: ['op'] }, install: [{ id: 'brew', kind: 'brew' }] } });
  });

  it('the Hermes skills keep version, author and platforms, take tags from metadata.hermes and the category from the layout', () => {
    const authoring = byName('agent-skill-authoring');
    expect(authoring?.issues).toEqual([]);
    expect(authoring?.frontmatter).toMatchObject({ version: '1.2.0', author: 'Hearth fixtures', platforms: ['linux', 'macos'] });
    expect(authoring?.tags).toEqual(['skills', 'authoring', 'documentation']);
    expect(authoring?.category).toBe('software-development');
    expect(byName('openclaw-migration')?.category).toBe('migration');
  });
});
