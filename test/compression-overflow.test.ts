import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM_PROMPT } from '../src/core/agent/compression/summarize.js';
import { openEngine } from '../src/core/engine.js';
import { AnthropicModel } from '../src/core/llm/providers/anthropic.js';
import { OpenAICompatibleModel } from '../src/core/llm/providers/openai.js';
import { countReferenceTokens } from '../src/core/llm/token-count.js';
import type { AgentEvent } from '../src/shared/events.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { startScriptedAnthropicServer } from './fixtures/scripted-anthropic-server.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import { collectEvents, type ScriptedTurn } from './fixtures/scripted-turns.js';

/**
 * Issue 11, problem 8 (second half): once the context overflowed and the summary failed, every later
 * turn failed until a new session. The real engine against a local server that, like OpenAI, answers
 * HTTP 400 "maximum context length" to a prompt over its window, and whose summaries are unusable:
 * the session keeps working, the user is told what was left out, and the left-out messages stay in
 * the store where session_search finds them.
 */

interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}

const WINDOW = 16_384;
const FIRST = 'question 1: please remember this for later, it matters: the pelican code is 4471';
const ASK = 'Which pelican code did I give you at the very start?';

/** Long answers in big pieces: the stream parsing is tested elsewhere, here it would only cost time. */
const FAST = { chunkChars: 512, writeDelayMs: 0 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** ~1,100 tokens of distinct words per answer: the window fills in a dozen turns. */
const answer = (turn: number) => Array.from({ length: 280 }, (_, i) => `line${turn}_${i}`).join(' ');

/** What the provider counts: every message and tool schema (the reference tokenizer stands in for the model's). */
function promptTokens(body: { messages: WireMessage[]; tools?: unknown }): number {
  let total = body.tools === undefined ? 0 : countReferenceTokens(JSON.stringify(body.tools));
  for (const m of body.messages) total += 4 + countReferenceTokens(m.content ?? '') + countReferenceTokens(JSON.stringify(m.tool_calls ?? ''));
  return total;
}

/** OpenAI's own words for an over-long prompt (HTTP 400). */
const tooLong = (tokens: number): ScriptedTurn => ({
  status: 400,
  errorMessage: `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
});

describe('context overflow recovery (issue 11)', () => {
  const wordings = [
    { provider: 'OpenAI', status: 400, message: `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in 20000 tokens.` },
    { provider: 'llama-server', status: 400, message: 'the request exceeds the available context size, try increasing it' },
    { provider: 'Gemini (OpenAI-compatible)', status: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).' },
    { provider: 'a proxy', status: 413, message: 'prompt is too long for this model' },
  ];
  for (const { provider, status, message } of wordings) {
    it(`${provider}'s "prompt too long" is typed model_context_overflow, not a generic HTTP failure, and not retried`, async () => {
      const server = await startScriptedOpenAIServer((_body, index) => ({ status, errorMessage: index === 0 ? message : "Invalid value for 'temperature'" }), FAST);
      cleanups.push(() => server.close());
      const model = new OpenAICompatibleModel({ id: 'openai:test', baseUrl: server.url, model: 'test', retryBaseDelayMs: 1 });
      const call = () => collectEvents(model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, new AbortController().signal)).catch((err: unknown) => err);
      expect(await call()).toMatchObject({ code: 'model_context_overflow', details: { status } });
      expect(server.requests).toHaveLength(1); // the same prompt would be rejected again
      // The same status about something else stays a plain HTTP failure: nothing is pruned for it.
      expect(await call()).toMatchObject({ code: 'model_http' });
    });
  }

  it('Anthropic\'s "prompt is too long" is typed model_context_overflow too', async () => {
    const server = await startScriptedAnthropicServer(() => ({ status: 400, errorMessage: 'prompt is too long: 210000 tokens > 200000 maximum' }), FAST);
    cleanups.push(() => server.close());
    const model = new AnthropicModel({ id: 'anthropic:test', baseUrl: server.url, model: 'test', apiKey: 'k', retryBaseDelayMs: 1 });
    const error = await collectEvents(model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, new AbortController().signal)).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'model_context_overflow', details: { status: 400 } });
  });

  it('when the summary fails and the provider rejects the prompt, the oldest turns leave the view (not the store) and the session keeps working', async () => {
    const rejected: number[] = [];
    let turns = 0;
    const server = await startScriptedOpenAIServer((raw) => {
      const body = raw as { messages: WireMessage[]; tools?: unknown };
      const tokens = promptTokens(body);
      if (tokens > WINDOW) {
        rejected.push(tokens);
        return tooLong(tokens);
      }
      const messages = body.messages;
      if (messages[0]?.content === SUMMARY_SYSTEM_PROMPT) return { text: 'Sure! You talked about lines.' }; // unusable, every time
      const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      if (lastUser.includes('[Background review]')) return { text: 'Nothing to save.' };
      if (lastUser.startsWith(ASK)) {
        if (messages.at(-1)?.role === 'tool') return { text: 'You gave me 4471.' };
        return { toolCalls: [{ name: 'session_search', arguments: { query: 'pelican code' } }] };
      }
      turns += 1;
      return { text: answer(turns) };
    }, FAST);
    cleanups.push(() => server.close());
    const env = freshHomeEnv();
    writeFileSync(
      join(env.HEARTH_HOME as string, 'config.yaml'),
      `version: 1\nmodel:\n  default: scripted:hermes\nproviders:\n  scripted: { type: openai, base_url: "${server.url}", context_length: ${WINDOW} }\n` +
        `skills:\n  creation_nudge_interval: 1000\nmemory:\n  nudge_interval: 1000\nuser_model:\n  enabled: false\ncompression:\n  protect_first_n: 1\n  protect_last_n: 2\n`,
    );
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-overflow-ws-')));
    const engine = await openEngine({ env, workspace, userHome: workspace, yolo: true });
    cleanups.push(() => engine.dispose());

    const session = engine.sessions.host.startSession({ source: 'cli' });
    const events: AgentEvent[] = [];
    for (let turn = 1; turn <= 18; turn++) {
      const seen: AgentEvent[] = [];
      for await (const event of engine.sessions.host.send(session, turn === 1 ? FIRST : `question ${turn}`)) seen.push(event);
      // Catches the dead session: after the first overflow every turn failed with the provider's 400.
      expect(seen.at(-1), `turn ${turn}`).toMatchObject({ type: 'turn_end', reason: 'stop' });
      events.push(...seen);
    }
    expect(rejected.length).toBeGreaterThan(0); // the window really overflowed

    // The user is told exactly what left the model's view.
    const leftOut = events.flatMap((e) => (e.type === 'notice' && /left the oldest/.test(e.message) ? [e.message] : []));
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut[0]).toMatch(/left the oldest \d+ messages out of the model's view \(\d+ of your messages among them: from "question 1: please remember this for later, it matters: the…" to "question \d+"\)\. Nothing was deleted/);

    // The conversation went on in a child session; the parent still holds every message, the first one included.
    const pruned = events.find((e) => e.type === 'compressed' && e.summarizedMessages === 0);
    if (pruned?.type !== 'compressed') throw new Error('expected the pruned context to continue in a child session');
    expect(engine.sessions.store.getSession(pruned.sessionId)?.parentSessionId).toBe(pruned.parentSessionId);
    expect(engine.sessions.store.getMessages(session).map((m) => m.content)).toContain(FIRST);
    const liveView = engine.sessions.host.history(session).map((m) => m.content);
    expect(liveView.join('\n')).not.toContain('4471');
    expect(liveView[0]).toMatch(/^\[Hearth left out \d+ earlier messages/);

    // The model can still find the left-out message with session_search.
    const requestsBefore = server.requests.length;
    const last: AgentEvent[] = [];
    for await (const event of engine.sessions.host.send(session, ASK)) last.push(event);
    expect(last.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop', final: 'You gave me 4471.' });
    const final = server.requests.slice(requestsBefore).at(-1) as { messages: WireMessage[] };
    const toolResult = final.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
    expect(toolResult).toContain('the pelican code is 4471');
    // ...and nothing but that search put it in front of the model.
    expect(final.messages.filter((m) => m.role !== 'tool').map((m) => m.content).join('\n')).not.toContain('4471');
  }, 90_000);
});
