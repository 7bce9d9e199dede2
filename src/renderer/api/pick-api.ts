import type { ApiError, HearthApi, RouteInput, RouteName, RouteOutput } from '../../shared/contract.js';
import { ApiCallError } from './api-error.js';
import { webSocketApi, type WebSocketHearthApi } from './websocket-api.js';

/** The preload's object (src/preload/preload.ts): the contract plus `invokeResult`, whose reply is plain data. */
export interface PreloadApi extends HearthApi {
  invokeResult<R extends RouteName>(route: R, input: RouteInput<R>): Promise<{ ok: true; output: unknown } | { ok: false; error: ApiError }>;
}

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in web mode. */
    hearth?: PreloadApi;
  }
}

/**
 * The Electron transport. Calls go through `invokeResult` because contextBridge copies only the message of a
 * thrown Error: the error code a view branches on would be lost on the way.
 */
export function ipcApi(): HearthApi {
  const bridge = window.hearth;
  if (!bridge) throw new Error('window.hearth is missing: the preload did not run');
  return {
    async invoke<R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>> {
      const reply = await bridge.invokeResult(route, input);
      if (!reply.ok) throw new ApiCallError(reply.error);
      return reply.output as RouteOutput<R>;
    },
    onEvent: (listener) => bridge.onEvent(listener),
  };
}

export type PickedApi = { api: HearthApi; kind: 'ipc' } | { api: WebSocketHearthApi; kind: 'websocket' };

/** The desktop shell when the preload is there, otherwise web mode (`hearth serve`). */
export function pickApi(): PickedApi {
  if (window.hearth) return { api: ipcApi(), kind: 'ipc' };
  return { api: webSocketApi(window.location), kind: 'websocket' };
}
