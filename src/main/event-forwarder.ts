/**
 * Pushes engine events (`UiEvent`) and shell events to the open windows. A window that closed between the
 * event and the send is skipped: sending to destroyed webContents throws, and one gone window must not stop
 * the others from getting the event.
 */
export interface WebContentsLike {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

export function createEventForwarder<T>(channel: string, targets: () => Iterable<WebContentsLike>): (payload: T) => void {
  return (payload) => {
    for (const contents of targets()) {
      if (!contents.isDestroyed()) contents.send(channel, payload);
    }
  };
}
