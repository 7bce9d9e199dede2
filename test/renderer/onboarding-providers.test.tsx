// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import { Onboarding } from '../../src/renderer/onboarding/Onboarding.js';
import type { RouteInput } from '../../src/shared/contract.js';
import { eventually, startContractServer, type ContractServer } from './fixtures/contract-server.js';
import { sampleSettings, sampleStatus } from './fixtures/sample-views.js';

/**
 * Onboarding's cloud path: a provider on this computer says no key is needed, its connection test lists the
 * server's models, and the one picked fills the model field (the engine side of the test is test/app-providers).
 */
let server: ContractServer;
let api: WebSocketHearthApi;
let services: Services;

afterEach(async () => {
  cleanup();
  services.dispose();
  api.close();
  await server.close();
});

describe('onboarding with a local server', () => {
  // Catches the "accepts any URL and model": no test, no list, a model name to guess.
  it('tests the provider and picks a model from its list', async () => {
    const tested: RouteInput<'providers.test'>[] = [];
    const settings = sampleSettings();
    settings.providers.push({ name: 'ollama', type: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', hasKey: false, builtIn: true, local: true });
    server = await startContractServer({
      'settings.get': async () => settings,
      'app.status': async () => ({ ...sampleStatus(), needsSetup: true }),
      'providers.test': async (input) => {
        tested.push(input);
        return { ok: true, url: `${input.baseUrl}/models`, models: ['llama3.2:3b', 'qwen3:8b'], problem: null, message: 'Connected: 2 models available.' };
      },
    });
    api = webSocketApi(server.location);
    services = createServices(api);
    await services.settings.getState().load();
    render(
      <ServicesProvider services={services}>
        <Onboarding />
      </ServicesProvider>,
    );
    fireEvent.click(screen.getByTestId('onboarding-cloud'));
    const row = (await screen.findAllByTestId('provider')).find((el) => el.dataset.provider === 'ollama') as HTMLElement;
    expect(within(row).getByTestId('provider-no-key-needed').textContent).toContain('need no API key');
    // The remote one asks for a key as before.
    const openai = screen.getAllByTestId('provider').find((el) => el.dataset.provider === 'openai') as HTMLElement;
    expect(within(openai).queryByTestId('provider-no-key-needed')).toBeNull();

    fireEvent.click(within(row).getByTestId('provider-test-run'));
    const models = await within(row).findByTestId('provider-test-models');
    expect(tested).toEqual([{ type: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', provider: 'ollama' }]);
    fireEvent.change(models, { target: { value: 'qwen3:8b' } });
    await eventually(() => expect((screen.getByTestId('onboarding-model') as HTMLInputElement).value).toBe('ollama:qwen3:8b'));
  });

  it('shows why a test failed', async () => {
    server = await startContractServer({
      'settings.get': async () => sampleSettings(),
      'app.status': async () => ({ ...sampleStatus(), needsSetup: true }),
      'providers.test': async (input) => ({ ok: false, url: `${input.baseUrl}/models`, models: [], problem: 'unreachable', message: 'Nothing is listening at 127.0.0.1:9 (connection refused).' }),
    });
    api = webSocketApi(server.location);
    services = createServices(api);
    await services.settings.getState().load();
    render(
      <ServicesProvider services={services}>
        <Onboarding />
      </ServicesProvider>,
    );
    fireEvent.click(screen.getByTestId('onboarding-cloud'));
    fireEvent.change(screen.getByTestId('provider-url'), { target: { value: 'http://127.0.0.1:9/v1' } });
    fireEvent.click(screen.getByTestId('provider-add-test-run'));
    const result = await screen.findByTestId('provider-add-test-result');
    expect(result.textContent).toContain('Nothing is listening');
    expect(result.getAttribute('role')).toBe('alert');
  });
});
