/**
 * The preload: the renderer's only door to main. It exposes two narrow objects, `window.hearth`
 * (`HearthApi`, the same contract web mode speaks) and `window.hearthShell` (shell-only calls), and never
 * `ipcRenderer` or the `IpcRendererEvent` (whose `sender` could reach every channel).
 *
 * This file must stay self-contained: a sandboxed preload runs with a `require` that knows only a few
 * built-in modules (`electron`, `events`, `timers`, `url`), so it cannot load a sibling file or zod. Hence
 * the only value import is `electron`, everything from `src/shared` is `import type`, and the channel names
 * are restated here (test/main/preload.test.ts checks they equal the contract's). `scripts/build-preload.js`
 * compiles it alone to `dist/preload/preload.cjs` and refuses any other `require`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { ApiError, HearthApi, RouteInput, RouteName, RouteOutput, UiEvent } from '../shared/contract.js';
import type { HearthShellApi, ShellEvent, ShellRouteInput, ShellRouteName, ShellRouteOutput } from '../shared/shell-contract.js';

export const PRELOAD_CHANNELS = {
  invoke: 'hearth:invoke',
  event: 'hearth:event',
  shellInvoke: 'hearth:shell-invoke',
  shellEvent: 'hearth:shell-event',
} as const;

/** The part of Electron's `ipcRenderer` the factories use (a fake of it runs in tests). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** What main's router replies: the output, or a typed error (never a thrown exception, which IPC flattens). */
export type InvokeReply = { ok: true; output: unknown } | { ok: false; error: ApiError };

/**
 * `window.hearth`. `invoke` throws an Error carrying `code` and `issues`; note that Electron's contextBridge
 * copies only `message` of an Error into the page, so a renderer that branches on `code` should call
 * `invokeResult`, which resolves to the plain reply (plain data crosses the bridge intact).
 */
export interface PreloadHearthApi extends HearthApi {
  invokeResult<R extends RouteName>(route: R, input: RouteInput<R>): Promise<InvokeReply>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Checks the reply's shape; a malformed one becomes an `internal` error rather than `undefined` output. */
export function toReply(raw: unknown): InvokeReply {
  if (isRecord(raw) && raw.ok === true && 'output' in raw) return { ok: true, output: raw.output };
  if (isRecord(raw) && raw.ok === false && isRecord(raw.error) && typeof raw.error.code === 'string' && typeof raw.error.message === 'string') {
    const issues = Array.isArray(raw.error.issues) ? (raw.error.issues as ApiError['issues']) : undefined;
    return { ok: false, error: { code: raw.error.code, message: raw.error.message, ...(issues ? { issues } : {}) } };
  }
  return { ok: false, error: { code: 'internal', message: 'Hearth sent a reply the window could not read.' } };
}

export function errorFromApiError(error: ApiError): Error & { code: string; issues: NonNullable<ApiError['issues']> } {
  return Object.assign(new Error(error.message), { name: 'HearthApiError', code: error.code, issues: error.issues ?? [] });
}

function unwrap(raw: unknown): unknown {
  const reply = toReply(raw);
  if (reply.ok) return reply.output;
  throw errorFromApiError(reply.error);
}

/** Subscribes to one channel, handing the listener only the payload. */
function subscribe<T>(ipc: IpcRendererLike, channel: string, listener: (payload: T) => void): () => void {
  if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
  const wrapped = (_event: unknown, payload: unknown): void => listener(payload as T);
  ipc.on(channel, wrapped);
  return () => {
    ipc.removeListener(channel, wrapped);
  };
}

export function createHearthApi(ipc: IpcRendererLike): PreloadHearthApi {
  return Object.freeze({
    invoke: async <R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>> =>
      unwrap(await ipc.invoke(PRELOAD_CHANNELS.invoke, route, input)) as RouteOutput<R>,
    invokeResult: async <R extends RouteName>(route: R, input: RouteInput<R>): Promise<InvokeReply> =>
      toReply(await ipc.invoke(PRELOAD_CHANNELS.invoke, route, input)),
    onEvent: (listener: (event: UiEvent) => void) => subscribe<UiEvent>(ipc, PRELOAD_CHANNELS.event, listener),
  });
}

export function createShellApi(ipc: IpcRendererLike): HearthShellApi {
  return Object.freeze({
    invoke: async <R extends ShellRouteName>(route: R, input: ShellRouteInput<R>): Promise<ShellRouteOutput<R>> =>
      unwrap(await ipc.invoke(PRELOAD_CHANNELS.shellInvoke, route, input)) as ShellRouteOutput<R>,
    onShellEvent: (listener: (event: ShellEvent) => void) => subscribe<ShellEvent>(ipc, PRELOAD_CHANNELS.shellEvent, listener),
  });
}

contextBridge.exposeInMainWorld('hearth', createHearthApi(ipcRenderer));
contextBridge.exposeInMainWorld('hearthShell', createShellApi(ipcRenderer));
