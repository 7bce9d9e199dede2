import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AgentHost } from '../src/core/agent/host.js';
import { LocalBackend } from '../src/core/exec/local.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { createToolset } from '../src/core/tools/registry.js';
import type { UiEvent } from '../src/shared/contract.js';
import type { AgentEvent } from '../src/shared/events.js';
import { startAppHarness, turnEnded, type AppHarness } from './fixtures/app-engine.js';
import { ScriptedModel, type ScriptStep } from './fixtures/scripted-model.js';
import type { ScriptedTurn } from './fixtures/scripted-turns.js';
import { createTempStore } from './fixtures/temp-store.js';

/**
 * `turn_end` goes out only after the session has let go of its turn, so whoever sees it may start the next turn
 * in the same session at once, synchronously, inside the listener: for a turn that ended normally, one that
 * failed, and one that was interrupted.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-turn-end-')));
const backend = new LocalBackend();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(async () => {
  await backend.dispose();
  rmSync(root, { recursive: true, force: true });
});

const ENDINGS = ['stop', 'error', 'aborted'] as const;
type Ending = (typeof ENDINGS)[number];

describe('AgentHost: the session is free when turn_end is seen', () => {
  const firstTurn: Record<Ending, ScriptStep> = {
    stop: { text: 'first answer' },
    error: { error: new Error('the model broke') },
    aborted: { text: 'partial', hangUntilAborted: true },
  };

  it.each(ENDINGS)('a %s turn: send from inside the for-await on turn_end is accepted', async (ending) => {
    const dir = mkdtempSync(join(root, 'host-'));
    mkdirSync(join(dir, 'ws'));
    const temp = createTempStore('hearth-turn-end-store-');
    const store = temp.open();
    const model = new ScriptedModel([firstTurn[ending], { text: 'second answer' }]);
    const host = new AgentHost({ store, model, tools: createToolset('default', { backend }), approvals: new ApprovalPolicyBroker(), home: dir, workspace: join(dir, 'ws') });
    cleanups.push(async () => {
      await host.close();
      temp.cleanup();
    });
    const sessionId = host.startSession({ source: 'cli' });

    let next: AsyncIterable<AgentEvent> | null = null;
    let end: AgentEvent | null = null;
    for await (const event of host.send(sessionId, 'first')) {
      if (ending === 'aborted' && event.type === 'text_delta') host.interrupt(sessionId);
      if (event.type === 'turn_end') {
        end = event;
        // Bug caught: the host still holding the turn here, so this throws "A turn is already running".
        next = host.send(sessionId, 'second');
      }
    }
    expect(end).toMatchObject({ type: 'turn_end', reason: ending });
    const second: AgentEvent[] = [];
    for await (const event of next as unknown as AsyncIterable<AgentEvent>) second.push(event);
    expect(second.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop', final: 'second answer' });
  });
});

describe('app service: a UI that sends on turn_end is accepted', () => {
  const firstTurn: Record<Ending, ScriptedTurn> = {
    stop: { text: 'first answer' },
    error: { status: 400, errorMessage: 'the request was refused' },
    aborted: { text: 'partial answer that hangs', hangMs: 20_000 },
  };
  let app: AppHarness | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it.each(ENDINGS)('a %s turn: chat.send called synchronously in the turn_end listener', async (ending) => {
    const harness = await startAppHarness([firstTurn[ending], { text: 'second answer' }], { serverOptions: { chunkChars: 8 } });
    app = harness;
    const { sessionId } = await harness.service.handlers['chat.start']({});
    const sent: Promise<unknown>[] = [];
    let ends = 0;
    harness.service.onEvent((e: UiEvent) => {
      if (e.channel !== 'agent' || e.sessionId !== sessionId) return;
      // Only the first turn is interrupted; the second must end normally.
      if (ending === 'aborted' && ends === 0 && e.event.type === 'text_delta') void harness.service.handlers['chat.interrupt']({ sessionId });
      if (e.event.type !== 'turn_end' || ++ends > 1) return;
      expect(e.event.reason).toBe(ending);
      // Bug caught: chat.send answering conflict because the host (or this surface) still holds the ended turn.
      sent.push(harness.service.handlers['chat.send']({ sessionId, text: 'second', attachments: [] }));
    });
    const first = turnEnded(harness, sessionId);
    await harness.service.handlers['chat.send']({ sessionId, text: 'first', attachments: [] });
    await first;
    expect(sent).toHaveLength(1);
    await expect(sent[0]).resolves.toEqual({ ok: true });
    await expect.poll(() => ends, { timeout: 15_000 }).toBe(2);
    const finals = harness.events.flatMap((e) => (e.channel === 'agent' && e.sessionId === sessionId && e.event.type === 'turn_end' ? [e.event] : []));
    expect(finals.map((e) => e.reason)).toEqual([ending, 'stop']);
    expect(finals[1]).toMatchObject({ final: 'second answer' });
  });
});
