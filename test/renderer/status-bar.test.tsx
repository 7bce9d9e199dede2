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
});
