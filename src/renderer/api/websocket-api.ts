import { ServerFrame, type ClientFrame, type HearthApi, type RouteName, type RouteInput, type RouteOutput, type UiEvent } from '../../shared/contract.js';
import { ApiCallError } from './api-error.js';

/**
 * `unreachable`: the socket never opened after a few tries. A browser hides why (a 401 for a stale token looks
 * like a server that is down), so the page says both; `no-token`: the address has no token at all.
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'unreachable' | 'no-token';

/** Failed first attempts before a page that never connected says it cannot reach Hearth at this address. */
const ATTEMPTS_BEFORE_UNREACHABLE = 3;

/** The web-mode transport: the HearthApi contract plus what only a network connection has. */
export interface WebSocketHearthApi extends HearthApi {
  connectionState(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

export interface WebSocketApiOptions {
  /** Backoff before reconnect attempt n (0-based); capped so a server restart is noticed within seconds. */
  backoffMs?: (attempt: number) => number;
  /** Defaults to the browser's WebSocket. */
  WebSocketImpl?: typeof WebSocket;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

const defaultBackoff = (attempt: number) => Math.min(250 * 2 ** attempt, 8_000);

/** The socket URL for a page served by `hearth serve`: same host, `/ws`, the per-launch token from the page URL. */
export function webSocketUrl(location: Pick<Location, 'protocol' | 'host' | 'search'>): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}

/**
 * Talks the contract over one WebSocket: requests are matched to replies by id, `{event}` frames go to the
 * listeners, and a dropped socket is reopened with backoff. The token lives only in this closure (never in
 * localStorage), so nothing else on the page origin can read it back later.
 */
export function webSocketApi(location: Pick<Location, 'protocol' | 'host' | 'search'>, options: WebSocketApiOptions = {}): WebSocketHearthApi {
  const url = webSocketUrl(location);
  const hasToken = (new URLSearchParams(location.search).get('token') ?? '') !== '';
  let everOpened = false;
  const backoff = options.backoffMs ?? defaultBackoff;
  const Impl = options.WebSocketImpl ?? globalThis.WebSocket;
  const pending = new Map<number, Pending>();
  /** Frames asked for while the socket is down; sent in order once it opens. */
  const outbox: ClientFrame[] = [];
  const eventListeners = new Set<(event: UiEvent) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let nextId = 1;
  let attempt = 0;
  let state: ConnectionState = hasToken ? 'connecting' : 'no-token';
  let socket: WebSocket | null = null;
  let closed = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const failAllPending = () => {
    // The server may or may not have run these; the caller must decide whether to retry, so say so.
    for (const [id, request] of pending) {
      request.reject(new ApiCallError({ code: 'unavailable', message: 'The connection to Hearth was lost before it answered; try again.' }));
      pending.delete(id);
    }
  };

  const handleFrame = (raw: unknown) => {
    let frame: ServerFrame;
    try {
      frame = ServerFrame.parse(JSON.parse(String(raw)));
    } catch (error) {
      // A frame we cannot read is a server bug; report it instead of dropping it silently.
      console.error('hearth: unreadable frame from the server', error);
      return;
    }
    if ('event' in frame) {
      for (const listener of eventListeners) listener(frame.event);
      return;
    }
    const request = pending.get(frame.id);
    if (!request) return; // a reply to a request already failed by a disconnect
    pending.delete(frame.id);
    if (frame.ok) request.resolve(frame.output);
    else request.reject(new ApiCallError(frame.error));
  };

  const connect = () => {
    const ws = new Impl(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      everOpened = true;
      setState('open');
      for (const frame of outbox.splice(0)) ws.send(JSON.stringify(frame));
    };
    ws.onmessage = (message) => handleFrame(message.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      failAllPending();
      if (closed) return;
      if (everOpened) setState('reconnecting');
      else if (!hasToken) setState('no-token');
      else if (attempt + 1 >= ATTEMPTS_BEFORE_UNREACHABLE) setState('unreachable');
      reconnectTimer = setTimeout(connect, backoff(attempt++));
    };
    // 'error' is always followed by 'close', which does the recovery.
    ws.onerror = () => undefined;
  };
  connect();

  return {
    invoke<R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>> {
      if (closed) return Promise.reject(new ApiCallError({ code: 'unavailable', message: 'The connection was closed.' }));
      const frame: ClientFrame = { id: nextId++, route, input };
      return new Promise<RouteOutput<R>>((resolve, reject) => {
        pending.set(frame.id, { resolve: resolve as (value: unknown) => void, reject });
        if (socket && socket.readyState === Impl.OPEN) socket.send(JSON.stringify(frame));
        else outbox.push(frame);
      });
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    connectionState: () => state,
    onConnectionChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      socket?.close();
      socket = null;
      failAllPending();
      for (const frame of outbox.splice(0)) pending.delete(frame.id);
    },
  };
}
