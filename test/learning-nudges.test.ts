import { describe, expect, it } from 'vitest';
import { NudgeCounters } from '../src/core/learning/nudges.js';
import { loadedSkills } from '../src/core/learning/learning-loop.js';
import { reviewPrompt } from '../src/core/learning/review-prompts.js';
import type { ChatMessage } from '../src/core/llm/types.js';

const thresholds = { skillIterations: 3, memoryTurns: 2 };

function toolTurn(...calls: { name: string; args?: object }[]): ChatMessage[] {
  return [
    { role: 'user', content: 'do it' },
    ...calls.map((call, i): ChatMessage => ({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: call.name, arguments: JSON.stringify(call.args ?? {}) }] })),
    { role: 'assistant', content: 'done' },
  ];
}

describe('nudge counters decide when a background review is due', () => {
  it('counts tool iterations across turns and user turns, and says which review is due', () => {
    const counters = new NudgeCounters();
    counters.recordTurn(toolTurn({ name: 'terminal' }, { name: 'read_file' }));
    expect(counters.due(thresholds)).toBeNull(); // 2 iterations, 1 turn
    counters.recordTurn(toolTurn({ name: 'terminal' }));
    // Catches counting only the last turn, or counting every message instead of tool-calling responses.
    expect(counters.snapshot()).toEqual({ itersSinceSkill: 3, turnsSinceMemory: 2 });
    expect(counters.due(thresholds)).toBe('combined');
  });

  it('a skill write resets the skill counter and a memory write the memory counter; a memory read does not', () => {
    const counters = new NudgeCounters();
    counters.recordTurn(toolTurn({ name: 'terminal' }, { name: 'terminal' }, { name: 'skill_manage', args: { action: 'create' } }));
    expect(counters.snapshot().itersSinceSkill).toBe(0);
    counters.recordTurn(toolTurn({ name: 'memory', args: { action: 'read', target: 'user' } }));
    expect(counters.snapshot().turnsSinceMemory).toBe(2); // a read saves nothing
    counters.recordTurn(toolTurn({ name: 'memory', args: { action: 'add', target: 'user', content: 'x' } }));
    expect(counters.snapshot().turnsSinceMemory).toBe(0);
  });

  it('reset clears only the counters of the review that ran', () => {
    const counters = new NudgeCounters();
    counters.recordTurn(toolTurn({ name: 'terminal' }, { name: 'terminal' }, { name: 'terminal' }));
    counters.recordTurn(toolTurn());
    counters.reset('skill');
    expect(counters.snapshot()).toEqual({ itersSinceSkill: 0, turnsSinceMemory: 2 });
    expect(counters.due(thresholds)).toBe('memory');
  });
});

describe('review prompt and loaded skills', () => {
  it('names the skills loaded this session so the review patches them before creating new ones', () => {
    const history = toolTurn({ name: 'skill_view', args: { name: 'deploy-docs' } }, { name: 'skill_view', args: { name: 'deploy-docs' } }, { name: 'terminal' });
    expect(loadedSkills(history)).toEqual(['deploy-docs']);
    const prompt = reviewPrompt('skill', loadedSkills(history));
    expect(prompt).toContain('Skills loaded in this session: deploy-docs.');
    expect(prompt).toMatch(/patch a skill that was loaded/);
    expect(prompt).not.toMatch(/memory` tool/); // a skill review does not ask for memory writes
  });

  it('a review is never told to use a tool it does not have', () => {
    const prompt = reviewPrompt('combined', [], ['memory', 'skill_view']);
    expect(prompt).toMatch(/memory` tool/);
    expect(prompt).not.toMatch(/skill_manage/);
  });

  it('a flush review says the conversation is about to leave the context and asks for memory and skills', () => {
    const prompt = reviewPrompt('flush', []);
    expect(prompt).toMatch(/about to leave your context \(it is being compressed .*or the session is ending\)/);
    expect(prompt).toMatch(/memory` tool/);
    expect(prompt).toMatch(/skill_manage/);
  });
});
