/**
 * Ending a session frees the local model's KV cache for it: AgentHost.endSession (and close) tell the
 * model, through the switchable model and the fallback chain, to release the session's sequence, and
 * the real model host clears it. Observed through the protocol: the very same request on that session
 * key evaluates its whole prompt again instead of reusing a cached prefix.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost } from '../src/core/agent/host.js';
import { FallbackChain } from '../src/core/llm/fallback.js';
import { LocalModel } from '../src/core/local-model/local.js';
import { SwitchableModel } from '../src/core/llm/switchable-model.js';
import type { ChatModel, ChatRequest, ModelDescription, ModelEvent, Usage } from '../src/core/llm/types.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { ToolRegistry } from '../src/core/tools/registry.js';
import { modelDir, writeGguf } from './fixtures/gguf/index.js';
import { createTempStore } from './fixtures/temp-store.js';

const dirs = modelDir();
const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-kv-release-')));
let local: LocalModel;

/** Keeps the last request each session key sent, so it can be replayed byte for byte on the local model. */
class RequestLog implements ChatModel {
  readonly last = new Map<string, ChatRequest>();
  constructor(private readonly inner: LocalModel) {}
  get id(): string {
    return this.inner.id;
  }
  describe(): ModelDescription {
    return this.inner.describe();
  }
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    if (request.sessionKey !== undefined) this.last.set(request.sessionKey, request);
    // Short answers keep the random-weights model fast; the prompt is what this test is about.
    return this.inner.stream({ ...request, maxTokens: 8, temperature: 0 }, signal);
  }
  releaseSession(sessionKey: string): void {
    this.inner.releaseSession(sessionKey);
  }
}

async function usageOf(request: ChatRequest): Promise<Usage> {
  let usage: Usage | undefined;
  for await (const e of local.stream({ ...request, maxTokens: 2, temperature: 0 }, new AbortController().signal)) if (e.type === 'usage') usage = e.usage;
  return usage as Usage;
}

async function turn(host: AgentHost, sessionId: string, text: string): Promise<void> {
  for await (const e of host.send(sessionId, text)) if (e.type === 'turn_end') expect(e.reason).not.toBe('error');
}

beforeAll(() => {
  local = new LocalModel({ modelPath: writeGguf(dirs.path('tiny.gguf'), { preset: 'tiny' }).path, threads: 1, gpu: false, contextSize: 2048, maxSessions: 4 });
});
afterAll(async () => {
  await local.dispose();
  dirs.cleanup();
  rmSync(root, { recursive: true, force: true });
});

function agentHost(log: RequestLog, name: string): { host: AgentHost; cleanup: () => void } {
  const home = join(root, `home-${name}`);
  const workspace = join(root, `ws-${name}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const temp = createTempStore('hearth-kv-store-');
  const model = new SwitchableModel(new FallbackChain([log]));
  const host = new AgentHost({ store: temp.open(), model, tools: new ToolRegistry([]), approvals: new ApprovalPolicyBroker(), home, workspace });
  return { host, cleanup: () => temp.cleanup() };
}

describe('KV release when a session ends', () => {
  it('endSession frees the session’s sequence in the model host; a session still open keeps its cache', async () => {
    // Catches: an ended session's KV cache kept until LRU eviction (every ended chat pinning a sequence),
    // or a release that the switchable model or the fallback chain swallows on the way.
    const log = new RequestLog(local);
    const { host, cleanup } = agentHost(log, 'end');
    try {
      const ended = host.startSession({ source: 'cli' });
      const kept = host.startSession({ source: 'cli' });
      await turn(host, ended, 'Hello there, this session is about to end.');
      await turn(host, kept, 'Hello there, this session stays open.');
      await host.endSession(ended);

      const endedRequest = log.last.get(ended) as ChatRequest;
      const afterEnd = await usageOf(endedRequest);
      expect(afterEnd.evaluatedInputTokens).toBe(afterEnd.inputTokens);
      // The open session's cache is untouched: its last prompt is all cached but the final token.
      const stillOpen = await usageOf(log.last.get(kept) as ChatRequest);
      expect(stillOpen.evaluatedInputTokens).toBe(1);
    } finally {
      await host.close();
      cleanup();
    }
  });

  it('closing the agent host frees every live session’s sequence', async () => {
    // Catches: a host shutdown (the app quitting a profile, a gateway restart) leaving every session cached.
    const log = new RequestLog(local);
    const { host, cleanup } = agentHost(log, 'close');
    try {
      const id = host.startSession({ source: 'cli' });
      await turn(host, id, 'A conversation that is open when the host closes.');
      const before = await usageOf(log.last.get(id) as ChatRequest);
      expect(before.evaluatedInputTokens).toBe(1);
      await host.close();
      const after = await usageOf(log.last.get(id) as ChatRequest);
      expect(after.evaluatedInputTokens).toBe(after.inputTokens);
    } finally {
      await host.close();
      cleanup();
    }
  });
});
