import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import { Gateway } from '../src/core/gateway/gateway.js';
import { GatewayStore } from '../src/core/gateway/gateway-store.js';
import { createTelegramAdapter } from '../src/core/gateway/platforms/telegram.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { lastRole } from './fixtures/gateway/harness.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';
import { alice, aliceDm, startFakeTelegram, waitFor, type FakeTelegram } from './fixtures/telegram-bot-api-server.js';

/**
 * End to end: a Telegram DM through grammY and the Bot API server fixture, the real Gateway and engine (encrypted
 * store, terminal tool, approval broker) and a scripted model, and back. The model wants to delete a folder
 * outside the workspace: the approval appears in the chat as an inline keyboard, nothing runs until Alice presses
 * Approve, the press is answered, the question is edited to say how it was answered, and the reply arrives.
 */
let fake: FakeTelegram | undefined;
let server: ScriptedServer | undefined;
let engine: Engine | undefined;
let gateway: Gateway | undefined;
const folders: string[] = [];

afterEach(async () => {
  await gateway?.stop();
  await engine?.dispose();
  await server?.close();
  await fake?.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Telegram through the gateway', () => {
  it('answers a DM, with an approval asked and answered by inline button', async () => {
    const parent = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-tg-victim-')));
    folders.push(parent);
    const victim = join(parent, 'victim');
    mkdirSync(victim);
    server = await startScriptedOpenAIServer((request: unknown) => {
      if (lastRole(request) !== 'tool') return { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] };
      return { text: 'done: the folder is gone' };
    });
    fake = await startFakeTelegram();
    const env: NodeJS.ProcessEnv = freshHomeEnv({ TG_TOKEN: fake.token });
    const home = env.HEARTH_HOME as string;
    const workspace = join(realpathSync(home), 'gateway-workspace');
    mkdirSync(workspace);
    writeFileSync(join(home, 'config.yaml'),
      `version: 1\nmodel:\n  default: "scripted:model"\nproviders:\n  scripted: { type: openai, base_url: "${server.url}", context_length: 32768 }\n` +
      `review:\n  enabled: false\nuser_model:\n  enabled: false\napprovals:\n  timeout_s: 20\n` +
      `gateway:\n  telegram:\n    token_env: TG_TOKEN\n    api_root: "${fake.apiRoot}"\n    allowed_users: [${alice.id}]\n`);
    const warnings: string[] = [];
    engine = await openEngine({ env, workspace, userHome: join(home, 'user-home'), onWarning: (m) => warnings.push(m) });
    const store = new GatewayStore(engine.sessions.store.db);
    const adapter = createTelegramAdapter({ token: fake.token, apiRoot: fake.apiRoot, pollTimeoutS: 1 }, Gateway.adapterContext(store, 'telegram', (m) => warnings.push(m)));
    gateway = new Gateway({ engine, store, adapters: [adapter], warn: (m) => warnings.push(m), onState: () => undefined, stopGraceMs: 10_000 });
    await gateway.start();

    fake.pushMessage(aliceDm, alice, 'clean up that folder');
    const question = await waitFor(() => fake!.sent(111).find((m) => m.text?.includes('wants to run')), 'the approval question', 20_000);
    expect(question.text).toContain(`rm -rf ${victim}`);
    const keyboard = (question.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] }).inline_keyboard.flat();
    const approveOnce = keyboard.find((b) => /^approve:.+:once$/.test(b.callback_data));
    expect(approveOnce).toBeDefined();
    expect(keyboard.some((b) => b.callback_data.startsWith('deny:'))).toBe(true);
    // Waiting for the button: nothing ran yet.
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(victim)).toBe(true);

    const query = fake.pushPress(aliceDm, alice, question.message_id, approveOnce!.callback_data);
    await waitFor(() => fake!.sent(111).some((m) => m.text === 'done: the folder is gone'), 'the reply', 20_000);
    expect(existsSync(victim)).toBe(false);
    expect(fake.answeredQueries.has(query)).toBe(true);
    const answered = fake.sent(111).find((m) => m.message_id === question.message_id);
    expect(answered?.text).toContain('Allowed (once)');
    expect(answered?.reply_markup).toBeUndefined();
    expect(warnings.filter((w) => w.includes('telegram'))).toEqual([]);
  });
});
