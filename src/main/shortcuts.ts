/**
 * The quick prompt's global shortcut (default Ctrl/Cmd+Shift+Space, configurable). A bad accelerator or
 * one already taken by another app is reported to the user and Hearth keeps running: the tray menu still
 * opens the quick prompt. Changing the shortcut unregisters the old one first, and puts it back if the
 * new one cannot be had, so the user never ends up with none by accident.
 */
export const DEFAULT_QUICK_PROMPT_SHORTCUT = 'CommandOrControl+Shift+Space';

/** The part of Electron's `globalShortcut` used here. */
export interface GlobalShortcutLike {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

const MODIFIERS = new Map(
  ['Command', 'Cmd', 'Control', 'Ctrl', 'CommandOrControl', 'CmdOrCtrl', 'Alt', 'Option', 'AltGr', 'Shift', 'Super', 'Meta'].map((m) => [m.toLowerCase(), m]),
);

const NAMED_KEYS = [
  'Plus', 'Space', 'Tab', 'Capslock', 'Numlock', 'Scrolllock', 'Backspace', 'Delete', 'Insert', 'Return', 'Enter',
  'Up', 'Down', 'Left', 'Right', 'Home', 'End', 'PageUp', 'PageDown', 'Escape', 'Esc', 'PrintScreen',
  'VolumeUp', 'VolumeDown', 'VolumeMute', 'MediaNextTrack', 'MediaPreviousTrack', 'MediaStop', 'MediaPlayPause',
  'numdec', 'numadd', 'numsub', 'nummult', 'numdiv',
];
const KEYS = new Map(NAMED_KEYS.map((k) => [k.toLowerCase(), k]));
const SINGLE_CHAR_KEY = /^[A-Za-z0-9)!@#$%^&*(:;<=>,_\-.?/~`{}[\]|\\"']$/;
const FUNCTION_KEY = /^F([1-9]|1[0-9]|2[0-4])$/i;
const NUMPAD_DIGIT = /^num[0-9]$/i;

export type AcceleratorCheck = { ok: true; accelerator: string } | { ok: false; reason: string };

/**
 * Checks Electron's accelerator grammar (modifiers joined by `+`, one key last) and normalises case. A
 * global shortcut also needs a modifier other than Shift (function keys excepted): a bare key or
 * Shift+letter would swallow ordinary typing in every other app.
 */
export function checkAccelerator(text: string): AcceleratorCheck {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 100) return { ok: false, reason: 'the shortcut is empty or too long' };
  // "Plus" names the + key, so a literal "+" can only appear as a separator.
  const parts = trimmed.split('+');
  if (parts.some((p) => p.trim() === '')) return { ok: false, reason: `"${trimmed}" has an empty part (write the + key as "Plus")` };
  const keyText = (parts.pop() as string).trim();
  const modifiers: string[] = [];
  for (const part of parts) {
    const modifier = MODIFIERS.get(part.trim().toLowerCase());
    if (!modifier) return { ok: false, reason: `"${part.trim()}" is not a modifier (use CommandOrControl, Alt, Shift, Super…)` };
    if (modifiers.includes(modifier)) return { ok: false, reason: `"${modifier}" appears twice` };
    modifiers.push(modifier);
  }
  const key = normaliseKey(keyText);
  if (!key) return { ok: false, reason: `"${keyText}" is not a key Electron knows` };
  const isFunctionKey = FUNCTION_KEY.test(key);
  if (!isFunctionKey && !modifiers.some((m) => m !== 'Shift')) {
    return { ok: false, reason: 'a global shortcut needs Ctrl/Cmd, Alt or Super, or it would capture ordinary typing' };
  }
  return { ok: true, accelerator: [...modifiers, key].join('+') };
}

function normaliseKey(text: string): string | null {
  if (MODIFIERS.has(text.toLowerCase())) return null;
  const named = KEYS.get(text.toLowerCase());
  if (named) return named;
  if (FUNCTION_KEY.test(text)) return text.toUpperCase();
  if (NUMPAD_DIGIT.test(text)) return text.toLowerCase();
  if (SINGLE_CHAR_KEY.test(text)) return text.length === 1 && /[a-z]/.test(text) ? text.toUpperCase() : text;
  return null;
}

export type ShortcutOutcome =
  | { registered: true; accelerator: string }
  | { registered: false; reason: string; kept: string | null };

/**
 * Owns the one registered quick-prompt shortcut. `apply` never throws: every failure becomes a notice
 * (shown to the user by main) and an outcome the settings view can display.
 */
export class QuickPromptShortcut {
  private current: string | null = null;

  constructor(
    private readonly shortcuts: GlobalShortcutLike,
    private readonly onTrigger: () => void,
    private readonly notice: (message: string) => void,
  ) {}

  get registered(): string | null {
    return this.current;
  }

  apply(text: string): ShortcutOutcome {
    const check = checkAccelerator(text);
    if (!check.ok) {
      const kept = this.current;
      this.notice(`The quick-prompt shortcut "${text}" was not set: ${check.reason}.${kept ? ` ${kept} still works.` : ''}`);
      return { registered: false, reason: check.reason, kept };
    }
    if (check.accelerator === this.current) return { registered: true, accelerator: check.accelerator };
    const previous = this.current;
    if (previous) this.shortcuts.unregister(previous);
    this.current = null;
    const failure = this.tryRegister(check.accelerator);
    if (failure === null) {
      this.current = check.accelerator;
      return { registered: true, accelerator: check.accelerator };
    }
    const reason = `${check.accelerator} ${failure}`;
    const restored = previous !== null && this.tryRegister(previous) === null;
    if (restored) this.current = previous;
    this.notice(
      `The quick-prompt shortcut could not be registered: ${reason}. ` +
        (restored ? `${previous} still works.` : 'Open the quick prompt from the tray icon, or choose another shortcut in Settings.'),
    );
    return { registered: false, reason, kept: this.current };
  }

  /** On quit: a global shortcut outlives nothing, but release it explicitly so the OS sees it free at once. */
  dispose(): void {
    if (this.current) this.shortcuts.unregister(this.current);
    this.current = null;
  }

  /** null when registered, else why not. */
  private tryRegister(accelerator: string): string | null {
    try {
      return this.shortcuts.register(accelerator, this.onTrigger) ? null : 'is already used by another application or by the system';
    } catch (err) {
      // Electron throws (rather than returning false) for accelerators a platform cannot bind.
      return `cannot be bound on this system (${err instanceof Error ? err.message : String(err)})`;
    }
  }
}
