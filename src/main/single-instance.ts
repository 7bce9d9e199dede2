/**
 * One Hearth per user session: a second launch (a click on the dock/start-menu entry while Hearth sits in
 * the tray) brings the running instance's window forward and exits, instead of opening a second engine on
 * the same HEARTH_HOME.
 */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
  quit(): void;
}

/** True when this process is the one instance; otherwise it has already asked to quit. */
export function claimSingleInstance(app: SingleInstanceApp, focusExisting: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', focusExisting);
  return true;
}
