import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSystemPrompt, loadProjectContext, truncateHeadTail } from '../src/core/agent/prompt.js';

const root = mkdtempSync(join(tmpdir(), 'hearth-prompt-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
function dir(files: Record<string, string> = {}): string {
  counter += 1;
  const path = join(root, `d${counter}`);
  mkdirSync(path);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  return path;
}

const inputs = (over: Partial<Parameters<typeof buildSystemPrompt>[0]> = {}) => ({
  home: dir(),
  workspace: dir(),
  modelId: 'openai:gpt-test',
  sessionId: 'sess-1',
  toolNames: ['read_file', 'terminal'],
  startedAt: new Date('2026-06-16T14:03:59Z'),
  ...over,
});

describe('buildSystemPrompt', () => {
  it('is a pure function of its inputs (same inputs, same bytes), with the volatile facts last', () => {
    const args = inputs();
    const prompt = buildSystemPrompt(args);
    expect(buildSystemPrompt(args)).toBe(prompt);
    expect(prompt.endsWith(`# Environment\nSession started: 2026-06-16 14:03 UTC\nModel: openai:gpt-test\nSession: sess-1\nWorkspace: ${args.workspace}`)).toBe(true);
  });

  it('gives guidance only for tools the session has (no hallucinated tools)', () => {
    const prompt = buildSystemPrompt(inputs({ toolNames: ['read_file'] }));
    expect(prompt).toContain('Read a file before editing it');
    expect(prompt).not.toContain('clarify');
    expect(prompt).not.toContain('terminal');
  });

  it('uses SOUL.md from home as the identity, else the default one', () => {
    expect(buildSystemPrompt(inputs({ home: dir({ 'SOUL.md': 'I am Pip.' }) })).startsWith('I am Pip.\n\n# How to work')).toBe(true);
    expect(buildSystemPrompt(inputs({ home: dir({ 'SOUL.md': '   \n' }) })).startsWith('You are Hearth')).toBe(true);
  });
});

describe('loadProjectContext', () => {
  it('takes the first of .hearth.md, AGENTS.md, CLAUDE.md', () => {
    expect(loadProjectContext(dir({ 'CLAUDE.md': 'c', 'AGENTS.md': 'a', '.hearth.md': 'h' }))).toEqual({ file: '.hearth.md', text: 'h' });
    expect(loadProjectContext(dir({ 'CLAUDE.md': 'c', 'AGENTS.md': 'a' }))).toEqual({ file: 'AGENTS.md', text: 'a' });
    expect(loadProjectContext(dir({ 'CLAUDE.md': 'c' }))).toEqual({ file: 'CLAUDE.md', text: 'c' });
    expect(loadProjectContext(dir())).toBeNull();
  });

  it('truncates a long file to 20k characters: 70% head, 20% tail, with a marker', () => {
    const text = 'H'.repeat(30_000) + 'T'.repeat(30_000);
    const loaded = loadProjectContext(dir({ 'AGENTS.md': text }));
    expect(loaded?.text.startsWith('H'.repeat(14_000) + '\n\n[... 42000 characters of this file omitted ...]\n\n')).toBe(true);
    expect(loaded?.text.endsWith('T'.repeat(4_000))).toBe(true);
    expect(truncateHeadTail('short', 100)).toBe('short');
  });
});
