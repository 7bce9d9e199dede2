import { describe, expect, it } from 'vitest';
import { approvalDialogOptions } from '../../src/main/approval-surface.js';
import { trayMenuTemplate } from '../../src/main/tray-menu.js';
import { trayToolTip, WaitingApprovals } from '../../src/main/waiting-approvals.js';
import type { UiEvent } from '../../src/shared/contract.js';
import type { AgentEvent } from '../../src/shared/events.js';

/** The tray's hint of approvals waiting for the user, and the native dialog's words about undo. */
const agent = (event: AgentEvent): UiEvent => ({ channel: 'agent', sessionId: 's1', event });
const request = (id: string, command: string): UiEvent => agent({ type: 'approval_request', id, command, reasons: ['recursive delete'], expiresAt: 9e12 });
const noActions = { openMainWindow: () => undefined, openQuickPrompt: () => undefined, setGatewayRunning: () => undefined, setCronRunning: () => undefined, quit: () => undefined };

describe('the tray while approvals wait', () => {
  // Catches a hidden-window user never learning that Hearth waits for them, and a tray that keeps saying so after
  // another surface answered or the question timed out.
  it('counts open approvals, shows the oldest, and clears on any resolution (answer or timeout)', () => {
    const waiting = new WaitingApprovals();
    expect(trayToolTip(waiting.summary())).toBe('Hearth');
    expect(waiting.handle(request('a', 'rm -rf /srv/data'))).toBe(true);
    expect(waiting.handle(request('a', 'rm -rf /srv/data'))).toBe(false);
    expect(trayToolTip(waiting.summary())).toBe('Hearth — waiting for you: rm -rf /srv/data');
    waiting.handle(request('b', 'git push --force'));
    expect(trayToolTip(waiting.summary())).toBe('Hearth — 2 approvals waiting for you');
    const opened: string[] = [];
    const menu = trayMenuTemplate({ gateway: null, cron: null, quickPromptShortcut: null, waiting: waiting.summary() }, { ...noActions, openMainWindow: () => opened.push('open') });
    expect(menu[0]).toMatchObject({ id: 'approval', label: '2 approvals waiting for you' });
    menu[0]?.click?.();
    expect(opened).toEqual(['open']);
    expect(waiting.handle(agent({ type: 'approval_resolved', id: 'a', approved: false, reason: 'timeout' }))).toBe(true);
    expect(waiting.handle(agent({ type: 'approval_resolved', id: 'b', approved: true, reason: 'once' }))).toBe(true);
    expect(waiting.summary()).toBeNull();
    expect(trayMenuTemplate({ gateway: null, cron: null, quickPromptShortcut: null, waiting: null }, noActions).some((i) => i.id === 'approval')).toBe(false);
  });

  // Catches the native dialog (window hidden) promising a rollback the in-window dialog would not.
  it('the native dialog says what undo there is', () => {
    const base = { sessionId: 's1', id: 'a', command: 'rm -rf /srv', reasons: ['recursive delete'], expiresAt: 60_000 };
    expect(approvalDialogOptions({ ...base, irreversible: true }, 0).detail).toContain('This cannot be undone');
    expect(approvalDialogOptions({ ...base, checkpoint: '/home/me/p' }, 0).detail).toContain('A checkpoint of /home/me/p is taken first');
    expect(approvalDialogOptions(base, 0).detail).toContain('No checkpoint is taken');
  });
});
