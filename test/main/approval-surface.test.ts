import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UiEvent } from '../../src/shared/contract.js';
import { ApprovalSurface, approvalDialogOptions, choiceFromResponse, nativeApprovalDialog, type ApprovalChoice, type ApprovalRequest } from '../../src/main/approval-surface.js';
import { backgroundNotice, createBackgroundNotifier, type BackgroundNotice } from '../../src/main/notifications.js';

const request = (id = 'ap-1', expiresIn = 60_000): UiEvent => ({
  channel: 'agent',
  sessionId: 's1',
  event: { type: 'approval_request', id, command: 'rm -rf build', reasons: ['recursive delete'], expiresAt: Date.now() + expiresIn },
});
const resolved = (id = 'ap-1'): UiEvent => ({ channel: 'agent', sessionId: 's1', event: { type: 'approval_resolved', id, approved: true, reason: 'approved in window' } });

/** A dialog the test answers by hand; it records the abort signal like Electron's showMessageBox honours it. */
function manualDialog() {
  const open: { request: ApprovalRequest; signal: AbortSignal; answer: (choice: ApprovalChoice | null) => void }[] = [];
  const showDialog = (req: ApprovalRequest, signal: AbortSignal) =>
    new Promise<ApprovalChoice | null>((resolve) => {
      open.push({ request: req, signal, answer: resolve });
      signal.addEventListener('abort', () => resolve(null));
    });
  return { open, showDialog };
}

function surface(attentive: boolean) {
  const dialog = manualDialog();
  const answers: [string, ApprovalChoice][] = [];
  const logs: string[] = [];
  const s = new ApprovalSurface({
    isWindowAttentive: () => attentive,
    showDialog: dialog.showDialog,
    answer: async (id, choice) => {
      answers.push([id, choice]);
      return { ok: true, output: { accepted: true } };
    },
    log: (m) => logs.push(m),
  });
  return { s, dialog, answers, logs };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => vi.useRealTimers());

describe('approval surface', () => {
  // Bug caught: two prompts for one request (native dialog on top of the visible in-window modal).
  it('does nothing when the main window is in front of the user (the renderer modal asks)', () => {
    const { s, dialog } = surface(true);
    s.handle(request());
    expect(dialog.open).toHaveLength(0);
  });

  // Bug caught: a request made while Hearth sits in the tray going unseen until it fails closed.
  it('asks with a native dialog when the window is hidden, and answers through approvals.answer', async () => {
    const { s, dialog, answers } = surface(false);
    s.handle(request());
    s.handle(request()); // a repeated event does not open a second dialog
    expect(dialog.open).toHaveLength(1);
    expect(dialog.open[0]?.request).toMatchObject({ id: 'ap-1', sessionId: 's1', command: 'rm -rf build' });
    dialog.open[0]?.answer('session');
    await tick();
    expect(answers).toEqual([['ap-1', 'session']]);
  });

  // Bug caught: a stale dialog answering a request already decided in the window (or timed out).
  it('closes the dialog when the request is resolved elsewhere, and sends no answer', async () => {
    const { s, dialog, answers } = surface(false);
    s.handle(request());
    s.handle(resolved());
    expect(dialog.open[0]?.signal.aborted).toBe(true);
    await tick();
    expect(answers).toEqual([]);
  });

  it('closes the dialog at the deadline (the engine has already denied)', async () => {
    vi.useFakeTimers();
    const { s, dialog, answers } = surface(false);
    s.handle(request('ap-2', 5_000));
    vi.advanceTimersByTime(5_001);
    expect(dialog.open[0]?.signal.aborted).toBe(true);
    vi.useRealTimers();
    await tick();
    expect(answers).toEqual([]);
  });

  it('a failing dialog is logged and answers nothing (fail closed)', async () => {
    const answers: unknown[] = [];
    const logs: string[] = [];
    const s = new ApprovalSurface({
      isWindowAttentive: () => false,
      showDialog: async () => {
        throw new Error('no display');
      },
      answer: async (id, choice) => {
        answers.push([id, choice]);
        return { ok: true, output: {} };
      },
      log: (m) => logs.push(m),
    });
    s.handle(request());
    await tick();
    expect(answers).toEqual([]);
    expect(logs.join()).toContain('no display');
  });

  it('the native dialog defaults to Deny, Escape denies, and maps every button', async () => {
    const options = approvalDialogOptions({ sessionId: 's', id: 'a', command: 'curl x | sh', reasons: ['pipes a download into a shell'], expiresAt: 30_000 }, 0);
    expect(options.buttons).toEqual(['Allow once', 'Allow for this session', 'Always allow', 'Deny']);
    expect(options.defaultId).toBe(3);
    expect(options.cancelId).toBe(3);
    expect(options.detail).toContain('pipes a download into a shell');
    expect(options.detail).toContain('30 s');
    expect([0, 1, 2, 3, 7, -1].map(choiceFromResponse)).toEqual(['once', 'session', 'always', 'deny', 'deny', 'deny']);

    const seen: unknown[] = [];
    const dialog = nativeApprovalDialog(async (o) => {
      seen.push(o.signal);
      return { response: 2, checkboxChecked: false };
    });
    const controller = new AbortController();
    await expect(dialog({ sessionId: 's', id: 'a', command: 'x', reasons: [], expiresAt: Date.now() + 1000 }, controller.signal)).resolves.toBe('always');
    expect(seen).toEqual([controller.signal]);
    controller.abort();
    await expect(dialog({ sessionId: 's', id: 'a', command: 'x', reasons: [], expiresAt: 0 }, controller.signal)).resolves.toBeNull();
  });
});

describe('background notifications', () => {
  const turnEnd = (reason: 'stop' | 'budget' | 'aborted' | 'error', final = 'All tests pass now.'): UiEvent => ({
    channel: 'agent',
    sessionId: 's7',
    event: { type: 'turn_end', final, reason, ...(reason === 'error' ? { error: { code: 'model_http', message: 'HTTP 500 from the provider' } } : {}) },
  });

  it('a turn that finished while nobody watched is notified, with its answer; clicking opens the session', () => {
    const notices: BackgroundNotice[] = [];
    const notify = createBackgroundNotifier({ isUserWatching: () => false, notify: (n) => notices.push(n) });
    notify(turnEnd('stop'));
    expect(notices).toEqual([{ sessionId: 's7', title: 'Hearth finished', body: 'All tests pass now.' }]);
  });

  // Bug caught: a notification for every reply while the user is reading them in the window.
  it('nothing is notified while the user watches', () => {
    const notices: BackgroundNotice[] = [];
    const notify = createBackgroundNotifier({ isUserWatching: () => true, notify: (n) => notices.push(n) });
    notify(turnEnd('stop'));
    expect(notices).toEqual([]);
  });

  it('errors, budgets and reviews say what happened; an interrupt and streaming deltas say nothing', () => {
    expect(backgroundNotice(turnEnd('error'))).toMatchObject({ title: 'Hearth stopped with an error', body: 'HTTP 500 from the provider' });
    expect(backgroundNotice(turnEnd('budget'))?.title).toBe('Hearth stopped');
    expect(backgroundNotice(turnEnd('aborted'))).toBeNull();
    expect(backgroundNotice({ channel: 'agent', sessionId: 's', event: { type: 'text_delta', delta: 'x' } })).toBeNull();
    expect(backgroundNotice({ channel: 'agent', sessionId: 's', event: { type: 'review', state: 'finished', reason: 'saved 1 skill' } })).toMatchObject({ title: 'Background review finished', body: 'saved 1 skill' });
    expect(backgroundNotice({ channel: 'agent', sessionId: 's', event: { type: 'review', state: 'started', reason: 'x' } })).toBeNull();
    expect(backgroundNotice(turnEnd('stop', 'x'.repeat(500)))?.body.length).toBeLessThanOrEqual(180);
  });
});
