import type { RawData, WebSocket } from 'ws';
import { ClientFrame, type RouteHandlers, type ServerFrame, type UiEvent } from '../shared/contract.js';
import { dispatch, type RouteSchemas } from '../core/app/dispatch.js';

/** A client that stops reading is dropped past this much unsent data, rather than growing the server's memory without bound. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** Sent when a frame could not be read far enough to find its id. */
export const UNREADABLE_FRAME_ID = -1;

export interface BridgeOptions {
  handlers: RouteHandlers;
  /** Unexpected failures inside handlers, for the server's log (the client sees only `internal`). */
  onInternalError: (err: unknown, route: string) => void;
  /** The input schemas; `ROUTES` unless a test swaps one in. */
  routes?: RouteSchemas;
}

/**
 * The contract on one WebSocket: each text frame is a ClientFrame, answered by a ServerFrame with the
 * same id; UiEvents go to every open socket. A frame that is not JSON, not a ClientFrame, or binary gets
 * an error frame and the socket stays open for the next one.
 */
export class WebSocketBridge {
  private readonly sockets = new Set<WebSocket>();

  constructor(private readonly options: BridgeOptions) {}

  get connections(): number {
    return this.sockets.size;
  }

  attach(socket: WebSocket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => this.sockets.delete(socket));
    socket.on('message', (data, isBinary) => void this.answer(socket, data, isBinary));
  }

  broadcast(event: UiEvent): void {
    const text = JSON.stringify({ event } satisfies ServerFrame);
    for (const socket of this.sockets) this.send(socket, text);
  }

  /** Closes every socket politely, then cuts the ones that have not finished the closing handshake in time. */
  async closeAll(code: number, reason: string, graceMs = 1000): Promise<void> {
    await Promise.all(
      [...this.sockets].map(
        (socket) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => socket.terminate(), graceMs);
            socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.close(code, reason);
          }),
      ),
    );
  }

  private async answer(socket: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary) return this.reply(socket, failure(UNREADABLE_FRAME_ID, 'Frames are JSON text; binary frames are not understood.'));
    let json: unknown;
    try {
      json = JSON.parse(rawText(data));
    } catch (_err) {
      // Answered with the error frame below; the parser's message adds nothing a client can act on.
      return this.reply(socket, failure(UNREADABLE_FRAME_ID, 'The frame is not valid JSON.'));
    }
    const frame = ClientFrame.safeParse(json);
    if (!frame.success) {
      const id = idOf(json);
      const issues = frame.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
      return this.reply(socket, { id, ok: false, error: { code: 'invalid_input', message: 'The frame is not {id, route, input}.', issues } });
    }
    // The frame's schema leaves `input` unknown: dispatch is this transport's one parse of it.
    const { handlers, onInternalError, routes } = this.options;
    const result = await dispatch(handlers, frame.data.route, frame.data.input, { onInternalError, ...(routes === undefined ? {} : { routes }) });
    this.reply(socket, result.ok ? { id: frame.data.id, ok: true, output: result.output } : { id: frame.data.id, ok: false, error: result.error });
  }

  private reply(socket: WebSocket, frame: ServerFrame): void {
    this.send(socket, JSON.stringify(frame));
  }

  private send(socket: WebSocket, text: string): void {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      // 1013 "try again later": the client reconnects and reloads state instead of reading a backlog.
      socket.close(1013, 'client too slow');
      return;
    }
    socket.send(text);
  }
}

function failure(id: number, message: string): ServerFrame {
  return { id, ok: false, error: { code: 'invalid_input', message } };
}

/** The id of a frame that failed validation, when it has a usable one, so the caller's promise still settles. */
function idOf(json: unknown): number {
  const id = typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : UNREADABLE_FRAME_ID;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
