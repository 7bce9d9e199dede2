/**
 * Handlers of the shell-only routes (`src/shared/shell-contract.ts`), behind the same guarded router as the
 * engine's routes: sender checked and input parsed (with `SHELL_ROUTES`) before any of these runs. The router is
 * the one parse: this dispatch is handed the parsed value and does not parse it again.
 */
import { SHELL_ROUTES, type ShellParsedInput, type ShellRouteName, type ShellRouteOutput } from '../shared/shell-contract.js';
import type { Dispatch, DispatchResult } from './ipc-router.js';

export interface ShellServices {
  hideQuickPrompt(): void;
  continueInMain(sessionId: string): void;
  /** Opens the URL in the browser when it is safe (navigation-guard.ts); says whether it did. */
  openExternal(url: string): boolean;
  writeClipboard(text: string): void;
}

type ShellHandlers = { [R in ShellRouteName]: (input: ShellParsedInput<R>) => ShellRouteOutput<R> };

export function createShellDispatch(services: ShellServices): Dispatch {
  const handlers: ShellHandlers = {
    'quickPrompt.hide': () => {
      services.hideQuickPrompt();
      return { ok: true };
    },
    'quickPrompt.continueInMain': ({ sessionId }) => {
      services.continueInMain(sessionId);
      return { ok: true };
    },
    'external.open': ({ url }) => ({ opened: services.openExternal(url) }),
    'clipboard.writeText': ({ text }) => {
      services.writeClipboard(text);
      return { ok: true };
    },
  };
  return async (route, input): Promise<DispatchResult> => {
    if (!Object.hasOwn(SHELL_ROUTES, route)) return { ok: false, error: { code: 'unknown_route', message: `There is no shell route named "${route}".` } };
    const handler = handlers[route as ShellRouteName] as (input: unknown) => unknown;
    return { ok: true, output: handler(input) };
  };
}
