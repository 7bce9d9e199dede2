// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import { SettingsView } from '../../src/renderer/settings/SettingsView.js';
import { eventually, RouteError, startContractServer, type ContractServer } from './fixtures/contract-server.js';
import { sampleSettings, sampleStatus } from './fixtures/sample-views.js';

/**
 * Settings against a contract server that plays the engine: the "keychain" is the server's Map, and the
 * settings it returns carry only `hasKey`, as the real engine's do.
 */
const KEY = 'sk-test-DO-NOT-KEEP-4242';
let server: ContractServer;
let api: WebSocketHearthApi;
let services: Services;
let keychain: Map<string, string>;

async function setUp(options: { keychainLocked?: boolean } = {}) {
  keychain = new Map();
  const settings = sampleSettings();
  const view = () => ({ ...settings, providers: settings.providers.map((p) => ({ ...p, hasKey: keychain.has(p.name) })) });
  server = await startContractServer({
    'settings.get': async () => view(),
    'app.status': async () => sampleStatus(),
    'settings.update': async (patch) => {
      if (patch.language) settings.language = patch.language;
      return view();
    },
    'secrets.setApiKey': async ({ provider, key }) => {
      if (options.keychainLocked) throw new RouteError('unavailable', 'the OS keychain is locked');
      keychain.set(provider, key);
      return { stored: true };
    },
  });
  api = webSocketApi(server.location);
  services = createServices(api);
  await services.settings.getState().load();
  render(
    <ServicesProvider services={services}>
      <SettingsView />
    </ServicesProvider>,
  );
}

afterEach(async () => {
  cleanup();
  services.dispose();
  api.close();
  await server.close();
});

/** Everything the renderer holds: every store's state, the page, web storage. */
function rendererState(): string {
  return [
    JSON.stringify(services.chat.getState()),
    JSON.stringify(services.settings.getState()),
    JSON.stringify(services.models.getState()),
    JSON.stringify(services.nav.getState()),
    document.documentElement.outerHTML,
    JSON.stringify({ ...localStorage }),
    JSON.stringify({ ...sessionStorage }),
  ].join('\n');
}

describe('API keys in settings', () => {
  it('sends the key to secrets.setApiKey, then keeps it nowhere: not in the input, the stores, the page or storage', async () => {
    // Catches a key kept in component or store state after saving (readable by any later XSS or devtools dump).
    await setUp();
    const input = screen.getByTestId('provider-key-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.change(input, { target: { value: KEY } });
    fireEvent.click(screen.getByTestId('provider-key-save'));

    await eventually(() => expect(input.value).toBe(''));
    await eventually(() => expect(screen.getByTestId('provider-has-key').textContent).toBe('Key in keychain'));
    expect(keychain.get('openai')).toBe(KEY);
    expect(server.calls.filter((c) => c.route === 'secrets.setApiKey')).toEqual([{ route: 'secrets.setApiKey', input: { provider: 'openai', key: KEY } }]);
    expect(rendererState()).not.toContain(KEY);
    expect(services.settings.getState().settings?.providers[0]?.hasKey).toBe(true);
  });

  it('a refused save keeps the key only in the input (for a retry) and shows why', async () => {
    // Catches a failed save clearing the field silently (the user thinks it is stored) or copying the key into a store.
    await setUp({ keychainLocked: true });
    const input = screen.getByTestId('provider-key-input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: KEY } });
    fireEvent.click(screen.getByTestId('provider-key-save'));
    expect((await screen.findByTestId('provider-key-error')).textContent).toContain('keychain is locked');
    expect(input.value).toBe(KEY);
    expect(keychain.size).toBe(0);
    const stores = [services.chat, services.settings, services.models, services.nav].map((s) => JSON.stringify(s.getState())).join();
    expect(stores).not.toContain(KEY);
  });

  it('switching the language in settings re-renders the UI in Chinese at once', async () => {
    // Catches a language that only applies after a reload, or a view with hard-coded English.
    await setUp();
    expect(screen.getByText('Providers and API keys')).toBeTruthy();
    fireEvent.change(screen.getByTestId('language-select'), { target: { value: 'zh-CN' } });
    expect(await screen.findByText('服务商与 API 密钥')).toBeTruthy();
    expect(screen.queryByText('Providers and API keys')).toBeNull();
    expect(server.calls.find((c) => c.route === 'settings.update')?.input).toEqual({ language: 'zh-CN' });
  });
});
