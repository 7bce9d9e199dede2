// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import { StatusBar } from '../../src/renderer/shell/StatusBar.js';
import { eventually, startContractServer, type ContractServer } from './fixtures/contract-server.js';
import { sampleSettings, sampleStatus } from './fixtures/sample-views.js';

/**
 * The status bar follows `status` events: the model loading (with its progress), then where it runs and the
 * last response's speed and context. Catches a bar that only reads `app.status` once at start-up.
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

describe('status bar', () => {
  it('shows load progress while the model loads, then the device and the response stats', async () => {
    server = await startContractServer({ 'settings.get': async () => sampleSettings(), 'app.status': async () => sampleStatus() });
    api = webSocketApi(server.location);
    services = createServices(api);
    await services.settings.getState().load();
    render(
      <ServicesProvider services={services}>
        <StatusBar />
      </ServicesProvider>,
    );
    expect(screen.queryByTestId('status-loading')).toBeNull();

    server.emit({ channel: 'status', status: { ...sampleStatus(), device: 'unknown', loadProgress: 0.42 } });
    await eventually(() => expect(screen.getByTestId('status-loading').textContent).toContain('42%'));

    server.emit({ channel: 'status', status: { ...sampleStatus(), device: 'cpu', loadProgress: null, tokensPerSecond: 12.5, contextUsed: 730, contextSize: 8192 } });
    await eventually(() => expect(screen.queryByTestId('status-loading')).toBeNull());
    expect(screen.getByTestId('status-device').textContent).toContain('CPU');
    expect(screen.getByTestId('status-tps').textContent).toContain('12.5');
    expect(screen.getByTestId('status-context').textContent).toContain('730');
  });

  // Catches the first-run status bar: "3186 / ? (?%)", the old model after the default changed, a stale
  // tokens/s after a failed turn, and a missing model file shown as the model in use.
  it('shows only what the engine knows now', async () => {
    server = await startContractServer({ 'settings.get': async () => sampleSettings(), 'app.status': async () => ({ ...sampleStatus(), model: 'local:/home/u/.hearth/models/hermes.gguf', needsSetup: true }) });
    api = webSocketApi(server.location);
    services = createServices(api);
    await services.settings.getState().load();
    // The chat measured a speed and knows the model its session started with.
    services.chat.setState({ model: 'openai:old-model', tokensPerSecond: 40 });
    render(
      <ServicesProvider services={services}>
        <StatusBar />
      </ServicesProvider>,
    );
    expect(screen.getByTestId('status-model').textContent).toBe('Model: none set up yet');

    server.emit({ channel: 'status', status: { ...sampleStatus(), model: 'ollama:qwen3:8b', tokensPerSecond: null, contextUsed: 3186, contextSize: null } });
    await eventually(() => expect(screen.getByTestId('status-model').textContent).toBe('Model: ollama:qwen3:8b'));
    expect(screen.getByTestId('status-tps').textContent).toBe('— tokens/s');
    expect(screen.getByTestId('status-context').textContent).toBe('Context: 3186 tokens');
  });
});
