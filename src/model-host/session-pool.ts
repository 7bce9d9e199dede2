/**
 * One context sequence (its own KV cache) per live session, reused across calls so each call
 * evaluates only the tokens after the longest prefix the sequence already holds. When every
 * sequence is taken, the least recently used idle session gives its sequence up.
 */
import type { LlamaContext, LlamaContextSequence, Token } from 'node-llama-cpp';

interface Slot {
  sequence: LlamaContextSequence;
  sessionKey: string | undefined;
  lastUsed: number;
  busy: boolean;
}

export class SessionPoolExhaustedError extends Error {}

export class SessionPool {
  private readonly slots: Slot[] = [];
  private clock = 0;

  constructor(private readonly context: LlamaContext) {}

  /**
   * The sequence for `sessionKey`, marked busy until `release`. Throws SessionPoolExhaustedError when
   * every sequence is generating for another session right now.
   */
  async acquire(sessionKey: string): Promise<LlamaContextSequence> {
    let slot = this.slots.find((s) => s.sessionKey === sessionKey);
    if (slot?.busy) throw new SessionPoolExhaustedError(`session ${sessionKey} is already generating`);
    if (slot === undefined && this.context.sequencesLeft > 0) {
      slot = { sequence: this.context.getSequence(), sessionKey, lastUsed: 0, busy: false };
      this.slots.push(slot);
    }
    if (slot === undefined) {
      const idle = this.slots.filter((s) => !s.busy).sort((a, b) => a.lastUsed - b.lastUsed);
      slot = idle[0];
      if (slot === undefined) throw new SessionPoolExhaustedError(`all ${this.slots.length} session slots are generating`);
      // Evict: the previous session's cache is dropped; it re-evaluates its whole prompt if it returns.
      await slot.sequence.clearHistory();
      slot.sessionKey = sessionKey;
    }
    slot.busy = true;
    slot.lastUsed = ++this.clock;
    return slot.sequence;
  }

  release(sequence: LlamaContextSequence): void {
    const slot = this.slots.find((s) => s.sequence === sequence);
    if (slot) slot.busy = false;
  }

  /** Forget a session: its sequence is cleared and free for the next one. */
  async forget(sessionKey: string): Promise<boolean> {
    const slot = this.slots.find((s) => s.sessionKey === sessionKey && !s.busy);
    if (!slot) return false;
    await slot.sequence.clearHistory();
    slot.sessionKey = undefined;
    slot.lastUsed = 0;
    return true;
  }

  get capacity(): number {
    return this.context.totalSequences;
  }
}

/**
 * Align `sequence` with `prompt`: erase whatever diverges from it and return the tokens that still
 * have to be evaluated. At least one token is always left to evaluate, because sampling needs the
 * logits of the last prompt token.
 */
export async function alignToPrompt(sequence: LlamaContextSequence, prompt: readonly Token[]): Promise<Token[]> {
  const held = sequence.contextTokens;
  let common = 0;
  while (common < held.length && common < prompt.length && held[common] === prompt[common]) common++;
  if (common === prompt.length) common = Math.max(0, prompt.length - 1);
  if (common < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
  return prompt.slice(common);
}
