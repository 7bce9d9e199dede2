import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../fixtures/scripted-turns.js';
import { screenshot, startWebApp, type WebApp } from '../fixtures/web-app.js';

/**
 * The learning journal in Chromium against `hearth serve`: a background review whose only write was refused
 * (the model then claims it saved) shows in the Learning tab as "could not save" with the tool's reason, and
 * the same run is in `hearth learning log --json` on that home.
 */
interface WireMessage {
  role: string;
  content: string | null;
}

function script(body: unknown): ScriptedTurn {
  const messages = (body as { messages: WireMessage[] }).messages;
  const review = messages.some((m) => m.role === 'user' && m.content?.includes('[Background review]'));
  if (!review) return { text: 'The docs are deployed.' };
  if (messages.at(-1)?.role === 'tool') return { text: 'Saved the improved deploy steps.' };
  return { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: 'deploy-docs', old_string: 'step 1', new_string: 'step one' } }] };
}

let app: WebApp;
let page: Page;
beforeAll(async () => {
  app = await startWebApp({ script, memoryReviewEvery: 1 });
  page = app.page;
});
afterAll(async () => {
  await app?.close();
});

describe('the Learning tab', () => {
  // Catches a refused review reported as "nothing to save", and a failure that reached only a live surface.
  it('lists a review whose write was refused, with the reason, as the journal recorded it', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('composer-input').fill('Deploy the docs the usual way.');
    await page.getByTestId('send').click();
    await page.locator('[data-testid="chat-view"][data-phase="idle"]').waitFor({ timeout: 20_000 });

    await page.getByTestId('nav-learning').click();
    const refused = page.locator('[data-testid="learning-run"][data-outcome="refused"]');
    // The review runs in the background after the turn: refresh until the journal has it.
    await expect
      .poll(async () => {
        await page.getByTestId('learning-refresh').click();
        return refused.count();
      }, { timeout: 20_000 })
      .toBe(1);
    expect(await refused.getAttribute('data-kind')).toBe('memory_review');
    expect(await refused.getByTestId('learning-run-outcome').textContent()).toBe('could not save');
    expect(await refused.getByTestId('learning-run-reason').textContent()).toMatch(/skill_manage refused: .*deploy-docs/);
    await screenshot(page, 'learning-refused');

    const log = await app.hearth(['learning', 'log', '--json']);
    expect(log.code, log.stderr).toBe(0);
    const runs = JSON.parse(log.stdout) as { kind: string; outcome: string }[];
    expect(runs.filter((r) => r.kind === 'memory_review')).toEqual([expect.objectContaining({ outcome: 'refused' })]);
  });
});
