import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../src/core/app/event-hub.js';
import { createChatStore } from '../src/renderer/chat/chat-store.js';
import type { FrameScheduler } from '../src/renderer/chat/frame-batcher.js';
import type { HearthApi, UiEvent } from '../src/shared/contract.js';

/**
 * Deltas are joined once, in the engine's event hub; the renderer batches what arrives into one store update per
 * frame. The real hub feeds the real chat store through a JSON round trip (what IPC and the WebSocket do), on a
 * simulated clock: one second of a model streaming 2,000 tokens/s, a tool call half-way, 60 frames.
 */
const noTransport: HearthApi = { invoke: () => Promise.reject(new Error('no calls in this test')), onEvent: () => () => undefined };

afterEach(() => {
  vi.useRealTimers();
});

function pipeline() {
  const queue: (() => void)[] = [];
  const frames: FrameScheduler = {
    schedule(flush) {
      queue.push(flush);
      return () => {
        const at = queue.indexOf(flush);
        if (at >= 0) queue.splice(at, 1);
      };
    },
  };
  const store = createChatStore(noTransport, frames);
  store.setState({ sessionId: 's1' });
  const sent: UiEvent[] = [];
  let updates = 0;
  store.subscribe(() => updates++);
  const hub = new EventHub((err) => {
    throw err;
  });
  hub.on((event) => {
    sent.push(event);
    store.getState().handleEvent(JSON.parse(JSON.stringify(event)) as UiEvent);
  });
  return { hub, store, sent, updates: () => updates, frame: () => queue.splice(0).forEach((flush) => flush()) };
}

describe('deltas joined once, on the way out of the engine', () => {
  it('2,000 tokens/s become at most one message and one store update per frame, in order, with all the text', () => {
    // Catches per-token messages (the hub not joining) or per-message renders (the renderer not batching), and a
    // join that moves text across the tool call or drops any of it.
    vi.useFakeTimers();
    const p = pipeline();
    let before = '';
    let after = '';
    let frame = 0;
    for (let ms = 1; ms <= 1000; ms++) {
      for (let t = 0; t < 2; t++) {
        const delta = `${ms}.${t} `;
        if (ms <= 500) before += delta;
        else after += delta;
        p.hub.emit({ channel: 'agent', sessionId: 's1', event: { type: 'text_delta', delta } });
      }
      if (ms === 500) p.hub.emit({ channel: 'agent', sessionId: 's1', event: { type: 'tool_start', callId: 'c1', name: 'terminal', args: {} } });
      vi.advanceTimersByTime(1);
      if (Math.floor(ms / (1000 / 60)) > frame) {
        frame += 1;
        p.frame();
      }
    }
    p.hub.flush();
    p.frame();

    const deltas = p.sent.filter((e) => e.channel === 'agent' && e.event.type === 'text_delta');
    // One message per 16 ms window (the tool call cuts one window short): ~63 for the second, not 2,000.
    expect(deltas.length).toBeGreaterThan(50);
    expect(deltas.length).toBeLessThanOrEqual(1000 / 16 + 2);
    expect(p.updates()).toBeLessThanOrEqual(61);
    const items = p.store.getState().items;
    expect(items.map((i) => i.kind)).toEqual(['assistant', 'tool', 'assistant']);
    expect(items[0]).toMatchObject({ text: before });
    expect(items[2]).toMatchObject({ text: after });
  });
});
