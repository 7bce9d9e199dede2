import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, createAppProtocolHandler, resolveAppRequest } from '../../src/main/app-protocol.js';

/**
 * The app:// handler serves real files from a temporary "dist/renderer" next to a secret file outside it;
 * every traversal variant must be refused and the secret never read.
 */
// Created at collection time: the absolute-path case below names the secret's real path.
const base = mkdtempSync(join(tmpdir(), 'hearth-protocol-'));
const root = join(base, 'renderer');
const SECRET = 'SECRET-OUTSIDE-RENDERER';

beforeAll(() => {
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Hearth</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'my file.css'), 'body{}');
  writeFileSync(join(base, 'secret.txt'), SECRET);
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const handler = () => {
  const refused: string[] = [];
  return { handle: createAppProtocolHandler({ rootDir: root, onRefused: (_u, reason) => refused.push(reason) }), refused };
};

describe('app:// protocol', () => {
  it('serves index.html for / with the strict CSP and the right MIME type', async () => {
    const { handle } = handler();
    const res = await handle({ url: 'app://hearth/', method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>Hearth</title>');
  });

  it('serves a script as JavaScript and a percent-encoded file name', async () => {
    const { handle } = handler();
    const js = await handle({ url: 'app://hearth/assets/app.js?v=1', method: 'GET' });
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
    const css = await handle({ url: 'app://hearth/assets/my%20file.css', method: 'GET' });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  // Bug caught: a CSP that lets model output run inline script or talk to the network.
  it('the CSP has no unsafe-inline, no remote source, and locks objects, base, frames and forms', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|\*/);
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'none'"]) {
      expect(CONTENT_SECURITY_POLICY).toContain(directive);
    }
  });

  // Bug caught: path traversal reading files outside dist/renderer.
  it.each([
    'app://hearth/../secret.txt',
    'app://hearth/assets/../../secret.txt',
    'app://hearth/%2e%2e/secret.txt',
    'app://hearth/%2E%2E/secret.txt',
    'app://hearth/assets/%2e%2e/%2e%2e/secret.txt',
    'app://hearth/..%2fsecret.txt',
    'app://hearth/..%2Fsecret.txt',
    'app://hearth/%2e%2e%2fsecret.txt',
    'app://hearth/..%5csecret.txt',
    'app://hearth/assets\\..\\..\\secret.txt',
    'app://hearth/%5c..%5c..%5csecret.txt',
    'app://hearth//etc/passwd',
    'app://hearth/%2fetc%2fpasswd',
    `app://hearth/${encodeURIComponent(join(base, 'secret.txt'))}`,
    'app://hearth/C:/Windows/win.ini',
    'app://hearth/index.html%00.png',
    'app://hearth/./index.html',
    'app://hearth/%25%32%65%25%32%65/secret.txt',
    'app://hearth/%E0%A4%A',
    'app://other/index.html',
    'app://hearth:99/index.html',
    'file:///etc/passwd',
  ])('refuses %s', async (url) => {
    const { handle, refused } = handler();
    const res = await handle({ url, method: 'GET' });
    expect(res.status, url).toBeGreaterThanOrEqual(400);
    const body = await res.text();
    expect(body).not.toContain(SECRET);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    // Refused by the lexical check, before any disk access.
    expect([400, 403]).toContain(res.status);
    expect(refused).toHaveLength(1);
  });

  // Bug caught: a symlink inside the renderer folder used to read a file outside it.
  it('refuses a symlink that points out of the renderer folder', async () => {
    const { handle, refused } = handler();
    const res = await handle({ url: 'app://hearth/assets/link.txt', method: 'GET' });
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain(SECRET);
    expect(refused).toEqual(['a link out of the renderer folder']);
  });

  it('a missing file is a 404 and a POST is refused', async () => {
    const { handle } = handler();
    expect((await handle({ url: 'app://hearth/nope.js', method: 'GET' })).status).toBe(404);
    expect((await handle({ url: 'app://hearth/index.html', method: 'POST' })).status).toBe(405);
  });

  it('resolveAppRequest maps inside the root only', () => {
    const ok = resolveAppRequest(root, 'app://hearth/assets/app.js');
    expect(ok).toEqual({ ok: true, filePath: join(root, 'assets', 'app.js'), mimeType: 'text/javascript; charset=utf-8' });
    expect(resolveAppRequest(root, 'app://hearth/a/../b.js')).toMatchObject({ ok: false, status: 403 });
  });
});
