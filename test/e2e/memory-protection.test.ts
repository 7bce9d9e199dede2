import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startWebApp, type WebApp } from '../fixtures/web-app.js';
import type { ScriptedTurn } from '../fixtures/scripted-turns.js';

/**
 * Protected memory entries and undo, in Chromium against `hearth serve` (issue 11): an entry the user adds
 * is theirs, the agent's attempt to remove it waits in the Memory tab, a removal the agent did make is named
 * in the chat with an Undo that really puts the entry back, and the protect toggle reaches the store. Each
 * step is checked where it lives, with the real CLI on the same home.
 */

const RULE = 'Standing rule: reply in British English.';
const NOTE = 'Build the project with make release.';

interface WireMessage {
  role: string;
  content: string | null;
}

/** "Tidy up my memory": the agent saves a note, tries to drop the user's rule, then drops its own note. */
function tidyUp(body: unknown): ScriptedTurn {
  const messages = (body as { messages: WireMessage[] }).messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const step = messages.slice(lastUser).filter((m) => m.role === 'tool').length;
  const steps: ScriptedTurn[] = [
    { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: NOTE } }] },
    { toolCalls: [{ name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'British English' } }] },
    { toolCalls: [{ name: 'memory', arguments: { action: 'remove', target: 'memory', old_text: 'make release' } }] },
    { text: 'Tidied up.' },
  ];
  return steps[step] ?? { text: 'Done.' };
}

interface Item {
  content: string;
  protected: boolean;
}

let app: WebApp;
let page: Page;
beforeAll(async () => {
  app = await startWebApp({ script: tidyUp });
  page = app.page;
});
afterAll(async () => {
  await app?.close();
});

async function stored(): Promise<{ memory: Item[]; user: Item[] }> {
  const result = await app.hearth(['memory', 'show', '--json']);
  expect(result.code, result.stderr).toBe(0);
  const view = JSON.parse(result.stdout) as { memory: { items: Item[] }; user: { items: Item[] } };
  const pick = (items: Item[]) => items.map(({ content, protected: p }) => ({ content, protected: p }));
  return { memory: pick(view.memory.items), user: pick(view.user.items) };
}

describe('protected memory entries in the app', () => {
  it('an entry the user adds is protected; the agent can only propose removing it; its own removal is named with a working Undo', async () => {
    await page.getByTestId('nav-memory').click();
    const user = page.locator('[data-testid="memory-store"][data-target="user"]');
    await user.waitFor();
    await user.getByTestId('memory-add-input').fill(RULE);
    await user.getByTestId('memory-add').click();
    await user.getByTestId('memory-protected-badge').waitFor();
    expect((await stored()).user).toEqual([{ content: RULE, protected: true }]);

    await page.getByTestId('nav-chat').click();
    await page.getByTestId('composer-input').fill('Tidy up my memory, please.');
    await page.getByTestId('send').click();
    await page.locator('[data-testid="chat-view"][data-phase="idle"]').waitFor({ timeout: 30_000 });
    const notices = page.locator('[data-testid="notice"][data-kind="learning"]');
    await expect.poll(() => notices.allTextContents()).toEqual([
      `Added to memory: '${NOTE}'`,
      `Not removed, waiting for your approval (#1): the agent wants to remove from user profile (protected): '${RULE}'`,
      `Removed from memory: '${NOTE}' Undo`,
    ]);
    expect((await stored()).user).toEqual([{ content: RULE, protected: true }]);
    expect((await stored()).memory).toEqual([]);
    await screenshot(page, 'memory-removal-with-undo');

    await notices.last().getByTestId('notice-undo').click();
    await expect.poll(() => notices.last().getByTestId('notice-undone').textContent()).toContain(`Restored to memory: '${NOTE}'`);
    expect((await stored()).memory).toEqual([{ content: NOTE, protected: true }]);

    // The Memory tab: the proposal waits there, the undone change is listed, the toggle reaches the store.
    await page.getByTestId('nav-memory').click();
    const proposal = page.getByTestId('pending-change');
    await expect.poll(() => proposal.textContent()).toContain(`remove from user profile (protected): '${RULE}'`);
    await expect.poll(() => page.getByTestId('memory-change').getAttribute('data-undone')).toBe('true');
    await screenshot(page, 'memory-protected-and-pending');
    await proposal.getByTestId('pending-reject').click();
    await expect.poll(() => page.getByTestId('pending-change').count()).toBe(0);
    expect((await stored()).user).toEqual([{ content: RULE, protected: true }]);

    const memory = page.locator('[data-testid="memory-store"][data-target="memory"]');
    const toggle = memory.getByTestId('memory-protect');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    expect((await stored()).memory).toEqual([{ content: NOTE, protected: false }]);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    expect((await stored()).memory).toEqual([{ content: NOTE, protected: true }]);
    expect(await page.getByTestId('memory-error').count()).toBe(0);
    expect(app.watch.errors).toEqual([]);
  });
});
