import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pendingCommand } from '../src/cli/commands/pending.js';
import type { CliIO } from '../src/cli/io.js';
import { isHearthError } from '../src/core/errors.js';
import { PendingWrites } from '../src/core/learning/pending-writes.js';
import { MemoryStore } from '../src/core/memory/store.js';
import { openStore } from '../src/core/store/open-store.js';
import { freshHomeEnv } from './fixtures/cli.js';

/** `hearth pending`: staged memory and skill writes are listed, applied through the real operations, or discarded. */
function cli(env: NodeJS.ProcessEnv) {
  let out = '';
  const io: CliIO = { out: (t) => (out += t), err: () => undefined, env, cwd: env.HEARTH_HOME as string, stdin: process.stdin, isTTY: false };
  return { io, output: () => out };
}

function stage(env: NodeJS.ProcessEnv, kind: 'memory' | 'skill', payload: unknown, summary: string): number {
  const store = openStore(env.HEARTH_HOME as string, { env });
  try {
    return new PendingWrites(store.db).stage({ kind, sessionId: null, payload, summary }).id;
  } finally {
    store.close();
  }
}

describe('hearth pending', () => {
  it('approving a staged memory write applies it; rejecting discards it; list shows what waits', async () => {
    const env = freshHomeEnv();
    const keep = stage(env, 'memory', { action: 'add', target: 'user', content: 'Works in UTC.' }, 'add user: Works in UTC.');
    const drop = stage(env, 'memory', { action: 'add', target: 'user', content: 'Likes jazz.' }, 'add user: Likes jazz.');
    const list = cli(env);
    await pendingCommand(['list'], list.io);
    expect(list.output()).toMatch(new RegExp(`#${keep} .*Works in UTC[\\s\\S]*#${drop} .*Likes jazz`));

    expect(await pendingCommand(['approve', String(keep)], cli(env).io)).toBe(0);
    expect(await pendingCommand(['reject', String(drop)], cli(env).io)).toBe(0);
    const store = openStore(env.HEARTH_HOME as string, { env });
    expect(new MemoryStore(store.db).read('user').map((e) => e.content)).toEqual(['Works in UTC.']);
    expect(new PendingWrites(store.db).list()).toEqual([]);
    store.close();
  });

  it('a staged skill that no longer validates stays staged and the reason is shown', async () => {
    const env = freshHomeEnv();
    const id = stage(env, 'skill', { action: 'create', name: 'bad-skill', content: 'no frontmatter at all' }, 'create skill bad-skill');
    const error = await pendingCommand(['approve', String(id)], cli(env).io).catch((err: unknown) => err);
    // Catches approval that drops the write on failure, or applies an invalid skill.
    expect(isHearthError(error)).toBe(true);
    const listed = cli(env);
    await pendingCommand(['list', '--json'], listed.io);
    expect((JSON.parse(listed.output()) as { id: number }[]).map((w) => w.id)).toEqual([id]);
  });

  it('an unknown id or action is a usage error', async () => {
    const env = freshHomeEnv();
    mkdirSync(env.HEARTH_HOME as string, { recursive: true });
    writeFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), 'version: 1\n');
    await expect(pendingCommand(['approve', 'x'], cli(env).io)).rejects.toThrow(/id of a staged write/);
    await expect(pendingCommand(['frobnicate'], cli(env).io)).rejects.toThrow(/Unknown pending action/);
  });
});
