import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryCommand } from '../src/cli/commands/memory.js';
import type { CliIO } from '../src/cli/io.js';
import { openEngine } from '../src/core/engine.js';
import { isHearthError } from '../src/core/errors.js';
import { USER_IN_CLI } from '../src/core/memory/provenance.js';
import { MemoryStore } from '../src/core/memory/store.js';
import { openStore } from '../src/core/store/open-store.js';
import type { AgentEvent } from '../src/shared/events.js';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedTurn } from './fixtures/scripted-turns.js';

/**
 * Issue 11, problem 1, as it happened: the user profile is full, and a background review makes room by
 * removing the user's standing rule. On the real engine (encrypted store, real memory tool, the review as
 * the learning loop runs it) against a server speaking the OpenAI protocol, then the real CLI on the same
 * home: the rule survives, the removal waits in `hearth pending list --json`, the events name what was and
 * was not removed, and `hearth memory undo` puts back the entry the agent did remove.
 */

interface WireMessage {
  role: string;
  content: string | null;
}

const RULE = 'Standing rule: reply in British English.';
const AGENT_NOTE = 'Prefers tabs over spaces.';
const FILLER = 'Uses a Dvorak keyboard layout.';
const NEW_FACT = 'Works night shifts at weekends.';

/** The review a model short of room might run: try to add, drop the rule, drop a note, add again. */
function consolidatingReview(body: unknown): ScriptedTurn {
  const messages = (body as { messages: WireMessage[] }).messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const prompt = messages[lastUser]?.content ?? '';
  if (!prompt.includes('[Background review]')) return { text: 'Noted.' };
  const step = messages.slice(lastUser).filter((m) => m.role === 'tool').length;
  const steps: ScriptedTurn[] = [
    { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: NEW_FACT } }] },
    { toolCalls: [{ name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'British English' } }] },
    { toolCalls: [{ name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'tabs over spaces' } }] },
    { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: NEW_FACT } }] },
    { text: 'Consolidated the user profile.' },
  ];
  return steps[step] ?? { text: 'Done.' };
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

describe('a background review short of room', () => {
  it("keeps the user's standing rule, proposes its removal to the user, and names (with undo) what it did remove", async () => {
    const server = await startScriptedOpenAIServer(consolidatingReview);
    cleanups.push(() => server.close());
    const env = freshHomeEnv();
    const home = env.HEARTH_HOME as string;
    writeFileSync(
      join(home, 'config.yaml'),
      `version: 1\nmodel:\n  default: scripted:model\nproviders:\n  scripted: { type: openai, base_url: "${server.url}" }\n` +
        // 120 characters hold the three entries below and nothing more; one user turn is enough for a review.
        `memory:\n  nudge_interval: 1\n  user_char_limit: 120\n  scale_with_context: false\nskills:\n  creation_nudge_interval: 1000\nuser_model:\n  enabled: false\n`,
    );
    const seeded = openStore(home, { env });
    const seed = new MemoryStore(seeded.db, { memory: 2200, user: 120 });
    seed.add('user', RULE, { by: USER_IN_CLI });
    seed.add('user', AGENT_NOTE);
    seed.add('user', FILLER);
    expect(seed.usage('user').used).toBeGreaterThan(100);
    seeded.close();

    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-protect-ws-')));
    const userHome = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-protect-user-')));
    const engine = await openEngine({ env, workspace, userHome, yolo: true });
    let open = true;
    cleanups.push(async () => {
      if (open) await engine.dispose();
    });
    const background: AgentEvent[] = [];
    engine.sessions.host.onBackgroundEvent((_id, event) => background.push(event));
    const session = engine.sessions.host.startSession({ source: 'cli' });
    const turn = await drain(engine.sessions.host.send(session, 'By the way, I work night shifts at weekends.'));
    expect(turn.at(-1)).toMatchObject({ type: 'turn_end', reason: 'stop' });
    await engine.sessions.host.learningIdle(session);

    // The review really ran its four writes.
    const reviewRequests = server.requests.filter((r) => JSON.stringify(r).includes('[Background review]'));
    expect(reviewRequests.length).toBeGreaterThanOrEqual(5);
    // The model was told its removal waits for the user, not that it failed or happened.
    const toldModel = JSON.stringify(reviewRequests[2]);
    expect(toldModel).toContain("waiting for the user's approval as pending change #1");
    const learning = background.filter((e): e is Extract<AgentEvent, { type: 'learning' }> => e.type === 'learning');
    expect(learning.map((e) => e.message)).toEqual([
      `Not removed, waiting for your approval (#1): the agent wants to remove from user profile (protected): '${RULE}'`,
      `Removed from user profile: '${AGENT_NOTE}'`,
      `Added to user profile: '${NEW_FACT}'`,
    ]);
    expect(learning.some((e) => e.message === 'Memory updated')).toBe(false);
    const undoId = learning[1]?.undo?.memoryChange;
    expect(undoId).toBeTypeOf('number');
    expect(engine.learning.memory.read('user').map((e) => e.content)).toEqual([RULE, FILLER, NEW_FACT]);
    await engine.dispose();
    open = false;

    // The user's side, through the real CLI on the same home.
    const pending = await runHearth(['pending', 'list', '--json'], { env, cwd: workspace });
    expect(pending.code).toBe(0);
    const writes = JSON.parse(pending.stdout) as { id: number; kind: string; payload: { action: string; target: string }; summary: string }[];
    expect(writes).toEqual([
      expect.objectContaining({ id: 1, kind: 'memory', payload: expect.objectContaining({ action: 'remove', target: 'user' }), summary: `remove from user profile (protected): '${RULE}'` }),
    ]);

    const undone = await runHearth(['memory', 'undo', String(undoId)], { env, cwd: workspace });
    expect(undone.stderr).toBe('');
    expect(undone.stdout).toContain(`'${AGENT_NOTE}' is back in the user profile, protected`);
    const shown = await runHearth(['memory', 'show', '--json'], { env, cwd: workspace });
    const user = (JSON.parse(shown.stdout) as { user: { items: { content: string; protected: boolean }[] } }).user.items;
    expect(user.map((e) => [e.content, e.protected])).toEqual([
      [RULE, true],
      [AGENT_NOTE, true],
      [FILLER, false],
      [NEW_FACT, false],
    ]);

    // Rejecting the proposal leaves the rule where it is, for good.
    expect((await runHearth(['pending', 'reject', '1'], { env, cwd: workspace })).code).toBe(0);
    const after = await runHearth(['memory', 'show', '--json'], { env, cwd: workspace });
    expect((JSON.parse(after.stdout) as { user: { entries: string[] } }).user.entries).toContain(RULE);
  });
});

describe('hearth memory protect / unprotect / changes', () => {
  async function hearthMemory(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; stdout: string; error?: unknown }> {
    let stdout = '';
    const io: CliIO = { out: (t) => (stdout += t), err: () => undefined, env, cwd: env.HEARTH_HOME as string, stdin: process.stdin, isTTY: false };
    try {
      return { code: await memoryCommand(args, io), stdout };
    } catch (error) {
      return { code: 1, stdout, error };
    }
  }

  it("marks an agent-written entry as the user's, which the agent then cannot remove; unprotect hands it back (catches a CLI toggle the store ignores)", async () => {
    const env = freshHomeEnv();
    const home = env.HEARTH_HOME as string;
    writeFileSync(join(home, 'config.yaml'), 'version: 1\n');
    const store = openStore(home, { env });
    const id = new MemoryStore(store.db).add('memory', 'CI runs on GitHub Actions.').entry.id;
    store.close();

    const protectedOut = await hearthMemory(env, ['protect', String(id)]);
    expect(protectedOut.stdout).toContain(`#${id} 'CI runs on GitHub Actions.' (written by the agent)\nProtected`);
    expect((await hearthMemory(env, ['show'])).stdout).toContain(`[#${id} protected] CI runs on GitHub Actions.`);
    const reopened = openStore(home, { env });
    try {
      expect(() => new MemoryStore(reopened.db).remove('memory', 'GitHub Actions')).toThrow(/is protected/);
    } finally {
      reopened.close();
    }
    await hearthMemory(env, ['unprotect', String(id)]);
    expect((await hearthMemory(env, ['show'])).stdout).toContain(`[#${id}] CI runs on GitHub Actions.`);

    expect((await hearthMemory(env, ['changes'])).stdout).toBe('The agent has not removed or replaced any memory entry.\n');
    const bad = await hearthMemory(env, ['protect', 'first']);
    expect(isHearthError(bad.error, 'usage')).toBe(true);
    expect(String((bad.error as Error).message)).toContain('`hearth memory show` lists entry ids');
    expect(isHearthError((await hearthMemory(env, ['undo', '7'])).error, 'memory_change_not_found')).toBe(true);
  });
});
