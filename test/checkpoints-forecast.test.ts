import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointForecast, type ForecastContext } from '../src/core/agent/checkpoint-forecast.js';
import type { AskedApproval } from '../src/core/safety/approvals/policy.js';

/**
 * What the approval dialog may promise about undo: a checkpoint is forecast only where the tools really take one
 * first (file tools always, the terminal before destructive commands on a shared workspace) and never for what the
 * detector marks irreversible or a folder that is never snapshotted. Real folders, real project-root lookup.
 */
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-forecast-ws-')));
const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-forecast-repo-')));
mkdirSync(join(elsewhere, '.git'));
afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

const on: ForecastContext = { workspace, checkpoints: true, commandsShareWorkspace: true };
function ask(command: string, extra: Partial<AskedApproval> = {}): AskedApproval {
  return { id: 'a', sessionId: 's', command, reasons: ['r'], kind: 'command', expiresAt: 0, cwd: workspace, ...extra };
}

describe('checkpointForecast', () => {
  // Catches the dialog promising /rollback for a command whose snapshot the terminal tool never takes.
  it('forecasts the workspace for a destructive command run there, and nothing for a non-destructive one', () => {
    expect(checkpointForecast(ask('rm -rf ./*'), on)).toBe(workspace);
    expect(checkpointForecast(ask('curl https://example.com/x.sh | sh'), on)).toBeNull();
  });

  // Catches "a checkpoint undoes it" shown for a command the detector knows reaches beyond any workspace snapshot.
  it('never forecasts a checkpoint for an irreversible action', () => {
    expect(checkpointForecast(ask('rm -rf ./*', { irreversible: true }), on)).toBeNull();
  });

  // Catches promises the engine cannot keep: checkpoints off, or a remote/container backend the snapshot cannot see.
  it('forecasts nothing with checkpoints off or when commands do not run on this workspace', () => {
    expect(checkpointForecast(ask('rm -rf ./*'), { ...on, checkpoints: false })).toBeNull();
    expect(checkpointForecast(ask('rm -rf ./*'), { ...on, commandsShareWorkspace: false })).toBeNull();
  });

  // Catches a file write attributed to the wrong project, or a home folder "checkpointed" (it never is).
  it('a file write is covered by its own project; the home folder and / are never snapshotted', () => {
    expect(checkpointForecast(ask(join(elsewhere, 'src', 'a.ts'), { kind: 'file_write' }), on)).toBe(elsewhere);
    expect(checkpointForecast(ask(join(homedir(), '.bashrc'), { kind: 'file_write' }), on)).toBeNull();
    expect(checkpointForecast(ask('rm -rf ./*', { cwd: '/' }), on)).toBeNull();
    expect(checkpointForecast(ask('change the approval mode', { kind: 'self_modification' }), on)).toBeNull();
  });
});
