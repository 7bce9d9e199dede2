import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import { validateSkillDir } from '../src/core/skills/validate.js';
import type { AgentEvent } from '../src/shared/events.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer, ScriptedTurn } from './fixtures/scripted-turns.js';

/**
 * The closed learning loop end to end, on the real engine (encrypted store, real tools, real skill
 * folders) against a local server speaking the OpenAI wire protocol. Session 1 teaches a preference
 * and completes a multi-step task; the background review saves a memory entry and a skill. Session 2
 * sees both in its prompt, gets the skill hinted on its request, loads it, and finds session 1 with
 * session_search.
 */

interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}

const SKILL = `---
name: publish-docs
description: Build the docs folder into a static site and publish it to ./site. Use when the user asks to build or publish documentation.
---
# Publish docs

1. Write or update the pages under docs/.
2. Run \`mkdir -p site && cp docs/*.md site/\`.
3. Check the result with \`ls site\`.
`;

const PREFERENCE = 'Prefers British spelling and short answers.';

/** Answers by looking at the conversation, so the order background work runs in cannot derail it. */
function learningScript(): (body: unknown) => ScriptedTurn {
  return (body) => {
    const messages = (body as { messages: WireMessage[] }).messages;
    const last = messages.at(-1)!;
    const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const toolsSoFar = messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name);
    if (lastUser.includes('[Background review]')) {
      if (last.role === 'tool') return { text: 'Saved.' };
      // Session 2's review: everything is already saved.
      if (messages.some((m) => m.role === 'system' && m.content?.includes(PREFERENCE))) return { text: 'Nothing to save.' };
      return {
        toolCalls: [
          { name: 'memory', arguments: { action: 'add', target: 'user', content: PREFERENCE } },
          { name: 'skill_manage', arguments: { action: 'create', name: 'publish-docs', content: SKILL } },
        ],
      };
    }
    if (lastUser.startsWith('Please build and publish the docs')) {
      const step = toolsSoFar.length;
      if (step === 0) return { toolCalls: [{ name: 'write_file', arguments: { path: 'docs/index.md', content: '# Docs\n' } }] };
      if (step === 1) return { toolCalls: [{ name: 'terminal', arguments: { command: 'mkdir -p site && cp docs/*.md site/' } }] };
      if (step === 2) return { toolCalls: [{ name: 'terminal', arguments: { command: 'ls site' } }] };
      return { text: 'Published: site/index.md.' };
    }
    if (lastUser.startsWith('Publish the docs again')) {
      if (last.role === 'user') return { toolCalls: [{ name: 'skill_view', arguments: { name: 'publish-docs' } }] };
      if (toolsSoFar.at(-1) === 'skill_view') return { toolCalls: [{ name: 'session_search', arguments: { query: 'publish docs site' } }] };
      return { text: 'Done, same as last time.' };
    }
    return { status: 400, errorMessage: `unexpected request in the learning script: ${JSON.stringify(last).slice(0, 200)}` };
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function engineFor(server: ScriptedServer, env: NodeJS.ProcessEnv, workspace: string, userHome: string): Promise<Engine> {
  const engine = await openEngine({ env, workspace, userHome, yolo: true });
  cleanups.push(() => engine.dispose());
  return engine;
}

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('the learning loop closes across sessions', () => {
  it('session 1 teaches a preference and a workflow; session 2 has both and finds session 1', async () => {
    const server = await startScriptedOpenAIServer(learningScript());
    cleanups.push(() => server.close());
    const env = freshHomeEnv();
    const home = env.HEARTH_HOME as string;
    // Low thresholds so one short session is enough to trigger the review.
    writeFileSync(
      join(home, 'config.yaml'),
      `version: 1\nmodel:\n  default: scripted:hermes\nproviders:\n  scripted: { type: openai, base_url: "${server.url}" }\n` +
        `skills:\n  creation_nudge_interval: 3\nmemory:\n  nudge_interval: 1\nuser_model:\n  enabled: false\n`,
    );
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-learn-ws-')));
    const userHome = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-learn-user-')));

    // Session 1.
    const engine = await engineFor(server, env, workspace, userHome);
    const background: AgentEvent[] = [];
    engine.sessions.host.onBackgroundEvent((_id, event) => background.push(event));
    const s1 = engine.sessions.host.startSession({ source: 'cli' });
    const turn1 = await drain(engine.sessions.host.send(s1, 'Please build and publish the docs. I prefer British spelling and short answers.'));
    expect(turn1.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop', final: 'Published: site/index.md.' });
    expect(engine.sessions.host.systemPrompt(s1)).not.toContain('publish-docs'); // nothing learned yet
    await engine.sessions.host.learningIdle(s1);

    // The user was told what changed, and it is really there.
    expect(background.filter((e) => e.type === 'learning').map((e) => (e as { message: string }).message)).toEqual(
      expect.arrayContaining([`Added to user profile: '${PREFERENCE}'`, expect.stringMatching(/Skill 'publish-docs' created/)]),
    );
    expect(background.find((e) => e.type === 'review' && e.state === 'finished')).toBeDefined();
    const skillDir = join(home, 'skills', 'publish-docs');
    expect(validateSkillDir(skillDir, 'strict').verdict).toBe('valid');
    expect(engine.learning.memory.read('user').map((e) => e.content)).toEqual([PREFERENCE]);
    expect(engine.learning.skills.usage.get('publish-docs')?.createdBy).toBe('agent');
    // The review ran as its own session linked to session 1, for the audit trail.
    const audit = engine.sessions.store.listSessions().find((s) => s.parentSessionId === s1);
    expect(audit).toMatchObject({ source: 'subagent' });
    // Session 1's own history holds only the user's conversation, not the review.
    expect(engine.sessions.store.getMessages(s1).some((m) => m.content.includes('[Background review]'))).toBe(false);
    await engine.dispose();
    cleanups.pop();

    // Session 2, in a new engine (a restart): the prompt carries the memory and the skill catalog.
    const requestsBefore = server.requests.length;
    const engine2 = await engineFor(server, env, workspace, userHome);
    const s2 = engine2.sessions.host.startSession({ source: 'cli' });
    const prompt = engine2.sessions.host.systemPrompt(s2);
    expect(prompt).toContain(PREFERENCE);
    expect(prompt).toMatch(/USER PROFILE .*\[\d+% — [\d,]+\/[\d,]+ chars\]/);
    expect(prompt).toContain('<name>publish-docs</name>');
    const turn2 = await drain(engine2.sessions.host.send(s2, 'Publish the docs again, please.'));
    expect(turn2.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop' });
    await engine2.sessions.host.learningIdle(s2);

    const lastUser = (r: { messages: WireMessage[] }) => [...r.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const session2Requests = (server.requests.slice(requestsBefore) as { messages: WireMessage[] }[]).filter((r) => lastUser(r).startsWith('Publish the docs again'));
    // The request carried a hint naming the skill (relevance ranking, not only the catalog).
    const firstUser = session2Requests[0]!.messages.find((m) => m.role === 'user')!;
    expect(firstUser.content).toMatch(/Skills that look relevant[\s\S]*publish-docs/);
    // skill_view loaded the skill's instructions...
    const toolResults = session2Requests.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
    expect(toolResults[0]).toContain('<skill_content name="publish-docs"');
    expect(toolResults[0]).toContain('mkdir -p site');
    // ...and session_search found session 1.
    expect(toolResults[1]).toContain(s1);
    expect(engine2.learning.skills.usage.get('publish-docs')?.viewCount).toBe(1);
    expect(existsSync(join(workspace, 'site', 'index.md'))).toBe(true);
  }, 60_000);
});

describe('a reset saves first', () => {
  it('/new (endSession) runs a flush review over the conversation before ending the session', async () => {
    const reviews: WireMessage[][] = [];
    const server = await startScriptedOpenAIServer((body) => {
      const messages = (body as { messages: WireMessage[] }).messages;
      const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      if (!lastUser.includes('[Background review]')) return { text: 'ok' };
      reviews.push(messages);
      return messages.at(-1)!.role === 'tool' ? { text: 'Saved.' } : { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Deploys on Fridays.' } }] };
    });
    cleanups.push(() => server.close());
    const env = freshHomeEnv();
    writeFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), `version: 1\nmodel:\n  default: scripted:hermes\nproviders:\n  scripted: { type: openai, base_url: "${server.url}" }\nuser_model:\n  enabled: false\n`);
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-reset-ws-')));
    const engine = await engineFor(server, env, workspace, workspace);
    const session = engine.sessions.host.startSession({ source: 'cli' });
    await drain(engine.sessions.host.send(session, 'We deploy on Fridays.'));
    await drain(engine.sessions.host.send(session, 'Remember that, please.'));
    expect(reviews).toHaveLength(0); // no nudge is due after two turns

    await engine.sessions.host.endSession(session);
    // Catches a reset that drops the conversation before anything in it was saved.
    expect(reviews.length).toBeGreaterThan(0);
    expect(reviews[0]!.map((m) => m.content).join('\n')).toContain('We deploy on Fridays.');
    expect(engine.learning.memory.read('user').map((e) => e.content)).toEqual(['Deploys on Fridays.']);
    expect(engine.sessions.store.getSession(session)?.endedAt).not.toBeNull();
    expect(() => engine.sessions.host.history(session)).toThrow(/not open/);
  }, 60_000);
});
