import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SUMMARY_TRIES } from '../src/core/agent/session-compaction.js';
import { SUMMARY_SYSTEM_PROMPT } from '../src/core/agent/compression/summarize.js';
import { openEngine } from '../src/core/engine.js';
import type { AgentEvent } from '../src/shared/events.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/**
 * Issue 11, problem 8: with a failing summariser, 20 turns cost 6 flush reviews (each a model call
 * over the whole conversation) and 18 summary requests. The real engine, against a local server
 * speaking the OpenAI wire protocol whose summaries are always unusable: the flush review runs once
 * for the compression attempt, the summary is tried a bounded number of times, and every turn works.
 */

interface WireMessage {
  role: string;
  content: string | null;
}

/** Long answers in big pieces: the stream parsing is tested elsewhere, here it would only cost time. */
const FAST = { chunkChars: 512, writeDelayMs: 0 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** ~560 tokens of distinct words per answer, so the 16K window's threshold is passed about half-way. */
const answer = (turn: number) => Array.from({ length: 140 }, (_, i) => `note${turn}_${i}`).join(' ');

function countingServer(): Promise<ScriptedServer & { counts: { flush: number; summary: number; turns: number } }> {
  const counts = { flush: 0, summary: 0, turns: 0 };
  return startScriptedOpenAIServer((body) => {
    const messages = (body as { messages: WireMessage[] }).messages;
    const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (messages[0]?.content === SUMMARY_SYSTEM_PROMPT) {
      counts.summary += 1;
      return { text: 'Sure! You talked about notes.' }; // no sections: an unusable summary, every time
    }
    if (lastUser.includes('[Background review]')) {
      if (lastUser.includes('about to leave your context')) counts.flush += 1;
      return { text: 'Nothing to save.' };
    }
    counts.turns += 1;
    return { text: answer(counts.turns) };
  }, FAST).then((server) => Object.assign(server, { counts }));
}

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('one flush review per compression attempt (issue 11, problem 8)', () => {
  it('20 turns with a failing summariser: one flush review, a bounded number of summary tries, every turn answered', async () => {
    const server = await countingServer();
    cleanups.push(() => server.close());
    const env = freshHomeEnv();
    writeFileSync(
      join(env.HEARTH_HOME as string, 'config.yaml'),
      `version: 1\nmodel:\n  default: scripted:hermes\nproviders:\n  scripted: { type: openai, base_url: "${server.url}", context_length: 16384 }\n` +
        // No other background reviews, so every review request the server sees is a flush.
        `skills:\n  creation_nudge_interval: 1000\nmemory:\n  nudge_interval: 1000\nuser_model:\n  enabled: false\ncompression:\n  protect_first_n: 1\n  protect_last_n: 2\n`,
    );
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-attempts-ws-')));
    const engine = await openEngine({ env, workspace, userHome: workspace, yolo: true });
    cleanups.push(() => engine.dispose());

    const session = engine.sessions.host.startSession({ source: 'cli' });
    const events: AgentEvent[] = [];
    for (let turn = 1; turn <= 20; turn++) {
      const seen = await drain(engine.sessions.host.send(session, `question ${turn}`));
      expect(seen.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop' });
      events.push(...seen);
    }
    await engine.sessions.host.learningIdle(session);

    const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
    const failures = notices.filter((m) => m.startsWith('Hearth could not summarise'));
    // The attempt really was retried (the conversation passed the threshold and kept growing)...
    expect(failures).toHaveLength(MAX_SUMMARY_TRIES);
    expect(notices).toContain(`Summarising the earlier conversation again (try 2 of ${MAX_SUMMARY_TRIES}).`);
    // ...but the flush review ran once, not once per retry (catches 6 flushes for 20 turns).
    expect(server.counts.flush).toBe(1);
    // Catches unbounded retries: 18 summary requests for 20 turns.
    expect(server.counts.summary).toBe(MAX_SUMMARY_TRIES);
    expect(failures.at(-1)).toMatch(/will not try again on its own .*\/compress tries now/);
    expect(server.counts.turns).toBe(20);
  }, 60_000);
});
