import { describe, expect, it } from 'vitest';
import { EventHub } from '../src/core/app/event-hub.js';
import type { UiEvent } from '../src/shared/contract.js';

/**
 * Delta joining in the UI event hub. Catches: events reordered by the joining (a tool card before the text
 * that preceded it), deltas of two sessions or of text and reasoning glued together, text lost on close, and
 * joining that cannot be turned off.
 */
const text = (sessionId: string, delta: string): UiEvent => ({ channel: 'agent', sessionId, event: { type: 'text_delta', delta } });
const reasoning = (sessionId: string, delta: string): UiEvent => ({ channel: 'agent', sessionId, event: { type: 'reasoning_delta', delta } });
const toolStart = (sessionId: string): UiEvent => ({ channel: 'agent', sessionId, event: { type: 'tool_start', callId: 'c1', name: 'terminal', args: {} } });

function hub(batchMs: number): { hub: EventHub; seen: UiEvent[] } {
  const seen: UiEvent[] = [];
  const h = new EventHub((err) => {
    throw err;
  }, batchMs);
  h.on((e) => seen.push(e));
  return { hub: h, seen };
}

const summary = (events: UiEvent[]) => events.map((e) => (e.channel === 'agent' ? `${e.sessionId}:${e.event.type}${'delta' in e.event ? `=${e.event.delta}` : ''}` : e.channel));

describe('EventHub delta joining', () => {
  it('joins consecutive deltas of one session and sends them after the window', async () => {
    const { hub: h, seen } = hub(16);
    for (const piece of ['He', 'll', 'o']) h.emit(text('s1', piece));
    expect(seen).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(summary(seen)).toEqual(['s1:text_delta=Hello']);
  });

  it('sends waiting text before any other event, so the order never changes', () => {
    const { hub: h, seen } = hub(16);
    h.emit(text('s1', 'Let me check. '));
    h.emit(toolStart('s1'));
    h.emit(text('s1', 'Done.'));
    h.flush();
    expect(summary(seen)).toEqual(['s1:text_delta=Let me check. ', 's1:tool_start', 's1:text_delta=Done.']);
  });

  it('never glues two sessions or text and reasoning together', () => {
    const { hub: h, seen } = hub(16);
    h.emit(reasoning('s1', 'think '));
    h.emit(reasoning('s1', 'more'));
    h.emit(text('s1', 'answer'));
    h.emit(text('s2', 'other'));
    h.flush();
    expect(summary(seen)).toEqual(['s1:reasoning_delta=think more', 's1:text_delta=answer', 's2:text_delta=other']);
  });

  it('sends what is waiting when it closes', () => {
    const { hub: h, seen } = hub(1000);
    h.emit(text('s1', 'last words'));
    h.close();
    expect(summary(seen)).toEqual(['s1:text_delta=last words']);
  });

  it('passes every delta through at once with a 0 ms window', () => {
    const { hub: h, seen } = hub(0);
    h.emit(text('s1', 'a'));
    h.emit(text('s1', 'b'));
    expect(summary(seen)).toEqual(['s1:text_delta=a', 's1:text_delta=b']);
  });
});
