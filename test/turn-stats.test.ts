import { describe, expect, it } from 'vitest';
import { TurnStats } from '../src/core/app/turn-stats.js';

/** The status bar's numbers: they must describe the model and the turn they are shown for. */
describe('TurnStats', () => {
  const answered = (stats: TurnStats, clock: { t: number }) => {
    stats.observe({ type: 'status', state: 'thinking' });
    clock.t += 2000;
    stats.observe({ type: 'usage', inputTokens: 900, outputTokens: 100 });
  };

  // Catches the stale tokens/s: a failed turn kept showing the previous response's speed.
  it('forgets the speed when a turn fails, keeps the context', () => {
    const clock = { t: 0 };
    const stats = new TurnStats(() => clock.t);
    answered(stats, clock);
    expect(stats.snapshot()).toEqual({ tokensPerSecond: 50, contextUsed: 1000 });
    stats.observe({ type: 'turn_end', final: '', reason: 'error', error: { code: 'model_connection', message: 'refused' } });
    expect(stats.snapshot()).toEqual({ tokensPerSecond: null, contextUsed: 1000 });
  });

  it('starts over for another model', () => {
    const clock = { t: 0 };
    const stats = new TurnStats(() => clock.t);
    answered(stats, clock);
    stats.reset();
    expect(stats.snapshot()).toEqual({ tokensPerSecond: null, contextUsed: null });
  });
});
