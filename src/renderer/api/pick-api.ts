import type { HearthApi } from '../../shared/contract.js';
import { webSocketApi, type WebSocketHearthApi } from './websocket-api.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in web mode. */
    hearth?: HearthApi;
  }
}

/** The Electron transport: the one narrow object the preload exposes. */
export function ipcApi(): HearthApi {
  const api = window.hearth;
  if (!api) throw new Error('window.hearth is missing: the preload did not run');
  return api;
}

export type PickedApi = { api: HearthApi; kind: 'ipc' } | { api: WebSocketHearthApi; kind: 'websocket' };

/** The desktop shell when the preload is there, otherwise web mode (`hearth serve`). */
export function pickApi(): PickedApi {
  if (window.hearth) return { api: ipcApi(), kind: 'ipc' };
  return { api: webSocketApi(window.location), kind: 'websocket' };
}
