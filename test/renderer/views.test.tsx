// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { App } from '../../src/renderer/app/App.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import type { RouteHandlers } from '../../src/shared/contract.js';
import { eventually, startContractServer, type ContractServer } from './fixtures/contract-server.js';
import { sampleSettings, sampleStatus } from './fixtures/sample-views.js';

/** Each page of the app against a contract server: the routes it calls and what it shows from their answers. */
let server: ContractServer;
let api: WebSocketHearthApi;
let services: Services;

const skill = {
  name: 'deploy-docs',
  description: 'Publish the docs site',
  location: '/home/u/.hearth/skills/deploy-docs',
  scope: 'hearth',
  category: null,
  tags: ['web'],
  editable: true,
  usage: { viewed: 3, used: 2, patched: 1, lastUsedAt: null },
};
const download = { id: 'd1', source: 'http://127.0.0.1/m.gguf', file: 'm.gguf', state: 'downloading' as const, receivedBytes: 0, totalBytes: 1000, bytesPerSecond: 0, etaSeconds: null, error: null };

async function renderApp(handlers: Partial<RouteHandlers>) {
  server = await startContractServer({
    'settings.get': async () => sampleSettings(),
    'app.status': async () => sampleStatus(),
    ...handlers,
  });
  api = webSocketApi(server.location);
  services = createServices(api);
  render(
    <ServicesProvider services={services}>
      <App />
    </ServicesProvider>,
  );
  await screen.findByTestId('status-model');
}

afterEach(async () => {
  cleanup();
  services.dispose();
  api.close();
  await server.close();
});

describe('app views', () => {
  it('sessions: search results render U+E000/U+E001 as <mark> (as text, never HTML); open loads the chat', async () => {
    // Catches snippets rendered via innerHTML (a stored message could inject markup) or marks shown raw.
    await renderApp({
      'sessions.list': async () => [],
      'sessions.search': async () => [{ sessionId: 's7', sessionTitle: 'Docs', messageId: 4, role: 'user', snippet: 'run \uE000deploy\uE001 <b>now</b>', createdAt: 0 }],
      'sessions.open': async () => ({
        session: { id: 's7', title: 'Docs', source: 'desktop', model: 'local:h', parentSessionId: null, startedAt: 0, updatedAt: 0, messageCount: 0, inputTokens: 0, outputTokens: 0, lastError: null, hasReply: false },
        messages: [],
      }),
    });
    fireEvent.click(screen.getByTestId('nav-sessions'));
    fireEvent.change(screen.getByTestId('session-search'), { target: { value: 'deploy' } });
    fireEvent.click(screen.getByTestId('session-search-submit'));
    const snippet = await screen.findByTestId('search-snippet');
    expect([...snippet.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['deploy']);
    expect(snippet.querySelector('b')).toBeNull();
    expect(snippet.textContent).toBe('run deploy <b>now</b>');
    fireEvent.click(screen.getByTestId('search-result'));
    await screen.findByTestId('chat-view');
    expect(services.chat.getState().sessionId).toBe('s7');
  });

  it('skills: validate shows the problems list; delete asks first', async () => {
    // Catches a validate button that shows nothing on problems, or a delete without confirmation.
    await renderApp({
      'skills.list': async () => [skill],
      'skills.show': async () => ({ skill, markdown: '---\nname: deploy-docs\ndescription: Publish\n---\n# Steps\n', files: ['scripts/run.sh'] }),
      'skills.validate': async ({ content }) => ({
        valid: content.includes('description:'),
        problems: content.includes('description:') ? [] : [{ field: 'description', message: 'is required', severity: 'error' as const }],
      }),
      'skills.delete': async () => ({ ok: true as const }),
      'pending.list': async () => [{ id: 1, kind: 'skill' as const, summary: 'Patch deploy-docs', diff: '@@ -1 +1 @@\n-old\n+new', createdAt: 0 }],
    });
    fireEvent.click(screen.getByTestId('nav-skills'));
    fireEvent.click(await screen.findByTestId('skill-item'));
    expect((await screen.findByTestId('skill-files')).textContent).toContain('scripts/run.sh');
    expect(within(screen.getByTestId('skill-detail')).getByRole('heading', { name: 'Steps' })).toBeTruthy();
    expect(screen.getByTestId('pending-change').querySelector('.diff-add')?.textContent).toBe('+new');

    fireEvent.click(screen.getByTestId('skill-edit'));
    fireEvent.change(screen.getByTestId('skill-editor'), { target: { value: '---\nname: deploy-docs\n---\n' } });
    fireEvent.click(screen.getByTestId('skill-validate'));
    expect((await screen.findByTestId('skill-problem')).textContent).toContain('description: is required');

    fireEvent.click(screen.getByTestId('skill-cancel'));
    fireEvent.click(screen.getByTestId('skill-delete'));
    expect(server.calls.some((c) => c.route === 'skills.delete')).toBe(false);
    fireEvent.click(screen.getByTestId('skill-delete-confirm'));
    await eventually(() => expect(server.calls.find((c) => c.route === 'skills.delete')?.input).toEqual({ name: 'deploy-docs' }));
  });

  it('memory: budget bars per store; editing an entry replaces it by its old text', async () => {
    // Catches an edit sent as add (duplicating the entry) or the budget bar reading the wrong numbers.
    await renderApp({
      'memory.list': async () => [
        { target: 'memory' as const, entries: [{ index: 0, content: 'Project uses pnpm', id: 1, protected: false, author: 'agent' as const, via: 'tool' }], usedChars: 17, limitChars: 2200 },
        { target: 'user' as const, entries: [], usedChars: 0, limitChars: 1375 },
      ],
      'userModel.facts': async () => [{ id: 1, statement: 'Prefers TypeScript', category: 'preference', confidence: 0.8, status: 'active' as const, source: 'reflection' as const, evidence: [{ messageId: 9, sessionId: 's1', excerpt: 'I always use TS' }] }],
      'memory.replace': async () => ({ ok: true as const }),
      'memory.changes': async () => [],
      'pending.list': async () => [],
    });
    fireEvent.click(screen.getByTestId('nav-memory'));
    const meter = (await screen.findAllByTestId('memory-budget'))[0]?.querySelector('meter');
    expect([meter?.getAttribute('value'), meter?.getAttribute('max')]).toEqual(['17', '2200']);
    expect(screen.getByTestId('fact-evidence').textContent).toContain('I always use TS');
    fireEvent.click(screen.getByTestId('memory-edit'));
    fireEvent.change(screen.getByTestId('memory-edit-input'), { target: { value: 'Project uses pnpm 9' } });
    fireEvent.click(screen.getByTestId('memory-edit-save'));
    await eventually(() =>
      expect(server.calls.find((c) => c.route === 'memory.replace')?.input).toEqual({ target: 'memory', oldText: 'Project uses pnpm', content: 'Project uses pnpm 9' }),
    );
  });

  it('models: fit before download, then live progress from download events, pause, and a checksum error', async () => {
    // Catches progress that never moves (events ignored) or a failed download whose error is not shown.
    await renderApp({
      'models.list': async () => ({ files: [], curated: [], downloads: [] }),
      'models.fit': async () => ({ fits: true, placement: 'gpu' as const, requiredBytes: 5e9, availableBytes: 8e9, detail: 'all layers on GPU' }),
      'models.download': async () => download,
      'models.pause': async () => ({ ...download, state: 'paused' as const, receivedBytes: 500 }),
    });
    fireEvent.click(screen.getByTestId('nav-models'));
    fireEvent.change(screen.getByTestId('model-source'), { target: { value: 'http://127.0.0.1/m.gguf' } });
    fireEvent.click(screen.getByTestId('model-fit'));
    expect((await screen.findByTestId('model-fit-result')).dataset.placement).toBe('gpu');
    fireEvent.click(screen.getByTestId('model-download'));
    await screen.findByTestId('download');
    server.emit({ channel: 'download', download: { ...download, receivedBytes: 400, bytesPerSecond: 2048, etaSeconds: 5 } });
    await eventually(() => expect(screen.getByTestId('download-progress').getAttribute('value')).toBe('400'));
    expect(screen.getByTestId('download-speed').textContent).toContain('2.0 KB/s');
    fireEvent.click(screen.getByTestId('download-pause'));
    await eventually(() => expect(screen.getByTestId('download').dataset.state).toBe('paused'));
    server.emit({ channel: 'download', download: { ...download, state: 'failed', error: 'checksum mismatch: expected ab12…, got cd34…' } });
    expect((await screen.findByTestId('download-error')).textContent).toContain('checksum mismatch');
    // A failed download is offered again as "Try again", not "Resume": a checksum failure leaves nothing to resume.
    expect(screen.getByTestId('download-resume').textContent).toBe('Try again');
  });

  it('first run: onboarding until a provider, key and model are set, then the chat', async () => {
    // Catches a first run that dead-ends (no way to a working chat) or shows the chat with no model.
    const settings = sampleSettings();
    let hasKey = false;
    await renderApp({
      'app.status': async () => ({ ...sampleStatus(), needsSetup: !(hasKey && settings.defaultModel === 'openai:gpt-4o') }),
      'settings.get': async () => ({ ...settings, providers: settings.providers.map((p) => ({ ...p, hasKey })) }),
      'secrets.setApiKey': async () => {
        hasKey = true;
        return { stored: true as const };
      },
      'settings.update': async (patch) => {
        if (patch.defaultModel) settings.defaultModel = patch.defaultModel;
        return { ...settings, providers: settings.providers.map((p) => ({ ...p, hasKey })) };
      },
    });
    await screen.findByTestId('onboarding');
    fireEvent.click(screen.getByTestId('onboarding-cloud'));
    fireEvent.change(screen.getByTestId('provider-key-input'), { target: { value: 'sk-1' } });
    fireEvent.click(screen.getByTestId('provider-key-save'));
    await eventually(() => expect(screen.getByTestId('provider-has-key').textContent).toBe('Key in keychain'));
    fireEvent.change(screen.getByTestId('onboarding-model'), { target: { value: 'openai:gpt-4o' } });
    fireEvent.click(screen.getByTestId('onboarding-finish'));
    await screen.findByTestId('chat-view');
    expect(screen.queryByTestId('onboarding')).toBeNull();
  });
});
