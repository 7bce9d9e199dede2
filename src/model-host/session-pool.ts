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
  /** The session ended while this slot was generating for it: clear it as soon as it is released. */
  forgetOnRelease: boolean;
}

/** What a slot holds, for `hearth doctor`-style inspection and tests. */
export interface SlotState {
  sessionKey: string | undefined;
  busy: boolean;
  /** Tokens of KV cache the slot holds. */
  tokens: number;
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
    let evict = false;
    if (slot === undefined && this.context.sequencesLeft > 0) {
      slot = { sequence: this.context.getSequence(), sessionKey, lastUsed: 0, busy: false, forgetOnRelease: false };
      this.slots.push(slot);
    }
    if (slot === undefined) {
      const idle = this.slots.filter((s) => !s.busy).sort((a, b) => a.lastUsed - b.lastUsed);
      slot = idle[0];
      if (slot === undefined) throw new SessionPoolExhaustedError(`all ${this.slots.length} session slots are generating`);
      evict = true;
    }
    // Claimed before any await: two sessions arriving together must never both take the same idle slot.
    slot.busy = true;
    slot.forgetOnRelease = false;
    slot.sessionKey = sessionKey;
    slot.lastUsed = ++this.clock;
    if (evict) {
      // The previous session's cache is dropped; it re-evaluates its whole prompt if it returns.
      try {
        await slot.sequence.clearHistory();
      } catch (err) {
        this.free(slot);
        throw err;
      }
    }
    return slot.sequence;
  }

  /** The generation on `sequence` has finished; a session that ended meanwhile is cleared now. */
  async release(sequence: LlamaContextSequence): Promise<void> {
    const slot = this.slots.find((s) => s.sequence === sequence);
    if (!slot) return;
    if (slot.forgetOnRelease) {
      try {
        await slot.sequence.clearHistory();
      } finally {
        this.free(slot);
      }
      return;
    }
    slot.busy = false;
  }

  /**
   * Forget a session: its sequence is cleared and free for the next one. A session still generating
   * is cleared when that generation releases it. False when the pool holds nothing for it.
   */
  async forget(sessionKey: string): Promise<boolean> {
    const slot = this.slots.find((s) => s.sessionKey === sessionKey);
    if (!slot) return false;
    if (slot.busy) {
      slot.forgetOnRelease = true;
      return true;
    }
    slot.busy = true; // nobody may acquire it while its cache is being cleared
    try {
      await slot.sequence.clearHistory();
    } finally {
      this.free(slot);
    }
    return true;
  }

  private free(slot: Slot): void {
    slot.sessionKey = undefined;
    slot.lastUsed = 0;
    slot.busy = false;
    slot.forgetOnRelease = false;
  }

  get capacity(): number {
    return this.context.totalSequences;
  }

  get busyCount(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  state(): SlotState[] {
    return this.slots.map((s) => ({ sessionKey: s.sessionKey, busy: s.busy, tokens: s.sequence.disposed ? 0 : s.sequence.contextTokens.length }));
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
