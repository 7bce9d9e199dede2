import { describe, expect, it } from 'vitest';
import { clarifyTool } from '../src/core/tools/clarify.js';
import type { ClarifyRequest, ToolContext } from '../src/core/tools/define.js';
import { todoTool } from '../src/core/tools/todo.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

const context = (state: Map<string, unknown>, askUser?: (r: ClarifyRequest) => Promise<string>): ToolContext =>
  toolContext({ workspace: '/tmp', state, ...(askUser ? { askUser } : {}) });
const call = runTool;

describe('todo', () => {
  it('replaces, merges by id, and reads back the per-session list', async () => {
    const state = new Map<string, unknown>();
    const ctx = context(state);
    expect((await call(todoTool, {}, ctx)).content).toBe('The todo list is empty.');
    await call(todoTool, { todos: [{ id: '1', content: 'read code' }, { id: '2', content: 'fix bug', status: 'in_progress' }] }, ctx);
    const merged = await call(todoTool, { todos: [{ id: '1', status: 'completed' }, { id: '3', content: 'write test' }], merge: true }, ctx);
    expect(merged.content).toBe('[x] 1. read code\n[>] 2. fix bug\n[ ] 3. write test\n(1/3 completed)');
    // Without merge the list is replaced.
    expect((await call(todoTool, { todos: [{ id: 'a', content: 'only' }] }, ctx)).content).toBe('[ ] a. only\n(0/1 completed)');
    // Another session's state is separate.
    expect((await call(todoTool, {}, context(new Map()))).content).toBe('The todo list is empty.');
  });

  it('a new item without content is an error and leaves the list unchanged', async () => {
    const ctx = context(new Map());
    await call(todoTool, { todos: [{ id: '1', content: 'keep' }] }, ctx);
    expect(await call(todoTool, { todos: [{ id: '2', status: 'pending' }], merge: true }, ctx)).toMatchObject({ isError: true });
    expect((await call(todoTool, {}, ctx)).content).toBe('[ ] 1. keep\n(0/1 completed)');
  });
});

describe('clarify', () => {
  it('asks the user through ctx.askUser and returns the answer', async () => {
    const asked: ClarifyRequest[] = [];
    const ctx = context(new Map(), async (request) => {
      asked.push(request);
      return 'blue';
    });
    const result = await call(clarifyTool, { question: 'Which colour?', choices: ['red', 'blue'] }, ctx);
    expect(asked).toEqual([{ question: 'Which colour?', choices: ['red', 'blue'] }]);
    expect(result.content).toBe('The user answered: blue');
  });

  it('rejects more than four choices at the schema (the loop turns that into an error result)', () => {
    expect(clarifyTool.input.safeParse({ question: 'q', choices: ['a', 'b', 'c', 'd', 'e'] }).success).toBe(false);
  });
});
