import { afterEach, describe, expect, it } from 'vitest';
import { compressContext, summaryTokenBudget, type CompressionConfig } from '../src/core/agent/compression/compress.js';
import { PRUNED_PREFIX } from '../src/core/agent/compression/prune.js';
import { isProtectedMessage } from '../src/core/agent/compression/protected-content.js';
import { SUMMARY_SECTIONS } from '../src/core/agent/compression/summarize.js';
import { SUMMARY_MARKER, isSummaryMessage } from '../src/core/agent/compression/summary-message.js';
import { estimateTokens, needsCompression } from '../src/core/agent/compression/token-estimate.js';
import { defaultConfig } from '../src/core/config/schema.js';
import { HearthError } from '../src/core/errors.js';
import { OpenAICompatibleModel, type OpenAICompatibleOptions } from '../src/core/llm/providers/openai.js';
import { countReferenceTokens } from '../src/core/llm/token-count.js';
import type { ChatMessage, ToolSchema } from '../src/core/llm/types.js';
import { generateHistory, markers, validSummary } from './fixtures/compression-histories.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import { collectEvents, type Script, type ScriptedServer } from './fixtures/scripted-turns.js';
import { seededRandom } from '../src/core/seeded-random.js';

const SYSTEM = 'You are Hearth, a helpful local assistant.';
const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'skill_view', description: 'Load a skill', parameters: { type: 'object', properties: { name: { type: 'string' } } } },
];

interface WireRequest {
  messages: { role: string; content: string | null }[];
  max_tokens?: number;
  tools?: unknown;
  tool_choice?: unknown;
}

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script, extra: Partial<OpenAICompatibleOptions> = {}, contextLength = 32_768) {
  const server = await startScriptedOpenAIServer(script, { chunkChars: 64, writeDelayMs: 0 });
  servers.push(server);
  const model = new OpenAICompatibleModel({ id: 'openai:test-model', baseUrl: server.url, model: 'test-model', retryBaseDelayMs: 1, contextLength, ...extra });
  return { server, model, requests: () => server.requests as WireRequest[] };
}

function config(overrides: Partial<CompressionConfig> = {}): CompressionConfig {
  return { ...defaultConfig().compression, protect_first_n: 3, protect_last_n: 4, ...overrides };
}

const userText = (request: WireRequest | undefined) => String(request?.messages.find((m) => m.role === 'user')?.content ?? '');
const signal = () => new AbortController().signal;

describe('compressContext with a real OpenAI-wire server', () => {
  it('sends the middle as an abbreviated transcript with the sections asked for, and no tools (catches summarising the tail or losing the middle)', async () => {
    const { model, requests } = await serve(() => ({ text: validSummary('S1') }));
    const history = generateHistory(seededRandom(11), { turns: 10, maxOutputChars: 3_000 });
    const result = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 32_768, config: config({ threshold: 0.1 }), signal: signal() });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(requests()).toHaveLength(1);
    const request = requests()[0]!;
    expect(request.tools).toBeUndefined();
    expect(request.messages[0]!.content).toContain('## Constraints & Preferences');
    for (const section of SUMMARY_SECTIONS) expect(userText(request)).toContain(`## ${section}`);
    expect(userText(request)).toContain('<transcript>');
    expect(request.max_tokens).toBe(summaryTokenBudget(32_768, 0));

    const sent = new Set(markers(userText(request)));
    const kept = new Set(result.history.flatMap((m) => markers(m.content)));
    // The tail is kept, not summarised; the summarised middle is not also kept.
    for (const tag of markers(history.at(-1)!.content)) expect(sent.has(tag)).toBe(false);
    expect([...sent].filter((tag) => kept.has(tag))).toEqual([]);
    // Every message reached the summary or the new history, except outputs pruned to a placeholder.
    for (const message of history) {
      if (message.role === 'tool' && message.content.length > 200) continue;
      for (const tag of markers(message.content)) expect(sent.has(tag) || kept.has(tag), tag).toBe(true);
    }
    // Long outputs are abbreviated: the request is much smaller than the middle it stands for.
    expect(countReferenceTokens(userText(request))).toBeLessThan(result.tokensBefore);
    expect(result.summarizedMessages).toBeGreaterThan(0);
    expect(result.summarizedMessages + result.history.length - 1).toBe(history.length);
  });

  it('returns head, one marked summary, skill content verbatim, tail, and the server accepts it (catches a broken tool pair or lost skill)', async () => {
    const { model, requests } = await serve((_body, index) => (index === 0 ? { text: validSummary('S1') } : { text: 'continuing' }));
    const history = generateHistory(seededRandom(5), { turns: 14, skillViewChance: 0.2, skillActivationChance: 0.3 });
    const result = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 16_384, config: config(), toolSchemas: TOOLS, signal: signal() });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const summaries = result.history.filter(isSummaryMessage);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.content.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(summaries[0]!.content).toContain('Finish the migration (S1).');
    // The head (at least protect_first_n) precedes the summary in its original order; the last protect_last_n follow untouched.
    const at = result.history.indexOf(summaries[0]!);
    expect(at).toBeGreaterThanOrEqual(3);
    expect(result.history.slice(0, at).map((m) => m.role)).toEqual(history.slice(0, at).map((m) => m.role));
    expect(result.history.slice(0, at).filter((m) => m.role === 'user')).toEqual(history.slice(0, at).filter((m) => m.role === 'user'));
    expect(result.history.slice(-4)).toEqual(history.slice(-4));
    // Skill content survives verbatim, wherever it was.
    const protectedBefore = history.filter(isProtectedMessage);
    expect(protectedBefore.length).toBeGreaterThan(3);
    const keptContent = new Set(result.history.map((m) => m.content));
    for (const message of protectedBefore) expect(keptContent.has(message.content)).toBe(true);
    expect(result.carriedMessages).toBeGreaterThan(0);
    // The real wire check: the server rejects orphaned or unanswered tool calls with a 400.
    const events = await collectEvents(model.stream({ messages: [{ role: 'system', content: SYSTEM }, ...result.history], tools: TOOLS }, signal()));
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    expect(requests()).toHaveLength(2);
  });

  it('updates the previous summary on a second compression instead of starting over or keeping both', async () => {
    const { model, requests } = await serve((_body, index) => ({ text: validSummary(`S${index + 1}`) }));
    const all = generateHistory(seededRandom(21), { turns: 24 });
    const firstHalf = all.slice(0, all.findIndex((m, i) => i > all.length / 2 && m.role === 'user'));
    const first = await compressContext({ model, systemPrompt: SYSTEM, history: firstHalf, contextLength: 16_384, config: config(), signal: signal() });
    expect(first.ok).toBe(true);
    const second = await compressContext({ model, systemPrompt: SYSTEM, history: [...first.history, ...all.slice(firstHalf.length)], contextLength: 16_384, config: config(), signal: signal() });
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    const request = userText(requests()[1]);
    expect(request).toContain('<previous-summary>');
    expect(request).toContain('Finish the migration (S1).');
    expect(request).toMatch(/UPDATE the summary/);
    // The old summary is sent as the summary to update, not again inside the transcript.
    expect(request.split(SUMMARY_MARKER)).toHaveLength(1);
    expect(second.history.filter(isSummaryMessage)).toHaveLength(1);
    expect(second.summary).toContain('(S2)');
  });

  const failures: { name: string; script: Script; code: string; model?: Partial<OpenAICompatibleOptions> }[] = [
    { name: 'HTTP 500 on every attempt', script: () => ({ status: 500, errorMessage: 'upstream exploded' }), code: 'model_http' },
    { name: 'an answer without the sections', script: () => ({ text: 'Sure! You talked about files.' }), code: 'model_bad_response' },
    { name: 'an empty answer', script: () => ({ text: '' }), code: 'model_bad_response' },
    { name: 'a stalled stream', script: () => ({ text: validSummary('late'), hangMs: 5_000 }), code: 'model_timeout', model: { idleTimeoutMs: 300 } },
  ];
  for (const failure of failures) {
    it(`keeps every turn and warns when summarising fails: ${failure.name} (Hermes drops them silently)`, async () => {
      const { model } = await serve(failure.script, failure.model);
      const history = generateHistory(seededRandom(3), { turns: 10, maxOutputChars: 2_000 });
      const result = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 16_384, config: config(), signal: signal() });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.reason).toBe('summary_failed');
      expect(result.error?.code).toBe(failure.code);
      expect(result.warning).toMatch(/could not summarise.*the turns were kept and nothing was dropped/);
      expect(result.history).toHaveLength(history.length);
      history.forEach((original, i) => {
        const kept = result.history[i]!;
        expect(kept.role).toBe(original.role);
        if (kept.content !== original.content) {
          expect(original.role).toBe('tool');
          expect(kept.content.startsWith(PRUNED_PREFIX)).toBe(true);
        }
        if (original.role === 'assistant') expect(kept).toEqual(original);
      });
      expect(result.prunedToolOutputs).toBeGreaterThan(0);
      expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    });
  }

  it('gets a 4k-context conversation under its threshold and reports the token counts (catches a summary or tail too big for small windows)', async () => {
    const { model, requests } = await serve(() => ({ text: validSummary('small', '\nThe user prefers tabs over spaces.') }), {}, 4_096);
    const history = generateHistory(seededRandom(8), { turns: 16, maxOutputChars: 900 });
    const cfg = config({ protect_last_n: 2 });
    const before = estimateTokens(SYSTEM, history, TOOLS);
    expect(needsCompression({ promptTokens: before, contextLength: 4_096, threshold: cfg.threshold })).toBe(true);
    const result = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 4_096, config: cfg, toolSchemas: TOOLS, signal: signal() });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.tokensBefore).toBe(before);
    expect(result.tokensAfter).toBe(estimateTokens(SYSTEM, result.history, TOOLS));
    expect(result.tokensAfter).toBeLessThan(2_048);
    expect(result.fits).toBe(true);
    expect(needsCompression({ promptTokens: result.tokensAfter, contextLength: 4_096, threshold: cfg.threshold })).toBe(false);
    for (const request of requests()) {
      const prompt = request.messages.reduce((sum, m) => sum + countReferenceTokens(m.content ?? ''), 0);
      expect(prompt + (request.max_tokens ?? 0)).toBeLessThanOrEqual(4_096);
    }
  });

  it('summarises a middle larger than a 4k window in several calls, each updating the last (catches a request that cannot fit)', async () => {
    const { model, requests } = await serve((_body, index) => ({ text: validSummary(`chunk${index}`) }), {}, 4_096);
    const history = generateHistory(seededRandom(9), { turns: 60, maxOutputChars: 150 });
    expect(estimateTokens(SYSTEM, history)).toBeGreaterThan(3 * 4_096);
    const result = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 4_096, config: config({ protect_last_n: 2 }), signal: signal() });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.summaryCalls).toBeGreaterThan(1);
    expect(requests()).toHaveLength(result.summaryCalls);
    requests().forEach((request, index) => {
      const prompt = request.messages.reduce((sum, m) => sum + countReferenceTokens(m.content ?? ''), 0);
      expect(prompt + (request.max_tokens ?? 0)).toBeLessThanOrEqual(4_096);
      if (index > 0) expect(userText(request)).toContain(`Finish the migration (chunk${index - 1}).`);
    });
    expect(result.summary).toContain(`(chunk${result.summaryCalls - 1})`);
    expect(result.tokensAfter).toBeLessThan(2_048);
  });

  it('says so when even the kept conversation is over the threshold (the caller decides; nothing is cut)', async () => {
    const { model } = await serve(() => ({ status: 503 }), { retries: 0 }, 4_096);
    const history: ChatMessage[] = [
      ...generateHistory(seededRandom(2), { turns: 6 }),
      { role: 'user', content: `Please review this: ${'lorem ipsum dolor sit amet '.repeat(600)}` },
    ];
    const result = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 4_096, config: config({ protect_last_n: 1 }), signal: signal() });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fits).toBe(false);
    expect(result.warning).toMatch(/may not fit/);
    expect(result.history.at(-1)).toBe(history.at(-1));
  });

  it('reports nothing to summarise without calling the model when everything is protected', async () => {
    const { requests, model } = await serve(() => ({ text: validSummary('never') }));
    const history = generateHistory(seededRandom(4), { turns: 2, maxOutputChars: 100 });
    const result = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 32_768, config: config({ protect_last_n: 50 }), signal: signal() });
    expect(result).toMatchObject({ ok: false, reason: 'nothing_to_summarize' });
    expect(result.history).toEqual(history);
    expect(requests()).toHaveLength(0);
  });

  it('an interrupt during the summary call throws aborted and changes nothing (not reported as a summary failure)', async () => {
    const { model } = await serve(() => ({ text: validSummary('slow'), hangMs: 10_000 }));
    const history = generateHistory(seededRandom(6), { turns: 8 });
    const copy = structuredClone(history);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stopped by the user')), 150);
    const error = await compressContext({ model, systemPrompt: SYSTEM, history, contextLength: 16_384, config: config(), signal: controller.signal }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(HearthError);
    expect((error as HearthError).code).toBe('aborted');
    expect(history).toEqual(copy);
  });
});
