// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/renderer/chat/chat-store.js';
import { FrameBatcher, type FrameScheduler, type SessionEvent } from '../../src/renderer/chat/frame-batcher.js';
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

describe('per-frame batching in the renderer', () => {
  it('applies a burst of events in one store update per frame, in the order they arrived', () => {
    // Catches one store update (and re-render) per message, and a tool card overtaking the text before it.
    const frames = manualFrames();
    const applied: SessionEvent[][] = [];
    const batcher = new FrameBatcher((events) => applied.push(events), frames.scheduler);
    batcher.push('s1', { type: 'reasoning_delta', delta: 'r' });
    batcher.push('s1', { type: 'text_delta', delta: 'a' });
    batcher.push('s2', { type: 'text_delta', delta: 'other' });
    batcher.push('s1', { type: 'tool_start', callId: 'c', name: 'x', args: {} });
    batcher.push('s1', { type: 'text_delta', delta: 'b' });
    expect(applied).toHaveLength(0);
    expect(frames.scheduled()).toBe(1);
    frames.frame();
    expect(applied).toHaveLength(1);
    expect(applied[0]?.map((e) => [e.sessionId, e.event.type])).toEqual([
      ['s1', 'reasoning_delta'],
      ['s1', 'text_delta'],
      ['s2', 'text_delta'],
      ['s1', 'tool_start'],
      ['s1', 'text_delta'],
    ]);
  });

  it('the chat store re-renders once per frame however many deltas arrive, and ends with all the text', () => {
    // Catches a store that bypasses the batcher (one zustand notification per message).
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
