import { z } from 'zod';

/**
 * Calls only the desktop shell can answer (a browser tab in web mode has no shell): the quick-prompt
 * window's "continue in the main window" and "hide", opening an https link in the user's browser, and
 * copying text (the renderer's clipboard permission is denied, like every permission). Declared apart from
 * `contract.ts` so `HearthApi` stays transport-neutral (decision 0005). Main checks the sender and parses
 * every call with these schemas before acting.
 */

const Empty = z.object({}).strict();
const Ok = z.object({ ok: z.literal(true) });

const shellRoute = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });

export const SHELL_ROUTES = {
  /** Hides the quick-prompt window (Escape, or after "continue in main window"). */
  'quickPrompt.hide': shellRoute(Empty, Ok),
  /** Opens (or shows) the main window on this session and hides the quick prompt. */
  'quickPrompt.continueInMain': shellRoute(z.object({ sessionId: z.string().min(1).max(200) }).strict(), Ok),
  /** Opens a link in the user's browser; only https URLs without credentials are opened (`opened: false` otherwise). */
  'external.open': shellRoute(z.object({ url: z.string().min(1).max(4000) }).strict(), z.object({ opened: z.boolean() })),
  /** Copies text to the OS clipboard (code blocks' copy button). */
  'clipboard.writeText': shellRoute(z.object({ text: z.string().max(2_000_000) }).strict(), Ok),
} as const;

export type ShellRouteName = keyof typeof SHELL_ROUTES;
export type ShellRouteInput<R extends ShellRouteName> = z.input<(typeof SHELL_ROUTES)[R]['input']>;
export type ShellParsedInput<R extends ShellRouteName> = z.output<(typeof SHELL_ROUTES)[R]['input']>;
export type ShellRouteOutput<R extends ShellRouteName> = z.output<(typeof SHELL_ROUTES)[R]['output']>;

export function isShellRouteName(name: unknown): name is ShellRouteName {
  return typeof name === 'string' && Object.hasOwn(SHELL_ROUTES, name);
}

/** Main → a window: things the shell asks the renderer to do. */
export const ShellEvent = z.discriminatedUnion('type', [
  /** Show this session (the user continued a quick-prompt conversation, or clicked a notification). */
  z.object({ type: z.literal('open_session'), sessionId: z.string() }),
  /** The quick-prompt window was just shown: focus the input. */
  z.object({ type: z.literal('quick_prompt_shown') }),
]);
export type ShellEvent = z.infer<typeof ShellEvent>;

/** The shell side of the renderer's world: `window.hearthShell` (absent in web mode). */
export interface HearthShellApi {
  invoke<R extends ShellRouteName>(route: R, input: ShellRouteInput<R>): Promise<ShellRouteOutput<R>>;
  onShellEvent(listener: (event: ShellEvent) => void): () => void;
}

/** Electron IPC channel names for the shell calls (main ↔ preload). */
export const SHELL_INVOKE_CHANNEL = 'hearth:shell-invoke';
export const SHELL_EVENT_CHANNEL = 'hearth:shell-event';
