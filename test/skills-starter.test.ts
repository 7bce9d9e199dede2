/**
 * The starter skills Hearth ships: spec-valid, clean under the injection scanner, installed into a new
 * HEARTH_HOME/skills by the real engine on its first start, listed by the app, removable with the existing
 * remove path, never restored once removed, and never written over a skill of the same name.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppService } from '../src/core/app/service.js';
import { openEngine } from '../src/core/engine.js';
import { scanForInjection } from '../src/core/safety/injection/scan.js';
import { loadSkillLibrary } from '../src/core/skills/library.js';
import { rankSkills } from '../src/core/skills/relevance.js';
import { installStarterSkills, STARTER_MARKER, starterSkillsDir, starterSkillsEnabled } from '../src/core/skills/starter.js';
import { validateSkillDir } from '../src/core/skills/validate.js';
import { skillsCommand } from '../src/cli/commands/skills.js';
import type { CliIO } from '../src/cli/io.js';
import { modelsUnavailableForTests, startAppHarness, type AppHarness } from './fixtures/app-engine.js';

const shipped = readdirSync(starterSkillsDir(), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const harnesses: AppHarness[] = [];
const temps: string[] = [];
let before: string | undefined;

beforeAll(() => {
  // vitest.config.ts turns them off for every other test (their fresh homes expect an empty library).
  before = process.env.HEARTH_STARTER_SKILLS;
  process.env.HEARTH_STARTER_SKILLS = 'on';
});
afterAll(() => {
  if (before === undefined) delete process.env.HEARTH_STARTER_SKILLS;
  else process.env.HEARTH_STARTER_SKILLS = before;
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the bundled starter skills', () => {
  it('are few, pass the strict (skills-ref) validator, and the injection scan finds nothing in them', () => {
    // Catches a shipped skill that would be skipped or flagged on install (a new user would get fewer skills
    // and a warning), or a starter set grown into the dozens of forced skills users of other agents complain of.
    expect(shipped.length).toBeGreaterThanOrEqual(3);
    expect(shipped.length).toBeLessThanOrEqual(5);
    for (const name of shipped) {
      const dir = join(starterSkillsDir(), name);
      const validation = validateSkillDir(dir, 'strict');
      expect(validation.issues, name).toEqual([]);
      expect(validation.skill?.name).toBe(name);
      expect(validation.skill?.description).toMatch(/Use when/);
      const scan = scanForInjection(readFileSync(join(dir, 'SKILL.md'), 'utf8'), { source: 'skill' });
      expect(scan.verdict, `${name}: ${JSON.stringify(scan.findings)}`).toBe('clean');
    }
  });

  it('each is the top match for the everyday request it is for, and none answers an unrelated one', () => {
    // Catches starter skills whose descriptions overlap (the wrong one offered) or match everything (offered always).
    const { skills } = loadSkillLibrary([{ path: starterSkillsDir(), scope: 'user', label: 'skills-starter' }]);
    const requests: Record<string, string> = {
      'commit-message': 'write a commit message for my staged changes',
      'document-notes': 'summarise this long report into notes',
      'review-diff': 'can you review this pull request',
      'debug-failing-test': 'my test fails in CI with an assertion error',
    };
    for (const [name, request] of Object.entries(requests)) {
      if (!shipped.includes(name)) continue;
      expect(rankSkills(skills, request)[0]?.skill.name, request).toBe(name);
    }
    expect(rankSkills(skills, 'what is the capital of France')).toEqual([]);
  });

  it('a fresh home gets them on the engine\'s first start, listed by skills.list and recorded as bundled', async () => {
    // Catches: the first-run hook not wired into the engine (a new user still sees "No skills match").
    const app = await startAppHarness([]);
    harnesses.push(app);
    const listed = await app.service.handlers['skills.list']({});
    expect(listed.map((s) => s.name).sort()).toEqual(shipped);
    expect(listed.every((s) => s.scope === 'user' && s.editable)).toBe(true);
    const marker = JSON.parse(readFileSync(join(app.home, 'skills', STARTER_MARKER), 'utf8')) as { skills: { name: string; provenance: string; sha256: string }[] };
    expect(marker.skills.map((s) => [s.name, s.provenance])).toEqual(shipped.map((name) => [name, 'bundled']));
    for (const name of shipped) {
      expect(readFileSync(join(app.home, 'skills', name, 'SKILL.md'), 'utf8')).toBe(readFileSync(join(starterSkillsDir(), name, 'SKILL.md'), 'utf8'));
    }
  });

  it('one removed with skills.delete stays removed at the next start; the others stay', async () => {
    // Catches: a starter skill the user deleted coming back every time Hearth starts.
    const app = await startAppHarness([]);
    const [removed, ...kept] = shipped as [string, ...string[]];
    await app.service.handlers['skills.delete']({ name: removed });
    await app.close();

    const engine = await openEngine({ env: app.env, workspace: app.workspace, userHome: app.userHome });
    const service = createAppService(engine, { source: 'web', models: modelsUnavailableForTests() });
    try {
      const listed = (await service.handlers['skills.list']({})).map((s) => s.name).sort();
      expect(listed).toEqual(kept);
      expect(existsSync(join(app.home, 'skills', removed))).toBe(false);
    } finally {
      await service.dispose();
      await engine.dispose();
      await app.server.close().catch(() => undefined);
    }
  });

  it('never overwrites a skill of the same name, and does nothing once the marker is there', () => {
    // Catches: a user's own "commit-message" skill replaced by Hearth's on first run, or a second run reinstalling.
    const skillsDir = join(mkdtempSync(join(tmpdir(), 'hearth-starter-')), 'skills');
    temps.push(join(skillsDir, '..'));
    const mine = `---\nname: ${shipped[0]}\ndescription: My own version. Use when I say so.\n---\nMine.\n`;
    mkdirSync(join(skillsDir, shipped[0]!), { recursive: true });
    writeFileSync(join(skillsDir, shipped[0]!, 'SKILL.md'), mine);

    const first = installStarterSkills(skillsDir);
    expect(first).toMatchObject({ alreadyDone: false, kept: [shipped[0]], failed: [] });
    expect(first.installed.map((s) => s.name)).toEqual(shipped.slice(1));
    expect(readFileSync(join(skillsDir, shipped[0]!, 'SKILL.md'), 'utf8')).toBe(mine);

    rmSync(join(skillsDir, shipped[1]!), { recursive: true });
    expect(installStarterSkills(skillsDir)).toMatchObject({ alreadyDone: true, installed: [] });
    expect(existsSync(join(skillsDir, shipped[1]!))).toBe(false);
  });

  it('`hearth skills list` on a home no engine has opened shows them too, and a removed one stays removed', async () => {
    // Catches: the CLI reading the library before the first-run install (a new user of the terminal saw none).
    const home = mkdtempSync(join(tmpdir(), 'hearth-starter-cli-'));
    temps.push(home);
    const list = async (): Promise<string[]> => {
      let out = '';
      const io: CliIO = { out: (t) => (out += t), err: () => undefined, env: { HEARTH_HOME: home, HOME: home, HEARTH_STARTER_SKILLS: 'on' }, cwd: home, stdin: process.stdin, isTTY: false };
      expect(await skillsCommand(['list', '--json'], io)).toBe(0);
      return (JSON.parse(out) as { skills: Array<{ name: string }> }).skills.map((s) => s.name).sort();
    };
    expect(await list()).toEqual(shipped);
    rmSync(join(home, 'skills', shipped[0] as string), { recursive: true });
    expect(await list()).toEqual(shipped.slice(1));
  });

  it('a missing starter folder writes no marker (a repaired install still gets them); HEARTH_STARTER_SKILLS=off turns them off', () => {
    // Catches: a broken package marking the home as done forever, or the opt-out being ignored.
    const skillsDir = join(mkdtempSync(join(tmpdir(), 'hearth-starter-')), 'skills');
    temps.push(join(skillsDir, '..'));
    const result = installStarterSkills(skillsDir, join(skillsDir, '..', 'nowhere'));
    expect(result.failed[0]?.reason).toMatch(/starter skills folder .*nowhere cannot be read/);
    expect(existsSync(join(skillsDir, STARTER_MARKER))).toBe(false);
    expect(starterSkillsEnabled({})).toBe(true);
    expect(starterSkillsEnabled({ HEARTH_STARTER_SKILLS: 'off' })).toBe(false);
    expect(starterSkillsEnabled({ HEARTH_STARTER_SKILLS: '0' })).toBe(false);
  });
});
