// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { copyText } from '../../src/renderer/api/shell-api.js';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import { followShellLinks } from '../../src/renderer/app/shell-links.js';
import { QuickPrompt } from '../../src/renderer/quick-prompt/QuickPrompt.js';
import type { RouteHandlers } from '../../src/shared/contract.js';
import type { HearthShellApi, ShellEvent } from '../../src/shared/shell-contract.js';
import { eventually, startContractServer, type ContractServer } from './fixtures/contract-server.js';
import { sampleSettings, sampleStatus } from './fixtures/sample-views.js';

/**
 * The quick-prompt window and the shell's links into the main window. The engine side is a real contract
 * server; the Electron shell cannot run here, so `window.hearthShell` is a recording stand-in with the
 * preload's interface (test/main/preload.test.ts covers the real preload object).
 */
let server: ContractServer;
let api: WebSocketHearthApi;
let services: Services;

function recordingShell(): { shell: HearthShellApi; calls: [string, unknown][]; emit(event: ShellEvent): void } {
  const calls: [string, unknown][] = [];
  const listeners = new Set<(event: ShellEvent) => void>();
  const shell: HearthShellApi = {
    invoke: async (route, input) => {
      calls.push([route, input]);
      return (route === 'external.open' ? { opened: true } : { ok: true }) as never;
    },
    onShellEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { shell, calls, emit: (event) => listeners.forEach((l) => l(event)) };
}

async function start(handlers: Partial<RouteHandlers>) {
  server = await startContractServer({ 'settings.get': async () => sampleSettings(), 'app.status': async () => sampleStatus(), ...handlers });
  api = webSocketApi(server.location);
  services = createServices(api);
}

afterEach(async () => {
  cleanup();
  delete window.hearthShell;
  services.dispose();
  api.close();
  await server.close();
});

describe('quick prompt', () => {
  // Catches a quick prompt that cannot ask, cannot hand its conversation to the main window, or cannot be hidden.
  it('asks, then continues the same session in the main window; Escape hides it', async () => {
    const sent: unknown[] = [];
    await start({
      'chat.start': async () => ({ sessionId: 'q1' }),
      'chat.send': async (input) => {
        sent.push(input);
        return { ok: true };
      },
    });
    const { shell, calls, emit } = recordingShell();
    render(
      <ServicesProvider services={services}>
        <QuickPrompt shell={shell} />
      </ServicesProvider>,
    );
    const input = screen.getByTestId('quick-prompt-input');
    fireEvent.change(input, { target: { value: 'what time is it in Tokyo?' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await eventually(() => expect(sent).toEqual([{ sessionId: 'q1', text: 'what time is it in Tokyo?', attachments: [] }]));

    fireEvent.click(screen.getByTestId('quick-prompt-continue'));
    await eventually(() => expect(calls).toContainEqual(['quickPrompt.continueInMain', { sessionId: 'q1' }]));

    fireEvent.keyDown(input, { key: 'Escape' });
    await eventually(() => expect(calls).toContainEqual(['quickPrompt.hide', {}]));

    (input as HTMLTextAreaElement).blur();
    emit({ type: 'quick_prompt_shown' });
    expect(document.activeElement).toBe(input);
  });
});

describe('shell links into the main window', () => {
  // Catches a main window that ignores the session the shell asked it to show.
  it('opens ?session=<id> at start and the session of each open_session event', async () => {
    const opened: string[] = [];
    await start({
      'sessions.open': async ({ sessionId }) => {
        opened.push(sessionId);
        return {
          session: { id: sessionId, title: null, source: 'desktop', model: 'm', parentSessionId: null, startedAt: 0, updatedAt: 0, messageCount: 0, inputTokens: 0, outputTokens: 0, lastError: null, hasReply: false },
          messages: [],
        };
      },
    });
    const { shell, emit } = recordingShell();
    services.nav.getState().go('skills');
    followShellLinks(services, shell, '?session=s7');
    await eventually(() => expect(opened).toEqual(['s7']));
    expect(services.nav.getState().view).toBe('chat');
    emit({ type: 'open_session', sessionId: 's8' });
    await eventually(() => expect(opened).toEqual(['s7', 's8']));
  });

  // Catches copy buttons that call the Clipboard API in the desktop app, where the page's permission is denied.
  it('copies through the shell when there is one', async () => {
    await start({});
    const { shell, calls } = recordingShell();
    window.hearthShell = shell;
    await copyText('npm test');
    expect(calls).toEqual([['clipboard.writeText', { text: 'npm test' }]]);
  });
});
