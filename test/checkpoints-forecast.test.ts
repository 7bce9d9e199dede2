import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { undoForecast, type ForecastContext } from '../src/core/agent/checkpoint-forecast.js';
import { classifyCommand } from '../src/core/safety/approvals/detector.js';
import type { AskedApproval } from '../src/core/safety/approvals/policy.js';

/**
 * What the approval dialog may promise about undo: a checkpoint is forecast only where the tools really take one
 * first (file tools always, the terminal before destructive commands on a shared workspace), never for what the
 * detector marks irreversible, for a command that names a path outside the snapshotted folder, or for a folder
 * that is never snapshotted. Real folders, real project-root lookup.
 */
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-forecast-ws-')));
const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-forecast-repo-')));
mkdirSync(join(elsewhere, '.git'));
afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

const on: ForecastContext = { workspace, checkpoints: true, commandsShareWorkspace: true, home: homedir() };
const checkpointForecast = (request: AskedApproval, context: ForecastContext) => undoForecast(request, context).checkpoint;
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
    expect(undoForecast(ask('rm -rf ./*', { irreversible: true }), on)).toEqual({ irreversible: true, checkpoint: null });
  });

  // Catches the original dishonesty: `rm -rf /srv/data` run from the workspace was "protected" by a snapshot of the
  // workspace, which holds nothing of /srv. The request carries the real detector's verdict, as the policy builds it;
  // paths inside the workspace (or /dev/null) keep the promise.
  it('a command reaching outside the snapshotted folder cannot be undone; one inside it can', () => {
    const detected = (command: string) => ask(command, { irreversible: classifyCommand(command, { workspace, cwd: workspace, home: homedir() }).irreversible === true });
    for (const command of ['rm -rf /srv/data', `rm -rf ${elsewhere}`, 'rm -rf ~/projects', 'rm -rf ../sibling', 'mv build /opt/build']) {
      expect(undoForecast(detected(command), on), command).toEqual({ irreversible: true, checkpoint: null });
    }
    expect(undoForecast(detected(`rm -rf ${join(workspace, 'build')} 2>/dev/null`), on)).toEqual({ irreversible: false, checkpoint: workspace });
    expect(undoForecast(detected('rm -rf ./build/../dist'), on)).toEqual({ irreversible: false, checkpoint: workspace });
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
