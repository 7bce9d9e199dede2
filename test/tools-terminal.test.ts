import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/core/exec/local.js';
import type { ApprovalDecision } from '../src/core/safety/approvals/broker.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import type { ToolContext, ToolResult } from '../src/core/tools/define.js';
import { createTerminalTool } from '../src/core/tools/terminal.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-terminal-test-')));
const backend = new LocalBackend();
afterAll(async () => {
  await backend.dispose();
  rmSync(root, { recursive: true, force: true });
});

function freshWorkspace(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  return dir;
}

const terminal = createTerminalTool({ backend });
const run = (ctx: ToolContext, args: Record<string, unknown>, tool = terminal): Promise<ToolResult> => runTool(tool, args, ctx);
const context = (workspace: string, approvals = new ApprovalPolicyBroker(), state = new Map<string, unknown>()): ToolContext =>
  toolContext({ workspace, approvals, state });

function brokerThatAnswers(decision: ApprovalDecision): ApprovalPolicyBroker {
  const broker = new ApprovalPolicyBroker();
  broker.setPromptHandler(async () => decision);
  return broker;
}

describe('terminal tool', () => {
  it('keeps the working directory between calls of one session', async () => {
    const ws = freshWorkspace('cwd');
    const ctx = context(ws);
    const first = await run(ctx, { command: 'mkdir -p a/b && cd a/b' });
    expect(first.content).toContain(`[cwd is now ${join(ws, 'a/b')}]`);
    expect((await run(ctx, { command: 'pwd' })).content).toBe(`${join(ws, 'a/b')}\n[exit code 0]`);
    // A different session (its own state) starts in the workspace.
    expect((await run(context(ws), { command: 'pwd' })).content.split('\n')[0]).toBe(ws);
  });

  it('workdir applies to one command and does not move the session', async () => {
    const ws = freshWorkspace('workdir');
    mkdirSync(join(ws, 'other'));
    const ctx = context(ws);
    expect((await run(ctx, { command: 'pwd', workdir: 'other' })).content.split('\n')[0]).toBe(join(ws, 'other'));
    expect((await run(ctx, { command: 'pwd' })).content.split('\n')[0]).toBe(ws);
    expect((await run(ctx, { command: 'pwd', workdir: 'missing' })).isError).toBe(true);
  });

  it('falls back to the workspace when the remembered directory was deleted', async () => {
    const ws = freshWorkspace('deleted');
    const ctx = context(ws);
    await run(ctx, { command: 'mkdir gone && cd gone' });
    rmSync(join(ws, 'gone'), { recursive: true });
    const result = await run(ctx, { command: 'pwd' });
    expect(result.content).toContain(`${ws}\n[exit code 0]`);
    expect(result.content).toContain('no longer exists');
  });

  it('reports the exit code and a timeout (and the command really stops)', async () => {
    const ws = freshWorkspace('timeout');
    const ctx = context(ws);
    expect((await run(ctx, { command: 'exit 7' })).content).toBe('(no output)\n[exit code 7]');
    const result = await run(ctx, { command: 'sleep 5; touch finished', timeout: 1 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Timed out after 1s');
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(join(ws, 'finished'))).toBe(false);
  });

  it('caps long output and says so', async () => {
    const ws = freshWorkspace('cap');
    const small = createTerminalTool({ backend, outputLimit: 200 });
    const result = await run(context(ws), { command: 'seq 1 5000' }, small);
    expect(result.content.startsWith('1\n2\n')).toBe(true);
    expect(result.content).toContain('5000\n[exit code 0]');
    expect(result.content).toContain('Output was longer than 200 characters');
  });

  it('a denied command does not run at all', async () => {
    const ws = freshWorkspace('denied');
    mkdirSync(join(ws, 'victim'));
    const result = await run(context(ws, brokerThatAnswers('deny')), { command: 'touch marker && rm -rf victim' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('was denied by the user');
    expect(result.content).toContain('recursive delete');
    expect(existsSync(join(ws, 'marker'))).toBe(false);
    expect(existsSync(join(ws, 'victim'))).toBe(true);
  });

  it('with no surface to ask, a dangerous command does not run', async () => {
    const ws = freshWorkspace('nosurface');
    const result = await run(context(ws), { command: 'touch marker; sudo true' });
    expect(result.content).toContain('no one is there to approve it');
    expect(existsSync(join(ws, 'marker'))).toBe(false);
  });

  it('a hardline command is blocked even in yolo mode', async () => {
    const ws = freshWorkspace('hardline');
    const result = await run(context(ws, new ApprovalPolicyBroker({ mode: 'off' })), { command: 'touch marker; rm -rf ~' });
    expect(result.content).toContain('is blocked');
    expect(existsSync(join(ws, 'marker'))).toBe(false);
  });

  it('an approved dangerous command runs (the denial tests above could fail)', async () => {
    const ws = freshWorkspace('approved');
    mkdirSync(join(ws, 'victim'));
    const result = await run(context(ws, brokerThatAnswers('once')), { command: 'touch marker && rm -rf victim' });
    expect(result.content).toBe('(no output)\n[exit code 0]');
    expect(existsSync(join(ws, 'marker'))).toBe(true);
    expect(existsSync(join(ws, 'victim'))).toBe(false);
  });
});
