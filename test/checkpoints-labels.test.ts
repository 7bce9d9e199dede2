import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCheckpointList } from '../src/cli/commands/checkpoints.js';
import { CheckpointManager, createCheckpointHook } from '../src/core/checkpoints/manager.js';
import type { UserUpdate } from '../src/core/tools/define.js';
import { patchTool } from '../src/core/tools/patch.js';
import { writeFileTool } from '../src/core/tools/write-file.js';
import { checkpointSandbox, storeFor, writeFiles } from './fixtures/checkpoint-projects.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

/**
 * A checkpoint is labelled by what it holds: one snapshot is taken per turn, before its first change, so its label
 * names that change and every later change of the turn it also holds the state before. Real shadow-git stores.
 */
const { base, home } = checkpointSandbox();
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('checkpoint labels', () => {
  // Catches a user looking for "the state before patch app.ts" and finding only "before write_file notes.md", with no
  // way to tell that checkpoint 1 holds it too.
  it('names every change of the turn it covers, once each, and still rolls all of them back', async () => {
    const root = join(base, 'ws-labels');
    mkdirSync(root);
    writeFiles(root, { 'notes.md': 'original notes\n', 'app.ts': 'const a = 1;\n' });
    const manager = new CheckpointManager(storeFor(home));
    const notices: UserUpdate[] = [];
    const ctx = toolContext({ workspace: root, checkpoint: createCheckpointHook(manager, { sessionId: 's1', workspace: root, notify: (u) => notices.push(u) }) });
    manager.beginTurn('s1');
    await runTool(writeFileTool, { path: 'notes.md', content: 'rewritten\n' }, ctx);
    await runTool(patchTool, { path: 'app.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' }, ctx);
    await runTool(patchTool, { path: 'app.ts', old_string: 'const a = 2;', new_string: 'const a = 3;' }, ctx);
    expect(notices).toEqual([]);
    const [checkpoint, ...rest] = await manager.store.list(root);
    expect(rest).toEqual([]);
    expect(checkpoint).toMatchObject({ number: 1, reason: 'before write_file notes.md', covers: ['before patch app.ts'] });
    const listed = formatCheckpointList(root, await manager.store.list(root));
    expect(listed).toContain(`Checkpoints of ${root}`);
    expect(listed).toContain('before write_file notes.md; also covers before patch app.ts');

    // The relabelled checkpoint is the same snapshot: a rollback restores both files.
    await manager.store.rollback(root, 1);
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('original notes\n');
    expect(readFileSync(join(root, 'app.ts'), 'utf8')).toBe('const a = 1;\n');

    // A new turn takes its own snapshot, with its own label.
    manager.beginTurn('s1');
    await runTool(writeFileTool, { path: 'notes.md', content: 'again\n' }, ctx);
    expect((await manager.store.list(root))[0]).toMatchObject({ reason: 'before write_file notes.md', covers: [] });
  });
});
