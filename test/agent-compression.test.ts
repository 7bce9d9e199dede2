import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_MARKER } from '../src/core/agent/compression/index.js';
import type { AgentHost } from '../src/core/agent/host.js';
import { conversationThreshold } from '../src/core/agent/compression/index.js';
import { LocalBackend } from '../src/core/exec/local.js';
import type { ChatRequest } from '../src/core/llm/types.js';
import type { AgentEvent } from '../src/shared/events.js';
import { isSummaryRequest, openCompactingHost, send } from './fixtures/compacting-host.js';
import { validSummary } from './fixtures/compression-histories.js';
import { ScriptedModel, type ScriptStep } from './fixtures/scripted-model.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/**
 * Context compression inside the agent host: it triggers between model calls when the prompt passes
 * the threshold of a SMALL window, continues the conversation in a child session linked to its
 * parent, and when the summary fails keeps every turn and warns the user.
 */

/** A model with a 4K window, as small local models have (Hermes Agent refuses anything under 64K). */
class SmallWindowModel extends ScriptedModel {
  readonly contextLength = 4096;
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-compress-host-')));
const backend = new LocalBackend();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(() => backend.dispose());

/** ~550 tokens of distinct words per answer: a few turns pass the 2,048-token threshold. */
function longAnswer(turn: number): string {
  return Array.from({ length: 120 }, (_, i) => `fact${turn}_${i}`).join(' ');
}

const QUESTIONS = ['first question', 'second question', 'third question', 'fourth question'];

function setup(onSummary: () => ScriptStep): { host: AgentHost; model: SmallWindowModel; temp: TempStore } {
  const temp = createTempStore('hearth-compress-store-');
  const store = temp.open();
  let turn = 0;
  const model = new SmallWindowModel((request) => {
    if (isSummaryRequest(request)) return onSummary();
    turn += 1;
    return { text: longAnswer(turn) };
  });
  const host = openCompactingHost({ store, model, backend, root, protect: { first: 1, last: 2 } });
  cleanups.push(async () => {
    await host.close();
    temp.cleanup();
  });
  return { host, model, temp };
}

describe('compression in the agent host', () => {
  it('compresses a 4K-window conversation and continues it in a child session linked to its parent', async () => {
    const { host, model, temp } = setup(() => ({ text: validSummary('docs-work') }));
    const parent = host.startSession({ source: 'cli' });
    const events: AgentEvent[] = [];
    for (const question of [...QUESTIONS, 'fifth question']) events.push(...(await send(host, parent, question)));

    const compressed = events.find((e) => e.type === 'compressed');
    // Catches a trigger that never fires below 64K, or one that fires without telling the surface.
    expect(compressed).toBeDefined();
    if (compressed?.type !== 'compressed') throw new Error('unreachable');
    expect(compressed.parentSessionId).toBe(parent);
    expect(compressed.tokensAfter).toBeLessThan(compressed.tokensBefore);
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop' });

    // The model call after compression carried the summary, not the summarised answers.
    const summaryAt = model.requests.findIndex(isSummaryRequest);
    const text = (request: ChatRequest) => request.messages.map((m) => m.content).join('\n');
    const before = text(model.requests[summaryAt - 1]!);
    const after = text(model.requests[summaryAt + 1]!);
    expect(after).toContain(SUMMARY_MARKER);
    const summarisedAway = [1, 2, 3, 4].filter((turn) => before.includes(longAnswer(turn)) && !after.includes(longAnswer(turn)));
    expect(summarisedAway.length).toBeGreaterThan(0);

    // The child is linked to its parent and holds the new context; the conversation went on there.
    const store = temp.open();
    const child = store.getSession(compressed.sessionId);
    expect(child?.parentSessionId).toBe(parent);
    const childMessages = store.getMessages(compressed.sessionId);
    expect(childMessages.some((m) => m.content.startsWith(SUMMARY_MARKER))).toBe(true);
    const lineage = store.listSessions().filter((s) => s.parentSessionId !== null);
    const newest = lineage.find((s) => !lineage.some((other) => other.parentSessionId === s.id))!;
    expect(store.getMessages(newest.id).at(-1)?.content).toBe(longAnswer(5));
    // Nothing is lost: the parent still has every original message.
    expect(store.getMessages(parent).map((m) => m.content)).toContain(longAnswer(1));
    // The old id still reaches the live session (surfaces keep the id they know).
    expect(host.history(parent)).toBe(host.history(compressed.sessionId));
  });

  it('when the summary call fails, every turn is kept, the user is warned, and the turn still completes', async () => {
    const { host, model } = setup(() => ({ error: new Error('summary model is down') }));
    const session = host.startSession({ source: 'cli' });
    const events: AgentEvent[] = [];
    for (const question of [...QUESTIONS, 'fifth question']) events.push(...(await send(host, session, question)));

    expect(events.some((e) => e.type === 'compressed')).toBe(false);
    const warning = events.find((e) => e.type === 'notice' && e.level === 'warning');
    // Catches Hermes Agent's silent drop (#10719): the user must hear that compression did not happen.
    expect(warning).toMatchObject({ message: expect.stringMatching(/kept/i) });
    const last = model.requests.at(-1)!;
    expect(isSummaryRequest(last)).toBe(false);
    const sent = last.messages.map((m) => m.content).join('\n');
    for (const turn of [1, 2, 3, 4]) expect(sent).toContain(longAnswer(turn));
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop' });
  });
});

describe('/compress (AgentHost.compress)', () => {
  it('compresses on request below the threshold, and carries the focus into the summary request', async () => {
    const { host, model } = setup(() => ({ text: validSummary('on-request') }));
    const session = host.startSession({ source: 'cli' });
    for (const question of QUESTIONS.slice(0, 3)) await send(host, session, question);
    expect(model.requests.some(isSummaryRequest)).toBe(false); // the threshold was not reached
    const { compressed, events } = await host.compress(session, { focus: 'the deployment' });
    // Catches a manual compression that waits for the threshold, or drops the user's focus.
    expect(compressed).toBe(true);
    expect(events.some((e) => e.type === 'compressed')).toBe(true);
    const summaryRequest = model.requests.find(isSummaryRequest)!;
    expect(summaryRequest.messages.map((m) => m.content).join('\n')).toContain('the deployment');
  });
});

describe('the compression trigger leaves room for the conversation', () => {
  it('applies the threshold to the window minus the fixed prompt, within bounds', () => {
    // Catches a plain 50 % trigger on an 8K model whose prompt and tools already take ~2.7K tokens.
    expect(conversationThreshold(0.5, 2690, 8192)).toBeCloseTo((2690 + 0.5 * (8192 - 2690)) / 8192, 5);
    expect(conversationThreshold(0.5, 0, 8192)).toBe(0.5);
    expect(conversationThreshold(0.5, 8000, 8192)).toBe(0.85); // never so late that the reply has no room
  });
});
