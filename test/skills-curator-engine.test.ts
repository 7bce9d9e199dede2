import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skillsCommand } from '../src/cli/commands/skills.js';
import type { CliIO } from '../src/cli/io.js';
import { openEngine } from '../src/core/engine.js';
import { SkillUsageStore } from '../src/core/skills/usage.js';
import { openStore } from '../src/core/store/open-store.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { skillMd, tempDir } from './fixtures/skills/write-skill.js';

/**
 * The curator as the engine runs it: at start-up, at most once a week, archiving only stale skills the
 * agent created, telling the user how to restore them; `hearth skills archived|restore` bring them back.
 */
const DAY = 86_400_000;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function writeHomeSkill(home: string, name: string): string {
  const dir = join(home, 'skills', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), skillMd(`name: ${name}\ndescription: Does ${name} things. Use when ${name} is asked for.`));
  return dir;
}

describe('skill curator at engine start', () => {
  it('archives a stale agent-created skill once, keeps the user\'s, and restore brings it back', async () => {
    const env = freshHomeEnv();
    const home = env.HEARTH_HOME as string;
    // A model that is never called: the engine only needs one configured.
    writeFileSync(join(home, 'config.yaml'), 'version: 1\nmodel:\n  default: idle:m\nproviders:\n  idle: { type: openai, base_url: "http://127.0.0.1:9/v1" }\n');
    const stale = writeHomeSkill(home, 'old-agent-skill');
    const mine = writeHomeSkill(home, 'old-user-skill');
    const store = openStore(home, { env });
    const usage = new SkillUsageStore(store.db);
    usage.markCreated('old-agent-skill', 'agent', Date.now() - 200 * DAY);
    usage.markCreated('old-user-skill', 'user', Date.now() - 200 * DAY);
    store.close();

    const warnings: string[] = [];
    const workspace = tempDir('hearth-curator-ws-');
    const engine = await openEngine({ env, workspace, userHome: workspace, onWarning: (w) => warnings.push(w) });
    closers.push(() => engine.dispose());
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(mine)).toBe(true); // the user's skill is never touched
    const notice = warnings.find((w) => w.includes("Archived the skill 'old-agent-skill'"));
    expect(notice).toMatch(/hearth skills restore old-agent-skill-\S+/);
    expect(engine.learning.skills.find('old-agent-skill')).toBeUndefined();
    await engine.dispose();
    closers.pop();

    let out = '';
    const io: CliIO = { out: (t) => (out += t), err: () => undefined, env, cwd: workspace, stdin: process.stdin, isTTY: false };
    expect(await skillsCommand(['archived', '--json'], io)).toBe(0);
    const [archived] = JSON.parse(out) as { archivedName: string }[];
    out = '';
    expect(await skillsCommand(['restore', archived!.archivedName], io)).toBe(0);
    expect(out).toContain("Restored 'old-agent-skill'");
    expect(existsSync(join(stale, 'SKILL.md'))).toBe(true);

    // The next start within the week does not run the curator again (and restore counted as activity).
    const again = await openEngine({ env, workspace, userHome: workspace, onWarning: (w) => warnings.push(w) });
    closers.push(() => again.dispose());
    expect(existsSync(stale)).toBe(true);
    expect(again.learning.curateIfDue(Date.now() + 8 * DAY)).toEqual([]); // restored = recently active
  });
});
