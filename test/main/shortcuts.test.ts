import { describe, expect, it } from 'vitest';
import { checkAccelerator, DEFAULT_QUICK_PROMPT_SHORTCUT, QuickPromptShortcut, type GlobalShortcutLike } from '../../src/main/shortcuts.js';

/**
 * Electron's globalShortcut cannot run here (no Electron binary, no display), so this is a small fake of
 * its interface with the same contract: `register` returns false when another application holds the
 * accelerator, and a registered callback fires on the key press.
 */
class FakeGlobalShortcut implements GlobalShortcutLike {
  readonly registered = new Map<string, () => void>();
  constructor(private readonly takenByOtherApps: Set<string> = new Set(), private readonly throwsFor: Set<string> = new Set()) {}
  register(accelerator: string, callback: () => void): boolean {
    if (this.throwsFor.has(accelerator)) throw new Error('conversion failed');
    if (this.takenByOtherApps.has(accelerator) || this.registered.has(accelerator)) return false;
    this.registered.set(accelerator, callback);
    return true;
  }
  unregister(accelerator: string): void {
    this.registered.delete(accelerator);
  }
  press(accelerator: string): void {
    this.registered.get(accelerator)?.();
  }
}

function setup(taken: string[] = [], throwing: string[] = []) {
  const shortcuts = new FakeGlobalShortcut(new Set(taken), new Set(throwing));
  const notices: string[] = [];
  let opened = 0;
  const shortcut = new QuickPromptShortcut(shortcuts, () => opened++, (m) => notices.push(m));
  return { shortcuts, notices, shortcut, opened: () => opened };
}

describe('accelerator validation', () => {
  it.each([
    ['CommandOrControl+Shift+Space', 'CommandOrControl+Shift+Space'],
    ['ctrl+alt+k', 'Ctrl+Alt+K'],
    ['Super+F1', 'Super+F1'],
    ['F13', 'F13'],
    ['Alt+Plus', 'Alt+Plus'],
    ['CmdOrCtrl+num5', 'CmdOrCtrl+num5'],
  ])('%s is valid (→ %s)', (text, normalised) => {
    expect(checkAccelerator(text)).toEqual({ ok: true, accelerator: normalised });
  });

  it.each([
    ['', /empty/],
    ['Ctrl+', /empty part/],
    ['Ctrl++', /empty part/],
    ['Hyper+K', /not a modifier/],
    ['Ctrl+Ctrl+K', /twice/],
    ['Ctrl+Shift', /not a key/],
    ['Ctrl+Banana', /not a key/],
    ['K', /ordinary typing/],
    ['Shift+A', /ordinary typing/],
  ])('%j is refused (%s)', (text, reason) => {
    const check = checkAccelerator(text);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });
});

describe('quick-prompt shortcut registration', () => {
  it('registers the default and the key press opens the quick prompt', () => {
    const { shortcuts, shortcut, opened } = setup();
    expect(shortcut.apply(DEFAULT_QUICK_PROMPT_SHORTCUT)).toEqual({ registered: true, accelerator: DEFAULT_QUICK_PROMPT_SHORTCUT });
    shortcuts.press(DEFAULT_QUICK_PROMPT_SHORTCUT);
    expect(opened()).toBe(1);
  });

  // Bug caught: an invalid accelerator from config.yaml throwing at start-up and killing the app.
  it('an invalid accelerator gives a notice, registers nothing, and does not throw', () => {
    const { shortcuts, shortcut, notices } = setup();
    expect(shortcut.apply('Ctrl+Banana')).toMatchObject({ registered: false, kept: null });
    expect(shortcuts.registered.size).toBe(0);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/Ctrl\+Banana.*not a key/);
  });

  // Bug caught: a shortcut taken by another app failing silently (or crashing Hearth).
  it('a shortcut taken by another app gives a notice pointing to the tray, and the app keeps going', () => {
    const { shortcut, notices } = setup([DEFAULT_QUICK_PROMPT_SHORTCUT]);
    expect(shortcut.apply(DEFAULT_QUICK_PROMPT_SHORTCUT)).toMatchObject({ registered: false, kept: null });
    expect(shortcut.registered).toBeNull();
    expect(notices[0]).toMatch(/already used by another application.*tray/);
  });

  it('a platform that throws on register is a notice too', () => {
    const { shortcut, notices } = setup([], ['Super+F1']);
    expect(shortcut.apply('Super+F1')).toMatchObject({ registered: false });
    expect(notices[0]).toMatch(/cannot be bound.*conversion failed/);
  });

  // Bug caught: changing the shortcut leaving the old one bound (two shortcuts) or binding none.
  it('re-registering on change unregisters the old one first', () => {
    const { shortcuts, shortcut, opened } = setup();
    shortcut.apply('Ctrl+Alt+K');
    expect(shortcut.apply('Ctrl+Alt+J')).toEqual({ registered: true, accelerator: 'Ctrl+Alt+J' });
    expect([...shortcuts.registered.keys()]).toEqual(['Ctrl+Alt+J']);
    shortcuts.press('Ctrl+Alt+K');
    expect(opened()).toBe(0);
    shortcuts.press('Ctrl+Alt+J');
    expect(opened()).toBe(1);
  });

  it('a change to a taken shortcut keeps the old one working and says so', () => {
    const { shortcuts, shortcut, notices } = setup(['Ctrl+Alt+J']);
    shortcut.apply('Ctrl+Alt+K');
    expect(shortcut.apply('Ctrl+Alt+J')).toMatchObject({ registered: false, kept: 'Ctrl+Alt+K' });
    expect([...shortcuts.registered.keys()]).toEqual(['Ctrl+Alt+K']);
    expect(notices[0]).toMatch(/Ctrl\+Alt\+K still works/);
  });

  it('an invalid change keeps the old one', () => {
    const { shortcuts, shortcut } = setup();
    shortcut.apply('Ctrl+Alt+K');
    expect(shortcut.apply('nonsense+')).toMatchObject({ registered: false, kept: 'Ctrl+Alt+K' });
    expect([...shortcuts.registered.keys()]).toEqual(['Ctrl+Alt+K']);
  });

  it('applying the same accelerator again (in another spelling) changes nothing', () => {
    const { shortcuts, shortcut, notices } = setup();
    shortcut.apply('ctrl+alt+k');
    expect(shortcut.apply('Ctrl+Alt+K')).toEqual({ registered: true, accelerator: 'Ctrl+Alt+K' });
    expect(shortcuts.registered.size).toBe(1);
    expect(notices).toEqual([]);
  });

  it('dispose unregisters on quit', () => {
    const { shortcuts, shortcut } = setup();
    shortcut.apply(DEFAULT_QUICK_PROMPT_SHORTCUT);
    shortcut.dispose();
    expect(shortcuts.registered.size).toBe(0);
    expect(shortcut.registered).toBeNull();
  });
});
