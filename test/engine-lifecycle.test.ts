import { readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import { DisposalStack, buildWithStack } from '../src/core/lifecycle.js';
import { freshHomeEnv } from './fixtures/cli.js';

/**
 * One disposal stack for everything the engine opens (decision 0022): a start-up that fails half-way closes what it
 * had opened, and `dispose()` closes the rest in reverse. The engine tests run the real composition (encrypted
 * store, tools, approvals, learning) on a fresh HEARTH_HOME; the model points at a port nobody listens on, which is
 * fine because no message is sent.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Files under `dir` this process holds open (Linux: /proc/self/fd), e.g. state.db and its WAL. */
function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd));
      return target.startsWith(dir) ? [target] : [];
    } catch {
      // The fd closed between the listing and the read (the listing's own handle, for one).
      return [];
    }
  });
}

function engineHome(config: string): { env: NodeJS.ProcessEnv; home: string; workspace: string } {
  const env = freshHomeEnv();
  const home = realpathSync(env.HEARTH_HOME as string);
  env.HEARTH_HOME = home;
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-lifecycle-ws-')));
  writeFileSync(
    join(home, 'config.yaml'),
    `version: 1\nmodel:\n  default: "idle:model"\nproviders:\n  idle: { type: openai, base_url: "http://127.0.0.1:9/v1" }\nreview:\n  enabled: false\nuser_model:\n  enabled: false\n${config}`,
  );
  cleanups.push(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });
  return { env, home, workspace };
}

async function open(env: NodeJS.ProcessEnv, workspace: string, warnings: string[] = []): Promise<Engine> {
  const engine = await openEngine({ env, workspace, userHome: workspace, onWarning: (w) => warnings.push(w) });
  cleanups.push(() => engine.dispose());
  return engine;
}

describe('DisposalStack', () => {
  it('disposes last-created first, runs every step even when one fails, and reports every failure (catches a leaked resource after a failing close)', async () => {
    const stack = new DisposalStack();
    const order: string[] = [];
    stack.defer(() => void order.push('store'));
    stack.defer(() => {
      order.push('model');
      throw new Error('model host did not exit');
    });
    stack.use({ dispose: async () => void order.push('host') });
    stack.defer(() => {
      order.push('backend');
      throw new Error('container still running');
    });
    const failure = await stack.dispose().catch((err: unknown) => err);
    expect(order).toEqual(['backend', 'host', 'model', 'store']);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((e: Error) => e.message)).toEqual(['container still running', 'model host did not exit']);
    // A second dispose waits for the first and runs nothing again; nothing can be added afterwards.
    await expect(stack.dispose()).rejects.toBe(failure);
    expect(order).toHaveLength(4);
    expect(() => stack.defer(() => undefined)).toThrow('already disposed');
  });

  it('buildWithStack unwinds what was built when a later step throws, and rethrows the original error (catches a half-built engine left open)', async () => {
    const closed: string[] = [];
    const failure = new Error('bad approvals.smart_model');
    await expect(
      buildWithStack(async (stack) => {
        stack.defer(() => void closed.push('store'));
        stack.defer(() => void closed.push('model'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(closed).toEqual(['model', 'store']);
  });
});

describe('openEngine on one disposal stack', () => {
  it('a bad approvals.smart_model fails start-up with a clear error and closes the store it had opened (catches a leaked database handle)', async () => {
    const { env, home, workspace } = engineHome('approvals:\n  smart_model: "nowhere:judge"\n');
    const failure = await openEngine({ env, workspace, userHome: workspace }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'model_not_configured', message: expect.stringContaining('Unknown provider "nowhere"') });
    expect(openFilesUnder(home)).toEqual([]);

    // Fixed, the same home opens, and dispose closes it all again.
    writeFileSync(join(home, 'config.yaml'), `version: 1\nmodel:\n  default: "idle:model"\nproviders:\n  idle: { type: openai, base_url: "http://127.0.0.1:9/v1" }\nreview:\n  enabled: false\n`);
    const engine = await openEngine({ env, workspace, userHome: workspace });
    expect(openFilesUnder(home).some((path) => path.endsWith('state.db'))).toBe(true);
    await engine.dispose();
    expect(openFilesUnder(home)).toEqual([]);
    await engine.dispose(); // a second dispose is harmless
  });

  it('a bad security.injection_judge, built after the smart judge, also leaves nothing open', async () => {
    const { env, home, workspace } = engineHome('approvals:\n  smart_model: "idle:judge"\nsecurity:\n  injection_judge: "nowhere:judge"\n');
    await expect(openEngine({ env, workspace, userHome: workspace })).rejects.toMatchObject({ code: 'model_not_configured' });
    expect(openFilesUnder(home)).toEqual([]);
  });
});

describe('the engine follows config.yaml', () => {
  it('an edit made outside Hearth reaches the approval policy and the tool list at the next read (catches a stale engine.config)', async () => {
    const { env, home, workspace } = engineHome('');
    const engine = await open(env, workspace);
    expect(engine.safety.approvals.mode).toBe('manual');
    expect(engine.tools.offered.names()).toContain('terminal');

    // As `hearth approvals` or an editor would: another writer, the same file.
    writeFileSync(
      join(home, 'config.yaml'),
      `version: 1\nmodel:\n  default: "idle:model"\nproviders:\n  idle: { type: openai, base_url: "http://127.0.0.1:9/v1" }\nreview:\n  enabled: false\nuser_model:\n  enabled: false\napprovals:\n  mode: smart\n  allowlist: ["recursive delete"]\ntools:\n  disabled: [terminal]\n`,
    );
    expect(engine.config.current().approvals.mode).toBe('smart');
    await expect.poll(() => engine.safety.approvals.mode).toBe('smart');
    expect(engine.safety.approvals.allowlistEntries()).toEqual(['recursive delete']);
    await expect.poll(() => engine.tools.offered.names().includes('terminal')).toBe(false);
    expect(engine.tools.all.names()).toContain('terminal');
  });

  it('an update through the service applies before it resolves, and the model chain reloads only when the chain changed', async () => {
    const { env, workspace } = engineHome('');
    const engine = await open(env, workspace);
    let reloads = 0;
    engine.models.onChange(() => void (reloads += 1));
    await engine.config.update((draft) => void (draft.approvals.mode = 'off'));
    expect(engine.safety.approvals.mode).toBe('off');
    expect(reloads).toBe(0);
    await engine.config.update((draft) => void (draft.model.default = 'idle:other-model'));
    expect(reloads).toBe(1);
    expect(engine.models.chat.id).toContain('other-model');
  });
});
