import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import { checkpointSandbox, storeFor, writeFiles } from './fixtures/checkpoint-projects.js';

/** `hearth checkpoints` as a separate process, against checkpoints the store took in HEARTH_HOME. */
describe('hearth checkpoints', () => {
  const { base } = checkpointSandbox();
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const env = freshHomeEnv();
  const home = env.HEARTH_HOME ?? '';
  const root = join(base, 'project');
  mkdirSync(root);

  it('lists as JSON from a sub-folder, refuses an unanswered rollback, and rolls back with --yes', async () => {
    writeFiles(root, { 'a.txt': 'before\n', 'src/keep.ts': 'k\n' });
    await storeFor(home).snapshot(root, 'before write_file a.txt');
    writeFileSync(join(root, 'a.txt'), 'after\n');
    writeFiles(root, { 'created.txt': 'new\n' });

    // Catches: the CLI keying the project by the folder it runs in instead of the project that has checkpoints.
    const listed = await runHearth(['checkpoints', 'list', '--json'], { env, cwd: join(root, 'src') });
    expect(listed.stderr).toBe('');
    const report = JSON.parse(listed.stdout) as { root: string; checkpoints: Array<{ number: number; reason: string; filesChanged: number }> };
    expect(report.root).toBe(root);
    expect(report.checkpoints).toEqual([expect.objectContaining({ number: 1, reason: 'before write_file a.txt', filesChanged: 2 })]);

    // Catches: a rollback that proceeds when nobody said yes (stdin closed without an answer).
    const unanswered = await runHearth(['checkpoints', 'rollback', '1', '--dir', root], { env, input: '' });
    expect(unanswered.code).toBe(1);
    expect(unanswered.stdout).toContain('restore  a.txt');
    expect(unanswered.stdout).toContain('remove   created.txt');
    expect(unanswered.stdout).toContain('nothing changed');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('after\n');

    const rolled = await runHearth(['checkpoints', 'rollback', '1', '--dir', root, '--yes'], { env });
    expect(rolled.code).toBe(0);
    expect(rolled.stdout).toContain('1 restored, 1 removed');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('before\n');
    expect((await storeFor(home).list(root)).map((c) => c.reason)).toEqual([expect.stringMatching(/^before rollback/), 'before write_file a.txt']);
  });

  it('an unknown checkpoint number exits 1 with a checkpoint_not_found message naming what exists', async () => {
    const missing = await runHearth(['checkpoints', 'diff', '9', '--dir', root], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No checkpoint 9 for .*numbered 1 \(newest\) to 2.*\[checkpoint_not_found\]/);
  });

  // Catches /rollback being sent to the model as a message, or restoring before the user answered yes.
  it('chat: /rollback lists, /rollback diff N shows the diff, /rollback N restores after a yes', async () => {
    const project = join(base, 'chat-project');
    writeFiles(project, { 'story.txt': 'once upon a time\n' });
    await storeFor(home).snapshot(project, 'before write_file story.txt');
    writeFileSync(join(project, 'story.txt'), 'the end\n');
    const server = await startScriptedOpenAIServer([]);
    try {
      const chat = await runHearth(['chat', '--model', 'openai:s', '--base-url', server.url], {
        env,
        cwd: project,
        input: '/rollback\n/rollback diff 1\n/rollback 1\ny\n/quit\n',
      });
      expect(chat.code).toBe(0);
      expect(chat.stdout).toMatch(/1 .* 1 file +before write_file story\.txt/);
      expect(chat.stdout).toContain('-once upon a time\n+the end');
      expect(chat.stdout).toContain('Roll back? [y/N]');
      expect(chat.stdout).toContain('Rolled back to checkpoint 1: 1 restored, 0 removed');
      expect(readFileSync(join(project, 'story.txt'), 'utf8')).toBe('once upon a time\n');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
