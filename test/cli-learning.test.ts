import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/** The learning commands through the real `hearth` binary: registered, and wired to the same engine. */
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function installSkill(home: string): void {
  const dir = join(home, 'skills', 'release-notes');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'SKILL.md'),
    '---\nname: release-notes\ndescription: Write release notes from the git log. Use when the user asks for release notes or a changelog.\n---\n# Release notes\n\n1. Run `git log --oneline`.\n2. Group the commits by feature.\n',
  );
}

describe('learning commands in the CLI', () => {
  it('hearth memory, skills and pending are registered and read the same home', async () => {
    const env = freshHomeEnv();
    installSkill(env.HEARTH_HOME as string);
    const memory = await runHearth(['memory', 'show', '--json'], { env });
    expect(memory.code).toBe(0);
    expect(JSON.parse(memory.stdout)).toMatchObject({ memory: expect.anything(), user: expect.anything() });
    const skills = await runHearth(['skills', 'list', '--json'], { env });
    expect((JSON.parse(skills.stdout) as { skills: { name: string }[] }).skills.map((s) => s.name)).toEqual(['release-notes']);
    const pending = await runHearth(['pending', 'list'], { env });
    expect(pending.stdout).toBe('Nothing is waiting for approval.\n');
    const help = await runHearth(['--help'], { env });
    expect(help.stdout).toMatch(/hearth memory[\s\S]*hearth skills[\s\S]*hearth pending/);
  });

  it('/<skill-name> in chat sends the skill instructions with the request, and /skills lists it', async () => {
    const server = await startScriptedOpenAIServer([{ text: 'Notes written.' }]);
    servers.push(server);
    const env = freshHomeEnv();
    installSkill(env.HEARTH_HOME as string);
    const result = await runHearth(['chat', '--model', 'openai:s', '--base-url', server.url], { env, input: '/skills\n/release-notes for v1.2\n/quit\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('/release-notes');
    const body = server.requests[0] as { messages: { role: string; content: string }[] };
    const user = body.messages.find((m) => m.role === 'user')!;
    // Catches activation that sends only the name (the model never sees the instructions) or drops the request.
    expect(user.content).toContain('<skill_content name="release-notes">');
    expect(user.content).toContain('git log --oneline');
    expect(user.content).toContain('for v1.2');
    // The system prompt lists the skill in the catalog.
    expect(body.messages[0]!.content).toContain('<name>release-notes</name>');
  });
});
