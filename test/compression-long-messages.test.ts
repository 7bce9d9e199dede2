import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { renderTranscript, SUMMARY_MARKER } from '../src/core/agent/compression/index.js';
import { LocalBackend } from '../src/core/exec/local.js';
import { countReferenceTokens } from '../src/core/llm/token-count.js';
import type { ChatRequest } from '../src/core/llm/types.js';
import type { AgentEvent } from '../src/shared/events.js';
import { isSummaryRequest, openCompactingHost, send } from './fixtures/compacting-host.js';
import { validSummary } from './fixtures/compression-histories.js';
import { ScriptedModel } from './fixtures/scripted-model.js';
import { createTempStore } from './fixtures/temp-store.js';

/**
 * Issue 11, problem 5: long messages lost their middle before summarising (a fixed 6,000-character
 * cap, whatever the summariser's budget) and nobody was told. Now a message that fits the summary
 * request is sent whole; one that does not is shortened only as far as the budget demands, and both
 * the user (a notice) and the summary message say so.
 */

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-long-msg-')));
const backend = new LocalBackend();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(() => backend.dispose());

/** About 5,400 tokens and 30,000 characters of distinct words: far past the old 6,000-character cap. */
const LONG_ANSWER = Array.from({ length: 2_600 }, (_, i) => `finding${i}`).join(' ');

const requestText = (request: ChatRequest) => request.messages.map((m) => m.content).join('\n');

function setup(contextLength: number) {
  const temp = createTempStore('hearth-long-msg-store-');
  const store = temp.open();
  class WindowModel extends ScriptedModel {
    readonly contextLength = contextLength;
  }
  let turn = 0;
  const model = new WindowModel((request) => {
    if (isSummaryRequest(request)) return { text: validSummary('long') };
    turn += 1;
    return { text: turn === 2 ? LONG_ANSWER : `short answer ${turn}` };
  });
  // One message kept at each end, so the long answer (turn 2) is in the summarised middle.
  const host = openCompactingHost({ store, model, backend, root, protect: { first: 1, last: 1 } });
  cleanups.push(async () => {
    await host.close();
    temp.cleanup();
  });
  return { host, model, store };
}

const shortenedNotices = (events: AgentEvent[]) => events.filter((e) => e.type === 'notice' && /shortened before summarising/.test(e.message));

describe('long messages before summarising (issue 11, problem 5)', () => {
  it('a long message that fits the summary request is sent whole, and nothing is reported cut', async () => {
    expect(LONG_ANSWER.length).toBeGreaterThan(6_000 * 4);
    expect(countReferenceTokens(LONG_ANSWER)).toBeGreaterThan(5_000);
    const { host, model } = setup(32_768);
    const session = host.startSession({ source: 'cli' });
    for (const text of ['first question', 'second question', 'third question']) await send(host, session, text);
    const { compressed, events } = await host.compress(session);
    expect(compressed).toBe(true);

    const summaryRequest = model.requests.find(isSummaryRequest)!;
    // Catches the fixed 6,000-character cap: a 32K window has room for the whole answer.
    expect(requestText(summaryRequest)).toContain(LONG_ANSWER);
    expect(requestText(summaryRequest)).not.toContain('chars omitted');
    expect(shortenedNotices(events)).toEqual([]);
  });

  it('one that does not fit is shortened to the budget, and the notice and the summary say how much', async () => {
    const { host, model, store } = setup(8_192);
    const session = host.startSession({ source: 'cli' });
    const events: AgentEvent[] = [];
    for (const text of ['first question', 'second question', 'third question']) events.push(...(await send(host, session, text)));

    const compressedEvent = events.find((e) => e.type === 'compressed');
    expect(compressedEvent).toBeDefined();
    // The middle may take more than one summary call (each updates the last); together they carry what was sent.
    const summaryRequests = model.requests.filter(isSummaryRequest);
    const sent = summaryRequests.map(requestText).join('\n');
    expect(sent).not.toContain(LONG_ANSWER);
    expect(sent).toMatch(/\[…\d+ chars omitted…\]/);
    // Each request stays inside the window, and uses it: far more than the old 6,000 characters got through.
    for (const request of summaryRequests) {
      const promptTokens = request.messages.reduce((sum, m) => sum + countReferenceTokens(m.content), 0);
      expect(promptTokens + (request.maxTokens ?? 0)).toBeLessThanOrEqual(8_192);
    }
    const kept = LONG_ANSWER.split(' ').filter((word) => new RegExp(`\\b${word}\\b`).test(sent)).length;
    expect(kept * 'findingNNN '.length).toBeGreaterThan(6_000);

    // Catches a silent cut: the user hears how many messages and how much.
    const notices = shortenedNotices(events);
    expect(notices).toHaveLength(1);
    const notice = notices[0] as Extract<AgentEvent, { type: 'notice' }>;
    expect(notice.message).toMatch(/1 long message was shortened before summarising \([\d,]+ characters from the middle left out\)/);
    const omitted = Number(/\(([\d,]+) characters/.exec(notice.message)![1]!.replace(/,/g, ''));
    expect(omitted).toBeGreaterThan(0);
    expect(omitted).toBeLessThan(LONG_ANSWER.length);
    // ...and so does the summary the model reads from now on (stored in the child session).
    if (compressedEvent?.type !== 'compressed') throw new Error('unreachable');
    const summary = store.getMessages(compressedEvent.sessionId).find((m) => m.content.startsWith(SUMMARY_MARKER))!;
    expect(summary.content).toMatch(/1 long message was shortened to fit the summary request \([\d,]+ characters of its middle left out\)/);
  });

  it('under a tight budget only the longest messages are cut, and only as far as needed (not every message to one fixed size)', () => {
    const medium = Array.from({ length: 700 }, (_, i) => `step${i}`).join(' '); // ~5,000 characters
    const long = Array.from({ length: 6_000 }, (_, i) => `row${i}`).join(' '); // ~40,000 characters
    const messages = [
      { role: 'user' as const, content: `please look at this: ${medium}` },
      { role: 'assistant' as const, content: long },
      { role: 'user' as const, content: 'thanks, and this short one' },
    ];
    const budget = 8_000;
    const { text, cuts } = renderTranscript(messages, budget);
    expect(countReferenceTokens(text)).toBeLessThanOrEqual(budget);
    expect(text).toContain(medium);
    expect(text).toContain('thanks, and this short one');
    expect(cuts.messages).toBe(1);
    // The cut message keeps most of what the budget allows (its start and its end), and the count is what went.
    expect(text).toContain('row0 row1 row2');
    expect(text).toContain('row5999');
    expect(cuts.charsOmitted).toBeGreaterThan(0);
    expect(text.length).toBeGreaterThan(medium.length + (long.length - cuts.charsOmitted) * 0.95);
  });
});
