import { describe, expect, it } from 'vitest';
import type { AppWindow } from '../../src/main/app-window.js';
import { MainWindowController, mainPageUrl } from '../../src/main/main-window.js';
import { QuickPromptController } from '../../src/main/quick-prompt.js';
import { createShellDispatch } from '../../src/main/shell-routes.js';
import { SHELL_EVENT_CHANNEL, SHELL_ROUTES } from '../../src/shared/shell-contract.js';
import { createIpcRouter } from '../../src/main/ipc-router.js';

/** A stand-in for BrowserWindow's state and events (Electron cannot run here). */
class FakeWindow implements AppWindow {
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  readonly sent: [string, unknown][] = [];
  private readonly listeners = new Map<string, (() => void)[]>();
  readonly webContents = { isDestroyed: () => this.destroyed, send: (channel: string, payload: unknown) => void this.sent.push([channel, payload]) };
  constructor(readonly url: string) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  focus(): void {
    this.focused = true;
  }
  restore(): void {
    this.minimized = false;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  on(event: 'blur' | 'closed', listener: () => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  fire(event: 'blur' | 'closed'): void {
    if (event === 'closed') this.destroyed = true;
    for (const l of this.listeners.get(event) ?? []) l();
  }
}

function mainController() {
  const created: FakeWindow[] = [];
  const controller = new MainWindowController((url) => {
    const w = new FakeWindow(url);
    w.show();
    w.focus();
    created.push(w);
    return w;
  });
  return { controller, created };
}

describe('main window', () => {
  it('is created once and reused; a closed (destroyed) window is replaced', () => {
    const { controller, created } = mainController();
    controller.show();
    controller.show();
    expect(created).toHaveLength(1);
    created[0]?.fire('closed');
    controller.show();
    expect(created).toHaveLength(2);
  });

  // Bug caught: "continue in main window" losing the session when the window did not exist yet.
  it('opens a new window directly on a session, and tells a live one to switch', () => {
    const { controller, created } = mainController();
    controller.showSession('s/1');
    expect(created[0]?.url).toBe(mainPageUrl('s/1'));
    expect(created[0]?.url).toBe('app://hearth/index.html?session=s%2F1');
    created[0]?.hide();
    controller.showSession('s2');
    expect(created).toHaveLength(1);
    expect(created[0]?.sent).toEqual([[SHELL_EVENT_CHANNEL, { type: 'open_session', sessionId: 's2' }]]);
    expect(created[0]?.isVisible()).toBe(true);
  });

  it('is attentive only when visible, not minimised and focused', () => {
    const { controller, created } = mainController();
    expect(controller.isAttentive()).toBe(false);
    controller.show();
    expect(controller.isAttentive()).toBe(true);
    const w = created[0] as FakeWindow;
    w.focused = false;
    expect(controller.isAttentive()).toBe(false);
    w.focused = true;
    w.minimized = true;
    expect(controller.isAttentive()).toBe(false);
    controller.show();
    expect(w.minimized).toBe(false);
  });
});

describe('quick prompt', () => {
  function quick() {
    const created: FakeWindow[] = [];
    const continued: string[] = [];
    const controller = new QuickPromptController({
      createWindow: () => {
        const w = new FakeWindow('quick');
        created.push(w);
        return w;
      },
      showMainOnSession: (id) => continued.push(id),
    });
    return { controller, created, continued };
  }

  it('the shortcut toggles it: first press shows and focuses, second hides; the window is reused', () => {
    const { controller, created } = quick();
    controller.toggle();
    expect(created[0]).toMatchObject({ visible: true, focused: true });
    expect(created[0]?.sent).toEqual([[SHELL_EVENT_CHANNEL, { type: 'quick_prompt_shown' }]]);
    controller.toggle();
    expect(created[0]?.visible).toBe(false);
    controller.toggle();
    expect(created).toHaveLength(1);
  });

  // Bug caught: the always-on-top window staying over everything after the user clicked away.
  it('hides when it loses focus', () => {
    const { controller, created } = quick();
    controller.show();
    created[0]?.fire('blur');
    expect(controller.visible).toBe(false);
  });

  it('continue in main window hides it and opens that session in the main window', () => {
    const { controller, continued } = quick();
    controller.show();
    controller.continueInMain('sess-9');
    expect(controller.visible).toBe(false);
    expect(continued).toEqual(['sess-9']);
  });
});

describe('shell routes', () => {
  it('the router parses input once and the shell dispatch calls the matching service', async () => {
    const calls: string[] = [];
    const shell = createShellDispatch({
      hideQuickPrompt: () => calls.push('hide'),
      continueInMain: (id) => calls.push(`continue:${id}`),
      openExternal: (url) => url.startsWith('https:'),
      writeClipboard: (text) => calls.push(`copy:${text}`),
    });
    // What main wires: the guarded router over SHELL_ROUTES in front of the shell's dispatch.
    const router = createIpcRouter({ routes: SHELL_ROUTES, dispatch: shell, log: () => undefined });
    const dispatch = (route: string, input: unknown) => router({ senderFrame: { url: 'app://hearth/index.html?view=quick-prompt', parent: null } }, route, input);
    expect(await dispatch('quickPrompt.hide', {})).toEqual({ ok: true, output: { ok: true } });
    expect(await dispatch('quickPrompt.continueInMain', { sessionId: 'a' })).toEqual({ ok: true, output: { ok: true } });
    expect(await dispatch('external.open', { url: 'http://x' })).toEqual({ ok: true, output: { opened: false } });
    expect(await dispatch('clipboard.writeText', { text: 'code' })).toEqual({ ok: true, output: { ok: true } });
    expect(await dispatch('quickPrompt.continueInMain', {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await dispatch('toString', {})).toMatchObject({ ok: false, error: { code: 'unknown_route' } });
    expect(calls).toEqual(['hide', 'continue:a', 'copy:code']);
  });
});
