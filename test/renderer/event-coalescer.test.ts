// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/renderer/chat/chat-store.js';
import { EventCoalescer, type FrameScheduler, type SessionEvent } from '../../src/renderer/chat/event-coalescer.js';
import type { HearthApi } from '../../src/shared/contract.js';

/** A frame clock the test advances by hand. */
function manualFrames() {
  const queue: (() => void)[] = [];
  const scheduler: FrameScheduler = {
    schedule(flush) {
      queue.push(flush);
      return () => queue.splice(queue.indexOf(flush), 1);
    },
  };
  return { scheduler, scheduled: () => queue.length, frame: () => queue.splice(0).forEach((f) => f()) };
}

describe('per-frame delta coalescing', () => {
  it('joins a burst of deltas into one applied event per frame', () => {
    // Catches one store update (and re-render) per token: 2,000 tokens/s would be ~33 renders a frame.
    const frames = manualFrames();
    const applied: SessionEvent[][] = [];
    const coalescer = new EventCoalescer((events) => applied.push(events), frames.scheduler);
    for (let i = 0; i < 500; i++) coalescer.push('s1', { type: 'text_delta', delta: `t${i} ` });
    expect(applied).toHaveLength(0);
    expect(frames.scheduled()).toBe(1);
    frames.frame();
    expect(applied).toHaveLength(1);
    expect(applied[0]).toHaveLength(1);
    expect(applied[0]?.[0]?.event).toEqual({ type: 'text_delta', delta: Array.from({ length: 500 }, (_, i) => `t${i} `).join('') });
  });

  it('keeps the order of deltas and other events, and never merges across sessions or kinds', () => {
    // Catches a tool card appearing before the text that preceded it, or reasoning glued into the answer.
    const frames = manualFrames();
    const applied: SessionEvent[] = [];
    const coalescer = new EventCoalescer((events) => applied.push(...events), frames.scheduler);
    coalescer.push('s1', { type: 'reasoning_delta', delta: 'r1' });
    coalescer.push('s1', { type: 'reasoning_delta', delta: 'r2' });
    coalescer.push('s1', { type: 'text_delta', delta: 'a' });
    coalescer.push('s2', { type: 'text_delta', delta: 'other' });
    coalescer.push('s1', { type: 'text_delta', delta: 'b' });
    coalescer.push('s1', { type: 'tool_start', callId: 'c', name: 'x', args: {} });
    coalescer.push('s1', { type: 'text_delta', delta: 'c' });
    frames.frame();
    expect(applied.map((e) => [e.sessionId, e.event.type, 'delta' in e.event ? e.event.delta : ''])).toEqual([
      ['s1', 'reasoning_delta', 'r1r2'],
      ['s1', 'text_delta', 'a'],
      ['s2', 'text_delta', 'other'],
      ['s1', 'text_delta', 'b'],
      ['s1', 'tool_start', ''],
      ['s1', 'text_delta', 'c'],
    ]);
  });

  it('does not write the joined text into the caller’s event objects', () => {
    // Catches mutation of events another listener (or the transport's buffer) still holds.
    const frames = manualFrames();
    const coalescer = new EventCoalescer(() => undefined, frames.scheduler);
    const first = { type: 'text_delta' as const, delta: 'a' };
    coalescer.push('s1', first);
    coalescer.push('s1', { type: 'text_delta', delta: 'b' });
    frames.frame();
    expect(first.delta).toBe('a');
  });

  it('the chat store re-renders once per frame however many deltas arrive, and ends with all the text', () => {
    // Catches a store that bypasses the coalescer (one zustand notification per token).
    const frames = manualFrames();
    const noTransport: HearthApi = {
      invoke: () => Promise.reject(new Error('no calls in this test')),
      onEvent: () => () => undefined,
    };
    const store = createChatStore(noTransport, frames.scheduler);
    store.setState({ sessionId: 's1' });
    let notifications = 0;
    store.subscribe(() => notifications++);
    for (let frame = 0; frame < 10; frame++) {
      for (let i = 0; i < 200; i++) store.getState().handleEvent({ channel: 'agent', sessionId: 's1', event: { type: 'text_delta', delta: 'x' } });
      frames.frame();
    }
    expect(notifications).toBe(10);
    expect(store.getState().items[0]).toMatchObject({ kind: 'assistant', text: 'x'.repeat(2000) });
  });
});
