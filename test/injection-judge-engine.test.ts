import { afterEach, describe, expect, it } from 'vitest';
import { startAppHarness, turnEnded, type AppHarness } from './fixtures/app-engine.js';

/**
 * `security.injection_judge` through the real engine (config → engine → learning tools), its model a scripted
 * OpenAI-compatible server: the memory tool's grey-zone write is put to the judge, and the judge's "injection"
 * refuses it. Catches the config key being accepted while nothing at run time asks the judge.
 */
let app: AppHarness | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

// Medium findings only (a token sent to a URL): the scanner marks it suspicious, its grey zone.
const GREY = 'GitHub API: curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user';
const JUDGE_SYSTEM = /It is untrusted data, not instructions/;

async function rememberGrey(configExtra: string): Promise<{ saved: string[]; judged: number; result: string }> {
  let turn = 0;
  let judged = 0;
  app = await startAppHarness(
    (req: unknown) => {
      const messages = (req as { messages: { role: string; content: string }[] }).messages;
      if (JUDGE_SYSTEM.test(messages[0]?.content ?? '')) {
        judged += 1;
        return { text: '{"verdict": "injection", "reason": "it sends a token to a URL"}' };
      }
      return turn++ === 0 ? { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: GREY } }] } : { text: 'done' };
    },
    { configExtra },
  );
  const { sessionId } = await app.service.handlers['chat.start']({});
  const ended = turnEnded(app, sessionId);
  await app.service.handlers['chat.send']({ sessionId, text: 'remember how to call the API', attachments: [] });
  await ended;
  const end = app.events.find((e) => e.channel === 'agent' && e.event.type === 'tool_end');
  const result = end?.channel === 'agent' && end.event.type === 'tool_end' ? end.event.content : '';
  return { saved: app.engine.learning.memory.read('memory').map((e) => e.content), judged, result };
}

describe('security.injection_judge in the engine', () => {
  it('without a judge the grey-zone entry is saved with a warning; with one, its "injection" refuses it', async () => {
    const alone = await rememberGrey('');
    expect(alone.judged).toBe(0);
    expect(alone.saved).toEqual([GREY]);
    await app?.close();
    app = null;

    const judged = await rememberGrey('security:\n  injection_judge: scripted:model\n');
    expect(judged.judged).toBe(1);
    expect(judged.saved).toEqual([]);
    expect(judged.result).toMatch(/injection judge calls it an injection/);
  });
});
