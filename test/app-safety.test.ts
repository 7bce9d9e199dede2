import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../src/core/app/dispatch.js';
import { startAppHarness, turnEnded, type AppHarness } from './fixtures/app-engine.js';

/**
 * The desktop's view of safety through the app service: the workspace's checkpoints (list, diff, roll back) and
 * the approval audit log, on the real engine after a real turn that wrote a file.
 */
let app: AppHarness | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function turnWritingNotes(): Promise<AppHarness> {
  const harness = await startAppHarness((_req: unknown, index: number) =>
    index === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'rewritten by the agent\n' } }] } : { text: 'done' },
  );
  writeFileSync(join(harness.workspace, 'notes.md'), 'my original notes\n');
  const { sessionId } = await harness.service.handlers['chat.start']({});
  const ended = turnEnded(harness, sessionId);
  await harness.service.handlers['chat.send']({ sessionId, text: 'rewrite my notes', attachments: [] });
  await ended;
  return harness;
}

describe('safety routes', () => {
  it('lists the checkpoint the turn took, shows its diff, and rolls the file back (catches the desktop having no undo)', async () => {
    app = await turnWritingNotes();
    expect(readFileSync(join(app.workspace, 'notes.md'), 'utf8')).toBe('rewritten by the agent\n');
    const listed = await app.service.handlers['checkpoints.list']({});
    expect(listed).toMatchObject({ project: app.workspace, enabled: true, checkpoints: [{ number: 1, reason: 'before write_file notes.md' }] });
    const { diff } = await app.service.handlers['checkpoints.diff']({ number: 1 });
    expect(diff).toContain('-my original notes');
    expect(diff).toContain('+rewritten by the agent');
    expect(await app.service.handlers['checkpoints.rollback']({ number: 1 })).toEqual({ restored: ['notes.md'], removed: [] });
    expect(readFileSync(join(app.workspace, 'notes.md'), 'utf8')).toBe('my original notes\n');
    // The rollback snapshotted the present first, so it can itself be undone.
    expect((await app.service.handlers['checkpoints.list']({})).checkpoints).toHaveLength(2);
  });

  it('an unknown checkpoint is a typed not_found through dispatch, and nothing changes', async () => {
    app = await turnWritingNotes();
    const reply = await dispatch(app.service.handlers, 'checkpoints.rollback', { number: 7 });
    expect(reply).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(readFileSync(join(app.workspace, 'notes.md'), 'utf8')).toBe('rewritten by the agent\n');
  });

  it('the approval log lists the turn\'s decisions, newest first', async () => {
    app = await turnWritingNotes();
    const log = await app.service.handlers['approvals.log']({ limit: 10 });
    expect(log[0]).toMatchObject({ kind: 'file_write', command: join(app.workspace, 'notes.md'), approved: true, decision: 'safe', origin: 'user' });
  });
});
