import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import type { LearningRun } from '../src/core/learning/journal.js';
import type { AgentEvent } from '../src/shared/events.js';
import { validSummary } from './fixtures/compression-histories.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer, ScriptedTurn } from './fixtures/scripted-turns.js';

/**
 * The learning journal and the learning clock on the real engine (encrypted store, real tools) against a
 * local server speaking the OpenAI wire protocol: a review whose writes were refused is recorded and
 * reported as such (issue 11, problem 4), and the nudge and reflection counters survive compression
 * (problem 7).
 */

interface WireMessage {
  role: string;
  content: string | null;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

async function engineWith(script: (body: unknown) => ScriptedTurn, config: string): Promise<{ engine: Engine; server: ScriptedServer }> {
  const server = await startScriptedOpenAIServer(script);
  cleanups.push(() => server.close());
  const env = freshHomeEnv();
  writeFileSync(
    join(env.HEARTH_HOME as string, 'config.yaml'),
    `version: 1\nmodel:\n  default: scripted:hermes\nproviders:\n  scripted: { type: openai, base_url: "${server.url}", context_length: 16384 }\n${config}`,
  );
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-journal-ws-')));
  const engine = await openEngine({ env, workspace, userHome: workspace, yolo: true });
  cleanups.push(() => engine.dispose());
  return { engine, server };
}

const lastUser = (messages: WireMessage[]) => [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const isReview = (messages: WireMessage[]) => lastUser(messages).includes('[Background review]');
const isSummary = (messages: WireMessage[]) => messages[0]?.content?.startsWith('You write the working summary') === true;
const isReflection = (messages: WireMessage[]) => messages[0]?.content?.startsWith('You maintain a model of the user') === true;

describe('a review whose writes were refused', () => {
  it('is journalled as refused with the reason, and the user is told it could not save, whatever the model claims', async () => {
    const { engine } = await engineWith(
      (body) => {
        const messages = (body as { messages: WireMessage[] }).messages;
        if (!isReview(messages)) return { text: 'ok' };
        // The model patches a skill that does not exist, then claims success.
        if (messages.at(-1)!.role === 'tool') return { text: 'Saved the improved deploy steps.' };
        return { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: 'deploy-docs', old_string: 'step 1', new_string: 'step one' } }] };
      },
      'skills:\n  creation_nudge_interval: 100\nmemory:\n  nudge_interval: 1\nuser_model:\n  enabled: false\n',
    );
    const background: AgentEvent[] = [];
    engine.sessions.host.onBackgroundEvent((_id, event) => background.push(event));
    const session = engine.sessions.host.startSession({ source: 'cli' });
    await drain(engine.sessions.host.send(session, 'Deploy the docs the usual way.'));
    await engine.sessions.host.learningIdle(session);

    const ended = background.find((e) => e.type === 'review' && e.state !== 'started');
    // Catches the old "finished · nothing to save" for a review none of whose writes landed.
    expect(ended).toMatchObject({ type: 'review', state: 'failed', reason: expect.stringMatching(/^review could not save: skill_manage refused: .*deploy-docs/) });
    const [run] = engine.learning.journal.recent();
    expect(run).toMatchObject({ kind: 'memory_review', sessionId: session, outcome: 'refused', saved: [], error: null });
    expect(run!.refused).toEqual([{ tool: 'skill_manage', reason: expect.stringContaining('deploy-docs') }]);
    expect(run!.endedAt).not.toBeNull();
    expect(engine.learning.journal.failedSince(0).map((r) => r.id)).toEqual([run!.id]);
  }, 60_000);

  it('a review that failed outright is journalled with its error even when no surface listens', async () => {
    const { engine } = await engineWith(
      (body) => {
        const messages = (body as { messages: WireMessage[] }).messages;
        if (isReview(messages)) return { status: 400, errorMessage: 'context length exceeded' };
        return { text: 'ok' };
      },
      'memory:\n  nudge_interval: 1\nuser_model:\n  enabled: false\n',
    );
    // No onBackgroundEvent listener: before the journal, nothing of this failure remained.
    const session = engine.sessions.host.startSession({ source: 'cli' });
    await drain(engine.sessions.host.send(session, 'hello'));
    await engine.sessions.host.learningIdle(session);
    const [run] = engine.learning.journal.recent();
    expect(run).toMatchObject({ kind: 'memory_review', outcome: 'failed', error: expect.stringContaining('context length exceeded') });
  }, 60_000);
});

describe('learning counters per conversation', () => {
  it('20 turns with compression every 4 give 3 reflections (every 6 turns) and the memory review (every 10)', async () => {
    const { engine, server } = await engineWith(
      (body) => {
        const messages = (body as { messages: WireMessage[] }).messages;
        if (isSummary(messages)) return { text: validSummary('counters') };
        if (isReflection(messages)) return { text: '{"facts": [], "supersede": []}' };
        if (isReview(messages)) return { text: 'Nothing to save.' };
        // ~100 tokens per answer: more than the small verbatim tail below, so each compression has a middle to summarise.
        return { text: `answer to ${lastUser(messages)}: ${Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')}` };
      },
      'skills:\n  creation_nudge_interval: 100\nmemory:\n  nudge_interval: 10\nuser_model:\n  enabled: true\n  reflect_every_turns: 6\n' +
        'compression:\n  protect_first_n: 1\n  protect_last_n: 2\n  target_ratio: 0.01\n',
    );
    const first = engine.sessions.host.startSession({ source: 'cli' });
    let compressions = 0;
    for (let turn = 1; turn <= 20; turn += 1) {
      await drain(engine.sessions.host.send(first, `question ${turn}`));
      await engine.sessions.host.learningIdle(first);
      if (turn % 4 === 0 && turn < 20) {
        const { compressed } = await engine.sessions.host.compress(first);
        if (compressed) compressions += 1;
      }
    }
    // The conversation really moved to new child sessions along the way.
    expect(compressions).toBe(4);
    const runs = engine.learning.journal.recent(100);
    const count = (kind: LearningRun['kind']) => runs.filter((r) => r.kind === kind).length;
    // Catches counters kept per session id: each compression reset them, giving 0 reflections and no review.
    expect(count('reflection')).toBe(3);
    expect(count('memory_review')).toBe(2);
    expect(count('flush')).toBe(4); // one flush per compression
    // A reflection that read messages and learned nothing is journalled with its counts, not dropped.
    expect(runs.find((r) => r.kind === 'reflection')).toMatchObject({ outcome: 'nothing', detail: { added: 0, reinforced: 0, superseded: 0, rejected: 0 } });
    const reflections = (server.requests as { messages: WireMessage[] }[]).filter((r) => isReflection(r.messages));
    expect(reflections).toHaveLength(3);
  }, 120_000);
});
