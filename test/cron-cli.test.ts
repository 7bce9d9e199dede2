import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/** `hearth cron` end to end: the real CLI process, the encrypted store, and a scripted OpenAI-compatible model. */
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function home(script: Parameters<typeof startScriptedOpenAIServer>[0] = []): Promise<{ env: NodeJS.ProcessEnv; cwd: string; server: ScriptedServer }> {
  const server = await startScriptedOpenAIServer(script);
  servers.push(server);
  const env = freshHomeEnv();
  writeFileSync(
    join(env.HEARTH_HOME as string, 'config.yaml'),
    `version: 1\nmodel:\n  default: "scripted:model"\nproviders:\n  scripted: { type: openai, base_url: "${server.url}", context_length: 32768 }\nreview:\n  enabled: false\nuser_model:\n  enabled: false\n`,
  );
  return { env, cwd: realpathSync(mkdtempSync(join(tmpdir(), 'hearth-cron-cli-'))), server };
}

describe('hearth cron', () => {
  // Catches a CLI that stores a job but does not run it through the agent, or reports a run as ok without
  // delivering it: create -> list -> run with a file target whose file then holds the model's answer.
  it('creates a job, lists it, runs it now through the agent, and the file target holds the output', async () => {
    const { env, cwd, server } = await home([{ text: 'Three headlines: A, B, C.' }]);
    const created = await runHearth(['cron', 'create', '--schedule', 'every 1d', '--prompt', 'Summarise the news', '--deliver', 'file:news.md', '--json'], { env, cwd });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect(id).toMatch(/^[0-9a-f]{10}$/);

    const listed = await runHearth(['cron', 'list', '--json'], { env, cwd });
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout) as { jobs: { id: string; understood: string; deliver: string[]; next_run_at: string }[]; unreadable: unknown[] };
    expect(list.unreadable).toEqual([]);
    expect(list.jobs).toMatchObject([{ id, understood: 'every 1d', deliver: [`file:${join(cwd, 'news.md')}`] }]);
    expect(Date.parse(list.jobs[0]?.next_run_at ?? '') - Date.now()).toBeGreaterThan(23 * 3600_000);

    const ran = await runHearth(['cron', 'run', id, '--json'], { env, cwd });
    expect(ran.code).toBe(0);
    const run = JSON.parse(ran.stdout) as { status: string; error: string | null; output: string; deliveries: { target: string; ok: boolean }[]; session_id: string };
    expect(run).toMatchObject({ status: 'ok', error: null, output: 'Three headlines: A, B, C.', deliveries: [{ target: `file:${join(cwd, 'news.md')}`, ok: true }] });
    expect(readFileSync(join(cwd, 'news.md'), 'utf8')).toContain('Three headlines: A, B, C.');
    // The agent got the job's prompt in a cron-marked session.
    const request = server.requests[0] as { messages: { role: string; content: string }[] };
    expect(request.messages.at(-1)?.content).toMatch(/Scheduled job .*Nobody is watching[\s\S]*Summarise the news/);

    const history = await runHearth(['cron', 'history', id, '--json'], { env, cwd });
    expect((JSON.parse(history.stdout) as { runs: { status: string; trigger: string }[] }).runs).toMatchObject([{ status: 'ok', trigger: 'manual' }]);
    const sessions = await runHearth(['sessions', 'list', '--json'], { env, cwd });
    expect(sessions.stdout).toContain(run.session_id);
  }, 60_000);

  // Catches a failed delivery printed (or exiting) as success.
  it('prints a run whose delivery failed as failed, with the error, and exits 1', async () => {
    const { env, cwd } = await home([{ text: 'the report' }]);
    writeFileSync(join(cwd, 'blocker'), 'a file, not a folder');
    const created = await runHearth(['cron', 'create', '--schedule', 'in 2h', '--prompt', 'report', '--deliver', 'file:blocker/out.md', '--json'], { env, cwd });
    const { id } = JSON.parse(created.stdout) as { id: string };
    const ran = await runHearth(['cron', 'run', id, '--json'], { env, cwd });
    expect(ran.code).toBe(1);
    const run = JSON.parse(ran.stdout) as { status: string; error: string };
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/delivery failed: file:.*blocker\/out\.md: Cannot write/);
    const listed = JSON.parse((await runHearth(['cron', 'list', '--json'], { env, cwd })).stdout) as { jobs: { last: { status: string }; retry_at: string | null }[] };
    expect(listed.jobs[0]?.last.status).toBe('failed');
    expect(listed.jobs[0]?.retry_at).not.toBeNull();
  }, 60_000);

  // Catches a bad schedule that is stored anyway, or an error that does not say what is allowed.
  it('refuses a schedule it cannot read and names the forms; pause, resume, edit and remove work by id', async () => {
    const { env, cwd } = await home();
    const bad = await runHearth(['cron', 'create', '--schedule', 'every weekday morning', '--prompt', 'x'], { env, cwd });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/Cannot read the schedule "every weekday morning".*every <n>m\|h\|d/);
    const created = await runHearth(['cron', 'create', '--schedule', '0 9 * * 1-5', '--tz', 'Europe/Berlin', '--prompt', 'standup notes', '--json'], { env, cwd });
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect((await runHearth(['cron', 'pause', id], { env, cwd })).stdout).toMatch(/Paused cron job .*paused/);
    expect((await runHearth(['cron', 'resume', id], { env, cwd })).stdout).toMatch(/Resumed .*cron "0 9 \* \* 1-5" in Europe\/Berlin, next run 20/);
    const edited = JSON.parse((await runHearth(['cron', 'edit', id, '--schedule', 'every 2h', '--json'], { env, cwd })).stdout) as { understood: string };
    expect(edited.understood).toBe('every 2h');
    expect((await runHearth(['cron', 'remove', id], { env, cwd })).code).toBe(0);
    const gone = await runHearth(['cron', 'history', id], { env, cwd });
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(/No cron job with id/);
  }, 60_000);
});
