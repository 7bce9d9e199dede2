import { describe, expect, it } from 'vitest';
import { guardNavigation, safeExternalUrl, type GuardedContents } from '../../src/main/navigation-guard.js';
import { denyAllPermissions, type PermissionSession } from '../../src/main/permissions.js';

/**
 * A small stand-in for Electron's webContents event surface (Electron cannot run here): it records the
 * listeners the guard installs so the test can fire the same events Electron would.
 */
class FakeContents implements GuardedContents {
  listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  on(event: string, listener: (event: { preventDefault(): void }, url: string) => void): this {
    this.listeners.set(event, listener);
    return this;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Fires an event; returns whether the guard cancelled it. */
  fire(event: string, url = ''): boolean {
    let prevented = false;
    this.listeners.get(event)?.({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

function guarded() {
  const opened: string[] = [];
  const contents = new FakeContents();
  guardNavigation(contents, { openExternal: async (url) => void opened.push(url), log: () => undefined });
  return { contents, opened };
}

describe('external links', () => {
  // Bug caught: javascript:/file:/http:/credential-disguised links opened by the OS from model output.
  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://example.com/',
    'https://user:pw@example.com/',
    'https://bank.example@evil.example/',
    'data:text/html,<script>1</script>',
    'vbscript:x',
    'smb://host/share',
    'ms-msdt:/id',
    'app://hearth/index.html',
    'https://',
    'not a url',
    `https://example.com/${'a'.repeat(5000)}#overlong`,
  ])('refuses %.60s', (url) => {
    expect(safeExternalUrl(url)).toBeNull();
  });

  it('accepts plain https and normalises it', () => {
    expect(safeExternalUrl('https://Example.com/a b?q=1')?.href).toBe('https://example.com/a%20b?q=1');
  });
});

describe('navigation guard', () => {
  it('lets the app navigate inside app://hearth', () => {
    const { contents, opened } = guarded();
    expect(contents.fire('will-navigate', 'app://hearth/index.html?session=s1')).toBe(false);
    expect(opened).toEqual([]);
  });

  // Bug caught: the trusted window (with the preload's API) navigating to a remote page.
  it('cancels navigation away and opens only https links in the browser', () => {
    const { contents, opened } = guarded();
    expect(contents.fire('will-navigate', 'https://docs.example/page')).toBe(true);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(opened).toEqual(['https://docs.example/page']);
  });

  it('cancels redirects away from the app without opening anything', () => {
    const { contents, opened } = guarded();
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-redirect', 'app://hearth/index.html')).toBe(false);
    expect(opened).toEqual([]);
  });

  it('denies every new window and webview, opening safe links externally instead', () => {
    const { contents, opened } = guarded();
    expect(contents.openHandler?.({ url: 'https://a.example/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'app://hearth/index.html' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'http://a.example/' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://a.example/']);
    expect(contents.fire('will-attach-webview')).toBe(true);
  });
});

describe('permissions', () => {
  // Bug caught: a handler left at Electron's default, which grants most permissions.
  it('denies every permission request and check, and every device', () => {
    const handlers: Partial<Record<'request' | 'check' | 'device', (...args: never[]) => unknown>> = {};
    const session: PermissionSession = {
      setPermissionRequestHandler: (h) => (handlers.request = h as never),
      setPermissionCheckHandler: (h) => (handlers.check = h as never),
      setDevicePermissionHandler: (h) => (handlers.device = h as never),
    };
    const logs: string[] = [];
    denyAllPermissions(session, (m) => logs.push(m));
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen']) {
      const answers: boolean[] = [];
      (handlers.request as (wc: unknown, p: string, cb: (g: boolean) => void) => void)({}, permission, (g) => answers.push(g));
      expect(answers, permission).toEqual([false]);
      expect((handlers.check as (wc: unknown, p: string) => boolean)({}, permission)).toBe(false);
    }
    expect((handlers.device as (d: unknown) => boolean)({ deviceType: 'usb' })).toBe(false);
    expect(logs[0]).toContain('media');
  });
});
