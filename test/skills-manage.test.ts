import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HearthErrorCode } from '../src/core/errors.js';
import { listArchivedSkills, restoreSkill } from '../src/core/skills/curator.js';
import { loadSkillLibrary } from '../src/core/skills/library.js';
import { manageSkill, type SkillManageContext, type SkillManageRequest } from '../src/core/skills/manage.js';
import { SkillUsageStore } from '../src/core/skills/usage.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

let temp: TempStore;
let home: string;
let project: string;
let outside: string;
let usage: SkillUsageStore;

const skillMd = (name: string, description: string, body = `# ${name}\n\n1. Do the thing.\n`): string => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

beforeEach(() => {
  temp = createTempStore('hearth-skill-manage-');
  home = mkdtempSync(join(tmpdir(), 'hearth-home-'));
  project = mkdtempSync(join(tmpdir(), 'hearth-project-'));
  outside = mkdtempSync(join(tmpdir(), 'hearth-outside-'));
  usage = new SkillUsageStore(temp.open().db);
  mkdirSync(join(home, 'skills'), { recursive: true });
  mkdirSync(join(project, 'repo-skill'), { recursive: true });
  writeFileSync(join(project, 'repo-skill', 'SKILL.md'), skillMd('repo-skill', 'Build this repository with its custom make targets.'));
  mkdirSync(join(home, 'skills', 'user-notes'), { recursive: true });
  writeFileSync(join(home, 'skills', 'user-notes', 'SKILL.md'), skillMd('user-notes', 'Keep meeting notes in the shared notebook format.'));
});

afterEach(() => {
  temp.cleanup();
  for (const dir of [home, project, outside]) rmSync(dir, { recursive: true, force: true });
});

/** A fresh scan each call, as the tool does after every write. */
function context(): SkillManageContext {
  const library = loadSkillLibrary([
    { path: project, scope: 'project', label: '<project>/.agents/skills' },
    { path: join(home, 'skills'), scope: 'user', label: 'HEARTH_HOME/skills' },
  ]);
  return { library, usage, home };
}

const run = (request: SkillManageRequest): ReturnType<typeof manageSkill> => manageSkill(context(), request);

async function refused(request: SkillManageRequest, code: HearthErrorCode, message: RegExp): Promise<void> {
  await expect(run(request)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
}

const DEPLOY = skillMd('deploy-docs', 'Publish the documentation site to GitHub Pages after a release. Use when docs changed.');
const SKILL_PATH = (): string => join(home, 'skills', 'deploy-docs', 'SKILL.md');

describe('create', () => {
  it('writes a valid skill to HEARTH_HOME/skills/<name>, marks it agent-created, and it loads', async () => {
    const done = await run({ action: 'create', name: 'deploy-docs', content: DEPLOY });
    expect(done).toMatchObject({ change: 'created', name: 'deploy-docs', path: SKILL_PATH(), dryRun: false });
    expect(readFileSync(SKILL_PATH(), 'utf8')).toBe(DEPLOY);
    expect(usage.get('deploy-docs')?.createdBy).toBe('agent');
    expect(context().library.skills.map((s) => s.name)).toContain('deploy-docs');
    expect(readdirSync(join(home, 'skills', 'deploy-docs'))).toEqual(['SKILL.md']); // no temp file left behind
  });

  it('refuses invalid content with every problem listed, and writes nothing', async () => {
    await refused({ action: 'create', name: 'broken', content: '---\nname: broken\n---\n# no description\n' }, 'skill_invalid', /not valid[\s\S]*- \[S1\]/);
    await refused({ action: 'create', name: 'Bad_Name', content: skillMd('Bad_Name', 'Does things.') }, 'skill_invalid', /N4[\s\S]*|lowercase/);
    await refused({ action: 'create', name: 'other-name', content: DEPLOY }, 'skill_invalid', /must stay "other-name"/);
    await refused({ action: 'create', name: '../escape', content: DEPLOY }, 'skill_invalid', /path separator/);
    expect(readdirSync(join(home, 'skills')).sort()).toEqual(['user-notes']);
  });

  it('refuses a second skill of the same name and a near-duplicate, pointing at patch', async () => {
    await run({ action: 'create', name: 'deploy-docs', content: DEPLOY });
    await refused({ action: 'create', name: 'deploy-docs', content: DEPLOY }, 'skill_conflict', /already exists[\s\S]*patch/);
    const copy = skillMd('docs-deploy', 'Publish the documentation site to GitHub Pages after each release. Use when the docs changed.');
    await refused({ action: 'create', name: 'docs-deploy', content: copy }, 'skill_conflict', /nearly duplicate the existing skill 'deploy-docs'[\s\S]*Patch 'deploy-docs'/);
    expect(existsSync(join(home, 'skills', 'docs-deploy'))).toBe(false);
  });

  it('dry run checks everything but writes nothing (used when writes need approval)', async () => {
    const done = await manageSkill(context(), { action: 'create', name: 'deploy-docs', content: DEPLOY }, { dryRun: true });
    expect(done.dryRun).toBe(true);
    expect(existsSync(SKILL_PATH())).toBe(false);
    expect(usage.get('deploy-docs')).toBeNull();
  });
});

describe('patch and edit', () => {
  beforeEach(async () => {
    await run({ action: 'create', name: 'deploy-docs', content: DEPLOY });
  });

  it('patch replaces a unique old_string, re-validates, counts the patch and returns a diff', async () => {
    const done = await run({ action: 'patch', name: 'deploy-docs', old_string: '1. Do the thing.', new_string: '1. Run `npm run docs:build` first.' });
    expect(readFileSync(SKILL_PATH(), 'utf8')).toContain('1. Run `npm run docs:build` first.');
    expect(done.diff).toContain('+1. Run `npm run docs:build` first.');
    expect(usage.get('deploy-docs')?.patchCount).toBe(1);
  });

  it('patch names the problem when old_string is missing or ambiguous, and leaves the file alone', async () => {
    await refused({ action: 'patch', name: 'deploy-docs', old_string: 'not in the file', new_string: 'x' }, 'skill_invalid', /not found in SKILL\.md of skill 'deploy-docs'/);
    await refused({ action: 'patch', name: 'deploy-docs', old_string: 'deploy-docs', new_string: 'x' }, 'skill_invalid', /matches 2 places .*lines 2, 5/);
    await refused({ action: 'patch', name: 'deploy-docs', old_string: 'description: Publish the documentation site to GitHub Pages after a release. Use when docs changed.', new_string: 'description: ""' }, 'skill_invalid', /not valid[\s\S]*\[S2\]/);
    expect(readFileSync(SKILL_PATH(), 'utf8')).toBe(DEPLOY);
  });

  it('edit replaces the whole SKILL.md but may not rename the skill', async () => {
    const next = skillMd('deploy-docs', 'Publish the documentation site to GitHub Pages after a release.', '# Deploy\n\nUse the docs workflow.\n');
    await run({ action: 'edit', name: 'deploy-docs', content: next });
    expect(readFileSync(SKILL_PATH(), 'utf8')).toBe(next);
    await refused({ action: 'edit', name: 'deploy-docs', content: skillMd('renamed', 'Something else entirely here.') }, 'skill_invalid', /must stay "deploy-docs"/);
    await refused({ action: 'edit', name: 'no-such-skill', content: next }, 'skill_not_found', /No skill named 'no-such-skill'/);
  });

  it('project skills are read-only for the agent; user skills in HEARTH_HOME can be patched in place', async () => {
    await refused({ action: 'patch', name: 'repo-skill', old_string: 'Do the thing', new_string: 'x' }, 'skill_forbidden', /read-only/);
    await run({ action: 'patch', name: 'user-notes', old_string: 'Do the thing', new_string: 'Write the notes' });
    expect(readFileSync(join(home, 'skills', 'user-notes', 'SKILL.md'), 'utf8')).toContain('Write the notes');
  });
});

describe('delete', () => {
  it('archives an agent-created skill (restorable) and refuses user and project skills', async () => {
    await run({ action: 'create', name: 'deploy-docs', content: DEPLOY });
    const done = await run({ action: 'delete', name: 'deploy-docs' });
    expect(done.change).toBe('deleted');
    expect(existsSync(join(home, 'skills', 'deploy-docs'))).toBe(false);
    expect(readFileSync(join(done.archivedTo ?? '', 'SKILL.md'), 'utf8')).toBe(DEPLOY);
    expect(usage.get('deploy-docs')?.archivedAt).not.toBeNull();

    restoreSkill(home, listArchivedSkills(home)[0]?.archivedName ?? '', usage);
    expect(readFileSync(SKILL_PATH(), 'utf8')).toBe(DEPLOY);

    await refused({ action: 'delete', name: 'user-notes' }, 'skill_forbidden', /not created by the agent/);
    await refused({ action: 'delete', name: 'repo-skill' }, 'skill_forbidden', /read-only/);
    expect(existsSync(join(home, 'skills', 'user-notes', 'SKILL.md'))).toBe(true);
  });
});

describe('write_file and remove_file', () => {
  beforeEach(async () => {
    await run({ action: 'create', name: 'deploy-docs', content: DEPLOY });
  });

  it('writes and removes support files under the allowed folders', async () => {
    await run({ action: 'write_file', name: 'deploy-docs', file_path: 'scripts/build.sh', file_content: 'npm run docs\n' });
    expect(readFileSync(join(home, 'skills', 'deploy-docs', 'scripts', 'build.sh'), 'utf8')).toBe('npm run docs\n');
    await run({ action: 'remove_file', name: 'deploy-docs', file_path: 'scripts/build.sh' });
    expect(existsSync(join(home, 'skills', 'deploy-docs', 'scripts', 'build.sh'))).toBe(false);
    await refused({ action: 'remove_file', name: 'deploy-docs', file_path: 'scripts/build.sh' }, 'skill_not_found', /has no file/);
    expect(usage.get('deploy-docs')?.patchCount).toBe(2);
  });

  it('refuses path traversal, absolute paths and files outside references/ scripts/ assets/ templates/', async () => {
    for (const file_path of ['../x', 'references/../../x', 'references/../SKILL.md', '/etc/passwd', 'SKILL.md', 'notes.md', 'other/x.md', 'references']) {
      await refused({ action: 'write_file', name: 'deploy-docs', file_path, file_content: 'pwned' }, 'skill_forbidden', /file_path/);
    }
    expect(readFileSync(SKILL_PATH(), 'utf8')).toBe(DEPLOY);
    expect(existsSync(join(home, 'skills', 'x'))).toBe(false);
  });

  it('refuses to write or remove through a symlink that escapes the skill', async () => {
    writeFileSync(join(outside, 'target.txt'), 'keep me');
    symlinkSync(outside, join(home, 'skills', 'deploy-docs', 'assets'));
    await refused({ action: 'write_file', name: 'deploy-docs', file_path: 'assets/evil.txt', file_content: 'pwned' }, 'skill_forbidden', /symbolic link/);
    await refused({ action: 'remove_file', name: 'deploy-docs', file_path: 'assets/target.txt' }, 'skill_forbidden', /symbolic link/);
    mkdirSync(join(home, 'skills', 'deploy-docs', 'references'));
    symlinkSync(join(outside, 'target.txt'), join(home, 'skills', 'deploy-docs', 'references', 'link.md'));
    await refused({ action: 'write_file', name: 'deploy-docs', file_path: 'references/link.md', file_content: 'pwned' }, 'skill_forbidden', /symbolic link/);
    expect(readdirSync(outside)).toEqual(['target.txt']);
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('keep me');
  });
});
