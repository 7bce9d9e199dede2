import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../src/core/app/dispatch.js';
import { classifyCommand } from '../src/core/safety/approvals/detector.js';
import type { UiEvent } from '../src/shared/contract.js';
import type { AgentEvent } from '../src/shared/events.js';
import { startAppHarness, turnEnded, type AppHarness } from './fixtures/app-engine.js';

/**
 * The engine's registry of open approvals, through the app service on the real engine: a surface that attaches
 * after the question was asked (a reloaded page) still finds it and can answer it; the first answer wins and every
 * surface hears it; a late answer is refused; a timeout denies and every surface sees that; the tool's outcome
 * (done, denied, timed out) is stored with its result, so a reopened session shows it.
 */
const harnesses: AppHarness[] = [];
const outside: string[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder outside the workspace, so deleting it needs approval (inside the workspace it is routine). */
function victimOutside(): string {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-pending-outside-')));
  outside.push(parent);
  const victim = join(parent, 'victim');
  mkdirSync(victim);
  return victim;
}

async function turnAsking(command: string, options: { timeoutSeconds?: number } = {}): Promise<{ app: AppHarness; sessionId: string; ended: Promise<AgentEvent> }> {
  const app = await startAppHarness(
    (req: unknown) => ((req as { messages: { role: string }[] }).messages.at(-1)?.role === 'tool' ? { text: 'finished' } : { toolCalls: [{ name: 'terminal', arguments: { command } }] }),
    {
      prepare: ({ home }) => {
        if (options.timeoutSeconds === undefined) return;
        const config = join(home, 'config.yaml');
        writeFileSync(config, readFileSync(config, 'utf8').replace('timeout_s: 20', `timeout_s: ${options.timeoutSeconds}`));
      },
    },
  );
  harnesses.push(app);
  const { sessionId } = await app.service.handlers['chat.start']({});
  const ended = turnEnded(app, sessionId, 30_000);
  await app.service.handlers['chat.send']({ sessionId, text: 'clean up', attachments: [] });
  return { app, sessionId, ended };
}

function agentEvents(events: UiEvent[], type: AgentEvent['type']): AgentEvent[] {
  return events.flatMap((e) => (e.channel === 'agent' && e.event.type === type ? [e.event] : []));
}

async function firstPending(app: AppHarness) {
  await expect.poll(async () => (await app.service.handlers['approvals.pending']({})).approvals.length, { timeout: 15_000 }).toBe(1);
  return (await app.service.handlers['approvals.pending']({})).approvals[0]!;
}

describe('approvals.pending: open questions belong to the engine', () => {
  // Catches a question that lives only in the page that first got the event: a reloaded page (which attaches
  // after the event went out) would never see it, and the command would time out unseen.
  it('a surface attaching after the request lists it, with the call it belongs to and what a checkpoint can undo', async () => {
    const victim = victimOutside();
    const command = `rm -rf ${victim}`;
    const { app, sessionId, ended } = await turnAsking(command);
    const pending = await firstPending(app);
    expect(pending.sessionId).toBe(sessionId);
    expect(pending.request).toMatchObject({ type: 'approval_request', command, kind: 'command' });
    const toolStart = agentEvents(app.events, 'tool_start')[0] as Extract<AgentEvent, { type: 'tool_start' }>;
    expect(pending.request.callId).toBe(toolStart.callId);
    // A delete outside the workspace cannot be undone by its snapshot: the surface is told so (the detector's flag,
    // or the folder check when the detector has none), and no checkpoint is promised.
    const classified = classifyCommand(command, { workspace: app.workspace, cwd: app.workspace, home: app.userHome, hearthHome: app.home });
    expect(classified.irreversible).not.toBe(false);
    expect(pending.request.irreversible).toBe(true);
    expect(pending.request.checkpoint).toBeUndefined();
    // The same object the event carried, so a late surface shows exactly what an early one did.
    expect(agentEvents(app.events, 'approval_request')).toEqual([pending.request]);

    await expect(app.service.handlers['approvals.answer']({ id: pending.request.id, choice: 'once' })).resolves.toEqual({ accepted: true });
    await ended;
    expect(existsSync(victim)).toBe(false);
    expect((await app.service.handlers['approvals.pending']({})).approvals).toEqual([]);
  });

  // Catches a double-applied answer (two tabs both clicking) or a late one silently accepted: the second must
  // be refused cleanly, and every surface must hear exactly one resolution.
  it('the first answer wins; a second answer is refused and changes nothing', async () => {
    const victim = victimOutside();
    const { app, sessionId, ended } = await turnAsking(`rm -rf ${victim}`);
    const tabTwo: UiEvent[] = [];
    app.service.onEvent((e) => tabTwo.push(e));
    const { request } = await firstPending(app);
    await expect(dispatch(app.service.handlers, 'approvals.answer', { id: request.id, choice: 'deny' })).resolves.toEqual({ ok: true, output: { accepted: true } });
    await expect(dispatch(app.service.handlers, 'approvals.answer', { id: request.id, choice: 'once' })).resolves.toEqual({ ok: true, output: { accepted: false } });
    await ended;
    expect(existsSync(victim)).toBe(true);
    for (const surface of [app.events, tabTwo]) {
      expect(agentEvents(surface, 'approval_resolved')).toEqual([{ type: 'approval_resolved', id: request.id, approved: false, reason: 'deny' }]);
    }
    const end = agentEvents(app.events, 'tool_end')[0];
    expect(end).toMatchObject({ type: 'tool_end', isError: true, outcome: { status: 'denied', note: 'deny' } });
    // The refusal is kept with the stored result: a reopened session shows "denied", not "done".
    const opened = await app.service.handlers['sessions.open']({ sessionId });
    expect(opened.messages.find((m) => m.role === 'tool')?.outcome).toEqual({ status: 'denied', note: 'deny' });
  });

  // Catches a timeout that denies in the engine while some surface still offers "Allow", or a timed-out call
  // stored as an ordinary failure (or as done).
  it('a timeout denies (fail closed), every surface hears it, a late answer is refused, and the outcome is stored as timed out', async () => {
    const victim = victimOutside();
    const { app, sessionId, ended } = await turnAsking(`rm -rf ${victim}`, { timeoutSeconds: 2 });
    const tabTwo: UiEvent[] = [];
    app.service.onEvent((e) => tabTwo.push(e));
    const { request } = await firstPending(app);
    await ended;
    expect(existsSync(victim)).toBe(true);
    for (const surface of [app.events, tabTwo]) {
      expect(agentEvents(surface, 'approval_resolved')).toEqual([{ type: 'approval_resolved', id: request.id, approved: false, reason: 'timeout' }]);
    }
    await expect(app.service.handlers['approvals.answer']({ id: request.id, choice: 'once' })).resolves.toEqual({ accepted: false });
    expect((await app.service.handlers['approvals.pending']({})).approvals).toEqual([]);
    expect(agentEvents(app.events, 'tool_end')[0]).toMatchObject({ outcome: { status: 'timed_out', note: 'timeout' } });
    const opened = await app.service.handlers['sessions.open']({ sessionId });
    expect(opened.messages.find((m) => m.role === 'tool')?.outcome).toEqual({ status: 'timed_out', note: 'timeout' });
  }, 60_000);

  // Catches an approved command stored without what decided it (the transcript must say it ran because the user
  // allowed it once), and a plain safe command given an approval note it never had.
  it('an approved call is stored as done with its note; a safe one as done without a note', async () => {
    const victim = victimOutside();
    const { app, sessionId, ended } = await turnAsking(`rm -rf ${victim}; echo removed`);
    const { request } = await firstPending(app);
    await app.service.handlers['approvals.answer']({ id: request.id, choice: 'once' });
    await ended;
    const opened = await app.service.handlers['sessions.open']({ sessionId });
    expect(opened.messages.find((m) => m.role === 'tool')?.outcome).toEqual({ status: 'done', note: 'once' });

    const safe = await turnAsking('echo hello');
    await safe.ended;
    const reopened = await safe.app.service.handlers['sessions.open']({ sessionId: safe.sessionId });
    expect(reopened.messages.find((m) => m.role === 'tool')?.outcome).toEqual({ status: 'done' });
    expect((await safe.app.service.handlers['approvals.pending']({})).approvals).toEqual([]);
  });

  // Catches an interrupt that leaves the question open on other surfaces (an answer would then apply to nothing),
  // and an interrupted call stored as failed or done instead of cancelled.
  it('an interrupt while waiting withdraws the question everywhere and stores the call as cancelled', async () => {
    const victim = victimOutside();
    const { app, sessionId, ended } = await turnAsking(`rm -rf ${victim}`);
    const { request } = await firstPending(app);
    await expect(app.service.handlers['chat.interrupt']({ sessionId })).resolves.toEqual({ interrupted: true });
    await ended;
    expect(agentEvents(app.events, 'approval_resolved')).toMatchObject([{ id: request.id, approved: false }]);
    expect((await app.service.handlers['approvals.pending']({})).approvals).toEqual([]);
    await expect(app.service.handlers['approvals.answer']({ id: request.id, choice: 'once' })).resolves.toEqual({ accepted: false });
    expect(existsSync(victim)).toBe(true);
    const opened = await app.service.handlers['sessions.open']({ sessionId });
    expect(opened.messages.find((m) => m.role === 'tool')?.outcome).toMatchObject({ status: 'cancelled' });
  });
});
