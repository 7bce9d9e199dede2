import type { ChatMessage } from '../llm/types.js';

/** Which background review is due after a turn (PARITY §3 "Automatic creation"). */
export type ReviewKind = 'memory' | 'skill' | 'combined';

export interface NudgeThresholds {
  /** Tool-loop iterations without a skill write (skills.creation_nudge_interval). */
  skillIterations: number;
  /** User turns without a memory write (memory.nudge_interval). */
  memoryTurns: number;
}

/** Tool names whose calls count as "the agent already saved something", resetting a counter. */
const SKILL_WRITE_TOOLS = new Set(['skill_manage']);
const MEMORY_WRITE_TOOLS = new Set(['memory']);

/**
 * Per-session counters that decide when a background review runs. An iteration is one model call that
 * asked for tools; a user turn is one `send`. A write of the matching kind resets its counter, so an
 * agent that keeps its memory and skills current is never nudged.
 */
export class NudgeCounters {
  private itersSinceSkill: number;
  private turnsSinceMemory: number;

  /** Starts from saved counts (a conversation resumed after a restart or continued after compression). */
  constructor(from: { itersSinceSkill: number; turnsSinceMemory: number } = { itersSinceSkill: 0, turnsSinceMemory: 0 }) {
    this.itersSinceSkill = from.itersSinceSkill;
    this.turnsSinceMemory = from.turnsSinceMemory;
  }

  /** Feeds the messages one turn added (user message first). */
  recordTurn(messages: readonly ChatMessage[]): void {
    this.turnsSinceMemory += 1;
    for (const message of messages) {
      if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) continue;
      this.itersSinceSkill += 1;
      for (const call of message.toolCalls) {
        if (SKILL_WRITE_TOOLS.has(call.name)) this.itersSinceSkill = 0;
        if (MEMORY_WRITE_TOOLS.has(call.name) && !isMemoryRead(call.arguments)) this.turnsSinceMemory = 0;
      }
    }
  }

  due(thresholds: NudgeThresholds): ReviewKind | null {
    const skill = this.itersSinceSkill >= thresholds.skillIterations;
    const memory = this.turnsSinceMemory >= thresholds.memoryTurns;
    if (skill && memory) return 'combined';
    if (skill) return 'skill';
    if (memory) return 'memory';
    return null;
  }

  /** A review of this kind ran (whatever it decided): start counting again. */
  reset(kind: ReviewKind): void {
    if (kind !== 'memory') this.itersSinceSkill = 0;
    if (kind !== 'skill') this.turnsSinceMemory = 0;
  }

  snapshot(): { itersSinceSkill: number; turnsSinceMemory: number } {
    return { itersSinceSkill: this.itersSinceSkill, turnsSinceMemory: this.turnsSinceMemory };
  }
}

function isMemoryRead(argumentsJson: string): boolean {
  try {
    const parsed = JSON.parse(argumentsJson) as { action?: unknown };
    return parsed.action === 'read';
  } catch (err) {
    // Unparseable arguments never reached the tool, so nothing was written: not a memory write.
    void err;
    return true;
  }
}
