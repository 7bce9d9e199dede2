import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/core/safety/approvals/detector.js';
import type { ScriptedTurn } from '../fixtures/scripted-turns.js';
import { screenshot, startWebApp, waitForApp, type WebApp } from '../fixtures/web-app.js';
import { WebClient } from '../fixtures/web-client.js';

/**
 * Approvals a user can always answer, in Chromium against the real `hearth serve`: the question belongs to the
 * engine, so a reloaded page and a second tab show it and can answer it; the first answer wins and the other
 * tab's dialog closes; a late answer is refused; the tool card says "waiting for you" while it waits, and a
 * denied or timed-out call still reads as such when the session is reopened in a fresh page.
 */
interface WireMessage {
  role: string;
  content: string | null;
}

/** Victims live outside the workspace: deleting inside it is routine and would not ask. */
let outside = '';
const victim = (name: string) => join(outside, name);

/** "clean up <name>" deletes that victim; after the tool result the model answers in words. */
function script(body: unknown): ScriptedTurn {
  const last = (body as { messages: WireMessage[] }).messages.at(-1);
  if (last?.role === 'tool') return { text: `The tool answered: ${String(last.content).slice(0, 80)}` };
  const name = /clean up (\w+)/.exec(last?.content ?? '')?.[1];
  return name === undefined ? { text: 'ok' } : { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim(name)}` } }] };
}

function makeVictim(name: string): string {
  const dir = victim(name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'keep.txt'), 'precious');
  return dir;
}

const card = (page: Page) => page.locator('[data-testid="tool-card"][data-tool="terminal"]').last();
const idle = (page: Page) => page.locator('[data-testid="chat-view"][data-phase="idle"]').waitFor({ timeout: 30_000 });

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('send').click();
}

/** A fresh page load (nothing kept in memory), then the stored session opened from the list. */
async function reopenFresh(app: WebApp, page: Page, title: string): Promise<void> {
  await page.goto(app.url);
  await waitForApp(page);
  await page.getByTestId('nav-sessions').click();
  await page.getByTestId('session-item').filter({ hasText: title }).getByTestId('session-open').click();
  await page.locator('[data-testid="message"][data-role="user"]', { hasText: title }).waitFor();
}

/**
 * A delete outside the workspace is never undone by the workspace's snapshot: the dialog must say "cannot be
 * undone" (the detector's flag, or the engine's folder check where the detector has none yet), never offer /rollback.
 */
function expectedUndo(app: WebApp, command: string): 'none' {
  expect(classifyCommand(command, { workspace: app.workspace, cwd: app.workspace, home: app.env.HOME as string, hearthHome: app.home }).irreversible).not.toBe(false);
  return 'none';
}

beforeAll(() => {
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-e2e-approvals-')));
});
afterAll(() => {
  rmSync(outside, { recursive: true, force: true });
});

describe('an approval survives a reload and is shared by every tab', () => {
  let app: WebApp;
  let page: Page;
  beforeAll(async () => {
    app = await startWebApp({ script });
    page = app.page;
  });
  afterAll(async () => {
    await app?.close();
  });

  // Catches the question living in the page: after a reload the dialog was gone and the command timed out
  // unseen. Also catches the card saying "running" while the agent waits for the user.
  it('reload: the dialog and the waiting card come back, and answering runs the command to "done"', async () => {
    const dir = makeVictim('alpha');
    await send(page, 'clean up alpha');
    const modal = page.getByTestId('approval-modal');
    await modal.waitFor({ timeout: 20_000 });
    await expect.poll(() => card(page).getAttribute('data-state')).toBe('waiting');
    expect(await card(page).getByTestId('tool-state').textContent()).toContain('waiting for you');
    expect(await page.getByTestId('approval-undo').getAttribute('data-undo')).toBe(expectedUndo(app, `rm -rf ${dir}`));
    const id = await modal.getAttribute('data-approval-id');

    await page.reload();
    await waitForApp(page);
    await modal.waitFor({ timeout: 20_000 });
    expect(await modal.getAttribute('data-approval-id')).toBe(id);
    expect(await modal.getByTestId('approval-command').textContent()).toBe(`rm -rf ${dir}`);
    // The reloaded page is back in the conversation that waits, with its card waiting.
    await page.locator('[data-testid="message"][data-role="user"]', { hasText: 'clean up alpha' }).waitFor();
    await expect.poll(() => card(page).getAttribute('data-state')).toBe('waiting');
    expect(await page.getByTestId('chat-view').getAttribute('data-phase')).toBe('waiting-for-user');
    await screenshot(page, 'approval-after-reload');

    await modal.getByTestId('approval-once').click();
    await modal.waitFor({ state: 'detached' });
    await idle(page);
    await expect.poll(() => card(page).getAttribute('data-state')).toBe('done');
    expect(await card(page).getByTestId('tool-note').textContent()).toContain('once');
    expect(existsSync(dir)).toBe(false);
  });

  // Catches two tabs that each think they own the question (both answers applied, or tab 1 left with a dialog
  // for a question already decided), and a late answer accepted.
  it('second tab: both show the dialog; answering in tab 2 closes tab 1; a late answer is refused; reopened, the card says denied', async () => {
    const dir = makeVictim('beta');
    await send(page, 'clean up beta');
    const modalOne = page.getByTestId('approval-modal');
    await modalOne.waitFor({ timeout: 20_000 });
    const id = await modalOne.getAttribute('data-approval-id');

    const { page: tabTwo } = await app.openPage(app.url);
    await waitForApp(tabTwo);
    const modalTwo = tabTwo.getByTestId('approval-modal');
    await modalTwo.waitFor({ timeout: 20_000 });
    expect(await modalTwo.getAttribute('data-approval-id')).toBe(id);
    await screenshot(tabTwo, 'approval-second-tab');

    await modalTwo.getByTestId('approval-deny').click();
    await modalTwo.waitFor({ state: 'detached' });
    await modalOne.waitFor({ state: 'detached', timeout: 10_000 });
    // Tab 1's answer, arriving after tab 2's: refused, not applied.
    const { port, searchParams } = new URL(app.url);
    const lateTab = await WebClient.connect(`ws://127.0.0.1:${port}/ws?token=${searchParams.get('token')}`, { origin: app.origin });
    try {
      await expect(lateTab.ok('approvals.answer', { id, choice: 'once' })).resolves.toEqual({ accepted: false });
    } finally {
      await lateTab.close();
    }
    for (const tab of [page, tabTwo]) {
      await idle(tab);
      await expect.poll(() => card(tab).getAttribute('data-state')).toBe('denied');
    }
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
    await tabTwo.close();

    await reopenFresh(app, page, 'clean up beta');
    await expect.poll(() => card(page).getAttribute('data-state')).toBe('denied');
    expect(await card(page).getByTestId('tool-note').textContent()).toContain('deny');
    await screenshot(page, 'approval-denied-reopened');
  });
});

describe('an approval nobody answers', () => {
  let app: WebApp;
  beforeAll(async () => {
    app = await startWebApp({ script, approvalTimeoutS: 4 });
  });
  afterAll(async () => {
    await app?.close();
  });

  // Catches a timeout that denies in the engine while a tab still offers "Allow", a tab that loses the dialog
  // without a word, and a timed-out call stored as done.
  it('times out: every tab shows it was denied, the command never runs, and the reopened card says timed out', async () => {
    const page = app.page;
    const dir = makeVictim('gamma');
    await send(page, 'clean up gamma');
    await page.getByTestId('approval-modal').waitFor({ timeout: 20_000 });
    const { page: tabTwo } = await app.openPage(app.url);
    await waitForApp(tabTwo);
    await tabTwo.getByTestId('approval-modal').waitFor({ timeout: 20_000 });

    for (const tab of [page, tabTwo]) {
      await tab.getByTestId('approval-timed-out').waitFor({ timeout: 20_000 });
      expect(await tab.getByTestId('approval-once').count()).toBe(0);
    }
    await idle(page);
    await expect.poll(() => card(page).getAttribute('data-state')).toBe('timed_out');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
    // The timed-out dialog stays until dismissed, so nobody misses that it failed closed.
    await page.getByTestId('approval-dismiss').click();
    await page.getByTestId('approval-modal').waitFor({ state: 'detached' });
    await tabTwo.close();

    await reopenFresh(app, page, 'clean up gamma');
    await expect.poll(() => card(page).getAttribute('data-state')).toBe('timed_out');
    expect(await card(page).getByTestId('tool-state').textContent()).toContain('timed out');
    await screenshot(page, 'approval-timed-out-reopened');
  });
});
