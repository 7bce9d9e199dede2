// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import { StreamingMarkdown } from '../../src/renderer/markdown/Markdown.js';
import { startContractServer, type ContractServer } from './fixtures/contract-server.js';
import { sampleSettings, sampleStatus } from './fixtures/sample-views.js';

/** The streaming answer's rendering: what a frame re-renders, and what it leaves alone. */
let server: ContractServer;
let api: WebSocketHearthApi;
let services: Services;

beforeAll(async () => {
  server = await startContractServer({ 'settings.get': async () => sampleSettings(), 'app.status': async () => sampleStatus() });
  api = webSocketApi(server.location);
  services = createServices(api);
});
afterEach(cleanup);
afterAll(async () => {
  services.dispose();
  api.close();
  await server.close();
});

const closedPart = `Setup first.\n\n\`\`\`ts\nconst port = 8080;\n\`\`\`\n\n${'More prose about the build. '.repeat(60)}\n\n`;
const tail = 'Then run:\n\n```ts\nconst answer = 4';

function renderStreaming(text: string) {
  return render(
    <ServicesProvider services={services}>
      <StreamingMarkdown text={text} />
    </ServicesProvider>,
  );
}

describe('StreamingMarkdown', () => {
  it('highlights closed chunks and leaves the growing tail plain', () => {
    // Catches the tail being highlighted every frame (wasted work), or closed chunks never getting highlighted.
    const { container } = renderStreaming(closedPart + tail);
    const chunks = container.querySelectorAll('.markdown-stream > .markdown');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[0]?.querySelector('code .hljs-keyword')?.textContent).toBe('const');
    const last = chunks[chunks.length - 1];
    expect(last?.querySelector('code')?.textContent).toContain('const answer = 4');
    expect(last?.querySelector('.hljs-keyword')).toBeNull();
  });

  it('keeps the DOM of closed chunks as the text grows', () => {
    // Catches closed chunks re-rendering every frame (innerHTML replaced: the whole answer re-parsed and laid out again).
    const view = renderStreaming(closedPart + tail);
    const firstCode = view.container.querySelector('.markdown-stream > .markdown code');
    view.rerender(
      <ServicesProvider services={services}>
        <StreamingMarkdown text={`${closedPart}${tail}2;\n`} />
      </ServicesProvider>,
    );
    expect(view.container.querySelector('.markdown-stream > .markdown code')).toBe(firstCode);
    expect(view.container.textContent).toContain('const answer = 42;');
  });
});
