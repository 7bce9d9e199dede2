/**
 * Every permission the renderer could ask for (camera, microphone, notifications, geolocation, clipboard,
 * HID/serial/USB devices…) is refused, both when requested and when merely checked. Hearth's UI needs none:
 * the clipboard goes through the shell route `clipboard.writeText` and notifications come from main.
 */
export interface PermissionSession {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
}

export function denyAllPermissions(session: PermissionSession, log: (message: string) => void): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`Denied the renderer's permission request: ${permission}.`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
