import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/**
 * `hearth learning log` and the doctor's learning line through the real binary: a `hearth run` whose background
 * review had its only write refused leaves a journal entry nobody watched being made, and the doctor names it.
 */
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface WireMessage {
  role: string;
  content: string | null;
}

describe('hearth learning log', () => {
  it('lists a refused review with its reason (text and --json), and hearth doctor warns about it', async () => {
    const server = await startScriptedOpenAIServer((body) => {
      const messages = (body as { messages: WireMessage[] }).messages;
      const review = messages.some((m) => m.role === 'user' && m.content?.includes('[Background review]'));
      if (!review) return { text: 'Done.' };
      if (messages.at(-1)!.role === 'tool') return { text: 'Saved.' };
      return { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: 'deploy-docs', old_string: 'a', new_string: 'b' } }] };
    });
    servers.push(server);
    const env = freshHomeEnv();
    writeFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), 'version: 1\nmemory:\n  nudge_interval: 1\nuser_model:\n  enabled: false\n');

    const empty = await runHearth(['learning', 'log'], { env });
    expect(empty.stdout).toBe('No background learning has run yet.\n');
    const run = await runHearth(['run', '--model', 'openai:s', '--base-url', server.url, 'Deploy the docs.'], { env });
    expect(run.code).toBe(0);

    const log = await runHearth(['learning', 'log'], { env });
    expect(log.code).toBe(0);
    // Newest first: the review, then the curator's first (empty) run when the engine opened.
    expect(log.stdout).toMatch(/^✗ #2 .* memory review · refused · skill_manage refused: .*deploy-docs.*\n· #1 .* curator · nothing\n$/);
    const json = await runHearth(['learning', 'log', '--json'], { env });
    const runs = JSON.parse(json.stdout) as { kind: string; outcome: string; refused: { tool: string }[] }[];
    expect(runs).toEqual([
      expect.objectContaining({ kind: 'memory_review', outcome: 'refused', refused: [expect.objectContaining({ tool: 'skill_manage' })] }),
      expect.objectContaining({ kind: 'curator', outcome: 'nothing' }),
    ]);

    const doctor = await runHearth(['doctor'], { env });
    // Catches a doctor that is silent about background failures nobody saw.
    expect(doctor.stdout).toMatch(/⚠ learning: 1 background run failed in the last 24 hours: #2 memory review · refused/);
    const bad = await runHearth(['learning', 'log', '--limit', 'x'], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--limit takes a positive whole number');
  }, 120_000);
});
