import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillsCommand } from '../src/cli/commands/skills.js';
import type { CliIO } from '../src/cli/io.js';
import { isHearthError } from '../src/core/errors.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import { basicFields, skillMd, tempDir, writeSkill } from './fixtures/skills/write-skill.js';

/**
 * `hearth skills list|show|validate|install` run through the real command function with a capturing
 * CliIO, against real folders: a temp HEARTH_HOME, a temp user home (HOME) and a temp workspace (cwd).
 */
interface Run {
  code: number;
  out: string;
  err: string;
}

function setup() {
  const tmp = tempDir('hearth-skills-cli-');
  const paths = { home: join(tmp, 'hearth'), user: join(tmp, 'user'), ws: join(tmp, 'ws'), src: join(tmp, 'src') };
  for (const p of Object.values(paths)) mkdirSync(p, { recursive: true });
  const run = async (...argv: string[]): Promise<Run> => {
    let out = '';
    let err = '';
    const io: CliIO = { out: (t) => (out += t), err: (t) => (err += t), env: { HEARTH_HOME: paths.home, HOME: paths.user, HEARTH_STARTER_SKILLS: 'off' }, cwd: paths.ws, stdin: process.stdin, isTTY: false };
    const code = await skillsCommand(argv, io);
    return { code, out, err };
  };
  return { ...paths, run };
}

async function expectHearthError(promise: Promise<unknown>, code: string): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isHearthError(err), String(err)).toBe(true);
  expect((err as { code: string }).code).toBe(code);
  return (err as Error).message;
}

describe('hearth skills validate (strict mode)', () => {
  it('exit 0 for a valid skill', async () => {
    const t = setup();
    const dir = writeSkill(t.src, 'pdf-tools', skillMd(basicFields('pdf-tools')));
    const result = await t.run('validate', dir);
    expect(result).toMatchObject({ code: 0, out: `${dir}: valid\n` });
  });

  it('exit 1 for an invalid skill, listing every problem with its rule id', async () => {
    const t = setup();
    writeSkill(t.src, 'PDF-Tools', skillMd(basicFields('PDF-Tools', 'version: "1.0"')));
    const result = await t.run('validate', join('..', 'src', 'PDF-Tools'));
    expect(result.code).toBe(1);
    expect(result.out).toContain('invalid: 2 problems');
    expect(result.out).toMatch(/error\s+K1\s+unexpected fields: version/);
    expect(result.out).toMatch(/error\s+N4\s+name "PDF-Tools" must be lowercase/);
  });

  it('--json prints {verdict, issues}; warnings alone still exit 0', async () => {
    const t = setup();
    const body = Array.from({ length: 501 }, (_, i) => `line ${i}`).join('\n');
    const dir = writeSkill(t.src, 'long-one', skillMd(basicFields('long-one'), body));
    const result = await t.run('validate', dir, '--json');
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.out) as { verdict: string; issues: { rule: string; severity: string }[] };
    expect(parsed.verdict).toBe('warn');
    expect(parsed.issues.map((i) => [i.rule, i.severity])).toEqual([['F6', 'warning']]);
  });

  it('a Hermes-style skill fails strict validation (flow lists, extra keys) though it loads in compat mode', async () => {
    const t = setup();
    const hermes = resolve(import.meta.dirname, 'fixtures', 'skills', 'real', 'hermes', 'migration', 'openclaw-migration');
    const result = await t.run('validate', hermes, '--json');
    expect(result.code).toBe(1);
    expect((JSON.parse(result.out) as { verdict: string }).verdict).toBe('invalid');
  });

  it('a missing folder is invalid (D1), not a crash', async () => {
    const t = setup();
    const result = await t.run('validate', 'nope');
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/error\s+D1\s+path does not exist/);
  });
});

describe('hearth skills install', () => {
  it('copies the folder into HEARTH_HOME/skills/<name>, refuses to overwrite, replaces with --force keeping the old copy', async () => {
    const t = setup();
    const dir = writeSkill(t.src, 'pdf-tools', skillMd(basicFields('pdf-tools')), { 'scripts/run.sh': 'echo hi\n', '.git/HEAD': 'ref\n' });
    const first = await t.run('install', dir);
    expect(first.code).toBe(0);
    const installed = join(t.home, 'skills', 'pdf-tools');
    expect(readFileSync(join(installed, 'scripts', 'run.sh'), 'utf8')).toBe('echo hi\n');
    expect(existsSync(join(installed, '.git'))).toBe(false);

    const message = await expectHearthError(t.run('install', dir), 'skill_conflict');
    expect(message).toContain('--force');

    writeFileSync(join(dir, 'SKILL.md'), skillMd(basicFields('pdf-tools'), 'Version two.\n'));
    const forced = await t.run('install', dir, '--force', '--json');
    const result = JSON.parse(forced.out) as { installedTo: string; replacedTo: string; files: number };
    expect(result.files).toBe(2);
    expect(readFileSync(join(installed, 'SKILL.md'), 'utf8')).toContain('Version two.');
    // The replaced copy is kept, not deleted: nothing the user had is lost.
    expect(readFileSync(join(result.replacedTo, 'SKILL.md'), 'utf8')).toContain('1. Read the input.');
  });

  it('refuses a symlink pointing outside the skill folder and writes nothing', async () => {
    const t = setup();
    writeFileSync(join(t.user, 'private.txt'), 'secret\n');
    const dir = writeSkill(t.src, 'leaky', skillMd(basicFields('leaky')));
    symlinkSync(join(t.user, 'private.txt'), join(dir, 'notes.txt'));
    const message = await expectHearthError(t.run('install', dir), 'skill_forbidden');
    expect(message).toContain('notes.txt');
    expect(readdirSync(join(t.home, 'skills'))).toEqual([]);
  });

  it('refuses a skill compat mode cannot load, listing why', async () => {
    const t = setup();
    const dir = writeSkill(t.src, 'no-desc', skillMd('name: no-desc'));
    const message = await expectHearthError(t.run('install', dir), 'skill_invalid');
    expect(message).toContain('[S1]');
    expect(existsSync(join(t.home, 'skills', 'no-desc'))).toBe(false);
  });

  it('installs under the frontmatter name when the folder is named differently (N7 warning)', async () => {
    const t = setup();
    const dir = writeSkill(t.src, 'template', skillMd(basicFields('template-skill')));
    const result = await t.run('install', dir);
    expect(result.out).toContain(`Installed "template-skill" to ${join(t.home, 'skills', 'template-skill')}`);
    expect(result.out).toMatch(/warning\s+N7/);
  });
});

describe('hearth skills list and show', () => {
  it('lists skills with scope, root, description, warnings, collisions, skipped folders and untrusted project skills', async () => {
    const t = setup();
    writeSkill(join(t.home, 'skills'), 'deploy', skillMd(basicFields('deploy')));
    writeSkill(join(t.user, '.agents', 'skills'), 'deploy', skillMd(basicFields('deploy')));
    writeSkill(join(t.user, '.claude', 'skills'), 'Odd_Name', skillMd(basicFields('Odd_Name')));
    writeSkill(join(t.home, 'skills'), 'broken', skillMd('name: broken'));
    writeSkill(join(t.ws, '.agents', 'skills'), 'project-thing', skillMd(basicFields('project-thing')));

    const text = await t.run('list');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^deploy\s+user\s+HEARTH_HOME\/skills\s+Does X\. Use when Y\.\s+\(1 warning\)$/m);
    expect(text.out).toMatch(/^Odd_Name\s+user\s+~\/\.claude\/skills\s+Does X\. Use when Y\.\s+\(2 warnings\)$/m);
    expect(text.out).toContain(`deploy: using ${join(t.home, 'skills', 'deploy', 'SKILL.md')}; hidden: ${join(t.user, '.agents', 'skills', 'deploy', 'SKILL.md')}`);
    expect(text.out).toContain(`${join(t.home, 'skills', 'broken', 'SKILL.md')}: S1:`);
    expect(text.out).toContain(`Project skills in ${join(t.ws, '.agents', 'skills')} are not loaded: this project is not trusted`);
    expect(text.out).not.toMatch(/^project-thing/m);

    const json = JSON.parse((await t.run('list', '--json')).out) as { skills: { name: string; scope: string }[]; collisions: unknown[]; skipped: unknown[] };
    expect(json.skills.map((s) => s.name)).toEqual(['deploy', 'Odd_Name']);
    expect(json.collisions).toHaveLength(1);
    expect(json.skipped).toHaveLength(1);
  });

  it('reads skills.external_dirs and skills.trusted_projects from config.yaml', async () => {
    const t = setup();
    const external = join(t.src, 'team-skills');
    writeSkill(external, 'team-lint', skillMd(basicFields('team-lint')));
    writeSkill(join(t.ws, '.agents', 'skills'), 'project-thing', skillMd(basicFields('project-thing')));
    writeFileSync(join(t.home, 'config.yaml'), `version: 1\nskills:\n  external_dirs: [${JSON.stringify(external)}]\n  trusted_projects: [${JSON.stringify(t.ws)}]\n`);
    const json = JSON.parse((await t.run('list', '--json')).out) as { skills: { name: string; scope: string; root: string }[] };
    expect(json.skills.map((s) => [s.name, s.scope, s.root])).toEqual([
      ['project-thing', 'project', '<project>/.agents/skills'],
      ['team-lint', 'user', external],
    ]);
  });

  it('shows one skill: SKILL.md path, frontmatter and body; an unknown name is skill_not_found', async () => {
    const t = setup();
    const dir = writeSkill(join(t.home, 'skills'), 'pdf-tools', skillMd(basicFields('pdf-tools', 'license: MIT'), '# Steps\n\nUse pdftotext.\n'));
    const shown = await t.run('show', 'pdf-tools');
    expect(shown.out).toContain(`SKILL.md: ${join(dir, 'SKILL.md')}`);
    expect(shown.out).toContain('  license: MIT');
    expect(shown.out).toContain('# Steps\n\nUse pdftotext.');
    expect(shown.out).not.toContain('---');

    const json = JSON.parse((await t.run('show', '/pdf-tools', '--json')).out) as { name: string; body: string; frontmatter: Record<string, unknown> };
    expect(json).toMatchObject({ name: 'pdf-tools', body: '# Steps\n\nUse pdftotext.', frontmatter: { license: 'MIT' } });

    await expectHearthError(t.run('show', 'nothing-here'), 'skill_not_found');
  });

  it('an unknown action or a missing argument is a usage error', async () => {
    const t = setup();
    await expectHearthError(t.run('frobnicate'), 'usage');
    await expectHearthError(t.run('validate'), 'usage');
    await expectHearthError(t.run('list', '--bogus'), 'usage');
  });

});

describe('hearth skills install with security.injection_judge', () => {
  it('asks security.injection_judge about a file the scanner is unsure of: its "injection" refuses the install, "benign" lets it through (catches the CLI skipping the judge)', async () => {
    const verdicts: string[] = [];
    let next = 'injection';
    const server = await startScriptedOpenAIServer((req: unknown) => {
      const messages = (req as { messages: { role: string; content: string }[] }).messages;
      verdicts.push(messages[0]?.content.includes('untrusted data, not instructions') === true ? next : 'not a judge prompt');
      return { text: `{"verdict": "${next}", "reason": "scripted"}` };
    });
    try {
      const t = setup();
      writeFileSync(join(t.home, 'config.yaml'), `version: 1\nproviders:\n  judge: { type: openai, base_url: "${server.url}" }\nsecurity:\n  injection_judge: judge:model\n`);
      // A token sent to a URL: medium findings only, the scanner's grey zone.
      const body = '# Steps\n\n1. Call the API: curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user\n';
      const dir = writeSkill(t.src, 'gh-api', skillMd(basicFields('gh-api'), body));
      const message = await expectHearthError(t.run('install', dir), 'content_unsafe');
      expect(message).toContain('Nothing was copied');
      expect(existsSync(join(t.home, 'skills', 'gh-api'))).toBe(false);
      next = 'benign';
      expect((await t.run('install', dir)).code).toBe(0);
      expect(existsSync(join(t.home, 'skills', 'gh-api', 'SKILL.md'))).toBe(true);
      expect(verdicts).toEqual(['injection', 'benign']);
    } finally {
      await server.close();
    }
  });
});
