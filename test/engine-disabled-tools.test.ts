import { afterEach, describe, expect, it } from 'vitest';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';

/**
 * Tool toggles in the app's settings (`tools.disabled`) reach the engine: a switched-off tool is not offered
 * to the model. Catches a setting that is saved to config.yaml but ignored when the engine starts.
 */
let harness: AppHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe('tools.disabled', () => {
  it('leaves switched-off tools out of the toolset and out of the model request', async () => {
    harness = await startAppHarness([{ text: 'ok' }], { configExtra: 'tools:\n  disabled: [terminal, web_search_does_not_exist]\n' });
    const names = harness.engine.tools.offered.list().map((tool) => tool.name);
    expect(names).not.toContain('terminal');
    expect(names).toContain('read_file');

    const { sessionId } = await harness.service.handlers['chat.start']({});
    await harness.service.handlers['chat.send']({ sessionId, text: 'hello', attachments: [] });
    await expect.poll(() => harness?.server.requests.length ?? 0).toBe(1);
    const offered = (harness.server.requests[0] as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name) ?? [];
    expect(offered).toContain('read_file');
    expect(offered).not.toContain('terminal');
  });

  // Catches a toggle that waits for a restart, or one that changes the tools of a session already under way
  // (its cached prompt and tool schemas must stay byte-identical).
  it('a toggle in settings applies to sessions started after it; open sessions keep their tools', async () => {
    harness = await startAppHarness([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const offered = (index: number) => (harness?.server.requests[index] as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name) ?? [];
    const send = async (sessionId: string, count: number) => {
      await harness?.service.handlers['chat.send']({ sessionId, text: 'hello', attachments: [] });
      await expect.poll(() => harness?.server.requests.length ?? 0).toBe(count);
      await expect.poll(() => harness?.engine.sessions.host.isRunning(sessionId)).toBe(false);
    };
    const before = (await harness.service.handlers['chat.start']({})).sessionId;
    await send(before, 1);
    expect(offered(0)).toContain('terminal');

    await harness.service.handlers['settings.update']({ disabledTools: ['terminal'] });
    const after = (await harness.service.handlers['chat.start']({})).sessionId;
    await send(after, 2);
    expect(offered(1)).not.toContain('terminal');
    await send(before, 3);
    expect(offered(2)).toContain('terminal');
    expect((await harness.service.handlers['settings.get']({})).tools.find((t) => t.name === 'terminal')?.enabled).toBe(false);
  });

  it('is listed as off in settings and can be switched back on', async () => {
    harness = await startAppHarness([], { configExtra: 'tools:\n  disabled: [terminal]\n' });
    const settings = await harness.service.handlers['settings.get']({});
    expect(settings.tools.find((tool) => tool.name === 'terminal')?.enabled).toBe(false);
  });
});
