import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteSecret, getSecret } from '../../src/core/safety/secrets/keychain.js';
import { openStore } from '../../src/core/store/open-store.js';
import { zhCN } from '../../src/renderer/i18n/zh-CN.js';
import { heapHolds, screenshot, startWebApp, waitForApp, type WebApp } from '../fixtures/web-app.js';

/**
 * Settings in the browser: an API key that ends up in the OS keychain and nowhere else, and the
 * Simplified Chinese interface.
 */
const CHINESE_ANSWER = '你好！我是 Hearth，一个在你电脑上运行的助手。';
let app: WebApp;
let page: Page;
beforeAll(async () => {
  app = await startWebApp({ script: () => ({ text: CHINESE_ANSWER }) });
  page = app.page;
});
afterAll(async () => {
  if (app) withKeychainService(app.env, () => deleteSecret('provider:scripted'));
  await app?.close();
});

/** The keychain helpers read the service name from process.env; point them at this home's for a moment. */
function withKeychainService<T>(env: NodeJS.ProcessEnv, read: () => T): T {
  const saved = process.env.HEARTH_KEYCHAIN_SERVICE;
  process.env.HEARTH_KEYCHAIN_SERVICE = env.HEARTH_KEYCHAIN_SERVICE;
  try {
    return read();
  } finally {
    if (saved === undefined) delete process.env.HEARTH_KEYCHAIN_SERVICE;
    else process.env.HEARTH_KEYCHAIN_SERVICE = saved;
  }
}

/** Every file under `dir`, recursively (config, database and its WAL, logs, skills). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Rows of every table of the decrypted database whose text (or bytes) contain `needle`. */
function databaseRowsContaining(home: string, env: NodeJS.ProcessEnv, needle: string): string[] {
  const store = openStore(home, { env });
  try {
    const tables = store.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
    expect(tables.length).toBeGreaterThan(5);
    return tables.flatMap((table) =>
      (store.db.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`).all() as Record<string, unknown>[])
        .filter((row) => Object.values(row).some((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)).includes(needle)))
        .map((row) => `${table}: ${JSON.stringify(row).slice(0, 200)}`),
    );
  } finally {
    store.close();
  }
}

// `npm test` runs the suite inside a private D-Bus session with an unlocked gnome-keyring. Without a session
// bus (vitest started by hand) there is no keychain to check, so the test says it is skipped; with one, a
// broken keychain fails it.
const hasSessionBus = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);

describe('an API key saved in Settings', () => {
  // Catches a key written to config.yaml, the database or a log, kept in web storage or the page after
  // saving, echoed back by the server, or never reaching the keychain at all.
  it.skipIf(!hasSessionBus)('is in the OS keychain and nowhere in config, database, web storage, the page, its JS heap or the input', async () => {
    const key = `sk-e2e-${randomBytes(18).toString('hex')}`;
    await page.getByTestId('nav-settings').click();
    const provider = page.locator('[data-testid="provider"][data-provider="scripted"]');
    await provider.waitFor();
    expect(await provider.getByTestId('provider-has-key').getAttribute('class')).not.toContain('ok');
    const input = provider.getByTestId('provider-key-input');
    await input.fill(key);
    await provider.getByTestId('provider-key-save').click();
    await provider.locator('[data-testid="provider-has-key"].ok').waitFor();
    expect(await input.inputValue()).toBe('');
    expect(await provider.getByTestId('provider-key-error').count()).toBe(0);
    await screenshot(page, 'settings-api-key-saved');

    expect(withKeychainService(app.env, () => getSecret('provider:scripted'))).toBe(key);

    const config = readFileSync(join(app.home, 'config.yaml'), 'utf8');
    expect(config).toContain('scripted');
    expect(config).not.toContain(key);
    // Raw bytes of everything under HEARTH_HOME (the database file is encrypted, so this also covers a
    // plaintext copy or log), then the decrypted database, every column of every table.
    for (const file of filesUnder(app.home)) expect(readFileSync(file).includes(key), file).toBe(false);
    expect(databaseRowsContaining(app.home, app.env, key)).toEqual([]);
    expect(app.serverLog()).not.toContain(key);

    const webStorage = await page.evaluate<string>(`(() => {
      const dump = (s) => Array.from({ length: s.length }, (_, i) => s.key(i) + '=' + s.getItem(s.key(i))).join('\\n');
      return dump(localStorage) + '\\n' + dump(sessionStorage) + '\\n' + document.cookie;
    })()`);
    expect(webStorage).not.toContain(key);
    expect(await page.content()).not.toContain(key);
    // No store kept it: once the form that was typed into is gone, no live object in the page holds it.
    await page.getByTestId('nav-chat').click();
    expect(await heapHolds(page, key)).toBe(false);
    // The page as a reload shows it: what the server sends back about providers.
    await page.reload();
    await waitForApp(page);
    await page.getByTestId('nav-settings').click();
    await provider.locator('[data-testid="provider-has-key"].ok').waitFor();
    expect(await page.content()).not.toContain(key);
  });
});

describe('the Chinese interface', () => {
  // Catches untranslated labels (English left in the nav or chat), a language choice that is not saved
  // (back to English after a reload), and CJK text the page cannot lay out.
  it('switching to 简体中文 in Settings translates nav and chat, and survives a reload', async () => {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('language-select').selectOption('zh-CN');
    await expect.poll(() => page.getByTestId('nav-chat').textContent()).toBe(zhCN['nav.chat']);
    const navLabels = await page.locator('nav [data-testid^="nav-"]').allTextContents();
    expect(navLabels).toEqual(['nav.chat', 'nav.sessions', 'nav.skills', 'nav.memory', 'nav.learning', 'nav.models', 'nav.settings'].map((k) => zhCN[k as keyof typeof zhCN]));
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('zh-CN');
    expect(readFileSync(join(app.home, 'config.yaml'), 'utf8')).toMatch(/language: zh-CN/);
    await screenshot(page, 'zh-settings');

    await page.reload();
    await waitForApp(page);
    await page.getByTestId('nav-chat').click();
    expect(await page.getByTestId('nav-chat').textContent()).toBe('对话');
    expect(await page.getByTestId('chat-phase').textContent()).toBe(zhCN['phase.idle']);
    expect(await page.getByTestId('new-chat').textContent()).toBe(zhCN['chat.new']);
    expect(await page.getByTestId('send').textContent()).toBe(zhCN['chat.send']);
    expect(await page.getByTestId('composer-input').getAttribute('placeholder')).toBe(zhCN['chat.placeholder']);
    await page.getByTestId('composer-input').fill('你好');
    await page.getByTestId('send').click();
    await page.locator('[data-testid="chat-view"][data-phase="idle"]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: CHINESE_ANSWER }).waitFor();
    expect(await page.getByTestId('status-bar').textContent()).not.toMatch(/Model:|tokens\/s/);
    await screenshot(page, 'zh-chat');
  });
});
