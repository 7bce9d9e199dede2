/**
 * The one IPC router: every `ipcRenderer.invoke` from a window lands here. In order: the sender must be
 * the top frame of `app://hearth` (an iframe, a page navigated elsewhere, or a destroyed frame is
 * refused); the route must exist; the input must parse with the route's zod schema; only then is the call
 * dispatched, with the parsed value: this is the desktop's edge, the one place its input is parsed. Every failure is a typed `ApiError` reply, never a thrown exception (Electron would flatten
 * it to a string), and a refused sender is logged without its payload.
 */
import type { z } from 'zod';
import type { ApiError } from '../shared/contract.js';
import { isRouteOf, parseRouteInput, type DispatchResult, type RouteSchemas } from '../core/app/dispatch.js';
import { APP_HOST, APP_SCHEME } from './app-origin.js';

export type { DispatchResult, RouteSchemas };

/**
 * Calls the handler of an already-checked route with its already-parsed input (the engine's `dispatchParsed`,
 * or the shell's dispatch): it must not parse again, so a schema's transforms and defaults run once.
 */
export type Dispatch = (route: string, parsedInput: unknown) => Promise<DispatchResult>;

/** The part of Electron's `WebFrameMain` the check reads. */
export interface SenderFrameLike {
  readonly url: string;
  /** `null` only for a top-level frame. */
  readonly parent: unknown;
}

/** The part of Electron's `IpcMainInvokeEvent` the router reads. */
export interface InvokeEventLike {
  /** `null` when the frame has navigated away or been destroyed since it sent the message. */
  readonly senderFrame: SenderFrameLike | null;
}

export interface IpcRouterOptions {
  /** `ROUTES` from the contract, or `SHELL_ROUTES`. */
  routes: RouteSchemas;
  dispatch: Dispatch;
  /** Where refusals and internal failures are reported; never given a payload. */
  log: (message: string) => void;
}

const fail = (code: string, message: string): DispatchResult => ({ ok: false, error: { code, message } satisfies ApiError });

/** Why a sender may not call, or null when it may. */
export function senderProblem(frame: SenderFrameLike | null): string | null {
  if (frame === null) return 'the sending frame is gone';
  if (frame.parent !== null) return 'the call came from a sub-frame';
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    // An unparseable frame URL cannot be the app's page.
    return 'the sending frame has no valid URL';
  }
  // Field by field: for a custom scheme, URL.origin is the opaque string "null" (see app-origin.ts).
  const isApp = url.protocol === `${APP_SCHEME}:` && url.hostname === APP_HOST && url.port === '' && url.username === '' && url.password === '';
  return isApp ? null : `the sending frame is not ${APP_SCHEME}://${APP_HOST} but ${describeOrigin(url)}`;
}

/** Scheme and host only: a frame URL can carry tokens or personal data in its path and query. */
function describeOrigin(url: URL): string {
  return url.host === '' ? url.protocol : `${url.protocol}//${url.host}`;
}

/**
 * The `ipcMain.handle` listener. Arguments are `(event, route, input)`; anything else is malformed.
 */
export function createIpcRouter(options: IpcRouterOptions): (event: InvokeEventLike, ...args: unknown[]) => Promise<DispatchResult> {
  return async (event, ...args) => {
    const problem = senderProblem(event.senderFrame);
    if (problem !== null) {
      const routeName = isRouteOf(options.routes, args[0]) ? args[0] : '(unknown route)';
      options.log(`Refused IPC call ${routeName}: ${problem}.`);
      return fail('forbidden', 'This window may not call Hearth.');
    }
    if (args.length < 1 || args.length > 2) return fail('invalid_input', `Expected (route, input), got ${args.length} arguments.`);
    const [route, input] = args;
    if (!isRouteOf(options.routes, route)) {
      return fail('unknown_route', typeof route === 'string' ? `There is no route named "${route.slice(0, 100)}".` : 'The route name must be a string.');
    }
    const parsed = parseRouteInput((options.routes[route] as { input: z.ZodType }).input, route, input);
    if (!parsed.ok) return parsed;
    try {
      return await options.dispatch(route, parsed.input);
    } catch (err) {
      // dispatch reports failures as values; a throw is a bug, kept out of the renderer's sight but logged.
      options.log(`IPC route ${route} threw: ${err instanceof Error ? err.message : String(err)}`);
      return fail('internal', 'Hearth hit an internal error; see the log.');
    }
  };
}
