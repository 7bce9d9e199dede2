import { describe, expect, it } from 'vitest';
import { CloseBehaviour, hideOnClose, type HideableWindow } from '../../src/main/close-behaviour.js';
import { trayMenuTemplate, type TrayActions, type TrayState } from '../../src/main/tray-menu.js';

function recordingActions() {
  const calls: string[] = [];
  const actions: TrayActions = {
    openMainWindow: () => calls.push('open'),
    openQuickPrompt: () => calls.push('quick'),
    setGatewayRunning: (running) => calls.push(`gateway:${running}`),
    setCronRunning: (running) => calls.push(`cron:${running}`),
    quit: () => calls.push('quit'),
  };
  return { actions, calls };
}

const item = (template: ReturnType<typeof trayMenuTemplate>, id: string) => {
  const found = template.find((i) => i.id === id);
  if (!found) throw new Error(`no menu item ${id}`);
  return found;
};

describe('tray menu', () => {
  // Bug caught: the menu saying "Pause" for a paused service (or toggling the wrong way).
  it('shows the current state of gateway and cron, and toggles to the opposite', () => {
    const { actions, calls } = recordingActions();
    const state: TrayState = { gateway: 'running', cron: 'paused', quickPromptShortcut: 'CommandOrControl+Shift+Space' };
    const template = trayMenuTemplate(state, actions);
    expect(item(template, 'gateway').label).toBe('Pause gateway (running)');
    expect(item(template, 'cron').label).toBe('Resume scheduled jobs (paused)');
    item(template, 'gateway').click?.();
    item(template, 'cron').click?.();
    expect(calls).toEqual(['gateway:false', 'cron:true']);

    const flipped = trayMenuTemplate({ ...state, gateway: 'paused', cron: 'running' }, actions);
    expect(item(flipped, 'gateway').label).toBe('Resume gateway (paused)');
    expect(item(flipped, 'cron').label).toBe('Pause scheduled jobs (running)');
  });

  it('open, quick prompt and quit call their actions; the shortcut is displayed, not bound by the menu', () => {
    const { actions, calls } = recordingActions();
    const template = trayMenuTemplate({ gateway: null, cron: null, quickPromptShortcut: 'Alt+Space' }, actions);
    item(template, 'open').click?.();
    item(template, 'quick-prompt').click?.();
    item(template, 'quit').click?.();
    expect(calls).toEqual(['open', 'quick', 'quit']);
    expect(item(template, 'quick-prompt')).toMatchObject({ accelerator: 'Alt+Space', registerAccelerator: false });
    expect(template.map((i) => i.id ?? i.type)).toEqual(['open', 'quick-prompt', 'separator', 'gateway', 'cron', 'separator', 'quit']);
  });

  it('a service that is not set up is shown disabled, with no click handler', () => {
    const { actions } = recordingActions();
    const template = trayMenuTemplate({ gateway: null, cron: null, quickPromptShortcut: null }, actions);
    expect(item(template, 'gateway')).toEqual({ id: 'gateway', label: 'Gateway: not set up', enabled: false });
    expect(item(template, 'quick-prompt')).not.toHaveProperty('accelerator');
  });
});

class FakeWindow implements HideableWindow {
  hidden = 0;
  private listener: ((event: { preventDefault(): void }) => void) | null = null;
  on(_event: 'close', listener: (event: { preventDefault(): void }) => void): this {
    this.listener = listener;
    return this;
  }
  hide(): void {
    this.hidden++;
  }
  /** Electron's close request; returns whether it went ahead. */
  requestClose(): boolean {
    let prevented = false;
    this.listener?.({ preventDefault: () => (prevented = true) });
    return !prevented;
  }
}

describe('close behaviour', () => {
  // Bug caught: closing the window quitting Hearth (and the gateway/cron with it).
  it('hides the window on close while the app is not quitting', () => {
    const window = new FakeWindow();
    hideOnClose(window, new CloseBehaviour());
    expect(window.requestClose()).toBe(false);
    expect(window.hidden).toBe(1);
  });

  // Bug caught: Quit (or an OS shutdown) hanging because the window refuses to close.
  it.each(['user', 'os-shutdown'] as const)('lets the window close once quitting (%s)', (reason) => {
    const behaviour = new CloseBehaviour();
    const window = new FakeWindow();
    hideOnClose(window, behaviour);
    behaviour.markQuitting(reason);
    expect(window.requestClose()).toBe(true);
    expect(window.hidden).toBe(0);
    expect(behaviour.quitting).toBe(reason);
  });

  it('keeps the first quit reason', () => {
    const behaviour = new CloseBehaviour();
    behaviour.markQuitting('os-shutdown');
    behaviour.markQuitting('user');
    expect(behaviour.quitting).toBe('os-shutdown');
  });
});
