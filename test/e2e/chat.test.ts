import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../fixtures/scripted-turns.js';
import { screenshot, startWebApp, waitForApp, type WebApp } from '../fixtures/web-app.js';

/**
 * Chat in Chromium against `hearth serve`: a streamed answer, its session in the store, a flagged
 * terminal command that runs only when the user approves it in the modal, and search over past sessions.
 */
const ANSWER = 'Auroras glow when charged particles from the solar wind strike oxygen and nitrogen high in the atmosphere.';
const KESTREL_ANSWER = 'A kestrel hovers by flying into the wind at exactly its own airspeed, head perfectly still.';
let victim = '';
let victimParent = '';

interface WireMessage {
  role: string;
  content: string | null;
}

function script(body: unknown): ScriptedTurn {
  const messages = (body as { messages: WireMessage[] }).messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') return { text: `The tool answered: ${String(last.content).slice(0, 120)}` };
  if (last?.content?.includes('kestrel')) return { text: KESTREL_ANSWER };
  if (last?.content?.includes('clean up')) return { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] };
  if (last?.content?.includes('please fail')) return { status: 400, errorMessage: 'the scripted model refuses this one' };
  return { text: ANSWER };
}

let app: WebApp;
let page: Page;
beforeAll(async () => {
  // 30 ms between writes: about two seconds for the answer, slow enough to watch it grow.
  app = await startWebApp({ script, scripted: { writeDelayMs: 30 } });
  page = app.page;
  // Outside the workspace: deleting inside it is everyday work the detector lets through.
  victimParent = mkdtempSync(join(tmpdir(), 'hearth-e2e-outside-'));
  victim = join(victimParent, 'victim');
});
afterAll(async () => {
  await app?.close();
  rmSync(victimParent, { recursive: true, force: true });
});

async function send(text: string): Promise<void> {
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('send').click();
}

const lastAssistant = () => page.locator('[data-testid="message"][data-role="assistant"]').last();
const idle = () => page.locator('[data-testid="chat-view"][data-phase="idle"]').waitFor({ timeout: 20_000 });

describe('a chat turn in the browser', () => {
  // Catches an answer shown only once complete (events batched to the end, or the socket buffering them),
  // and a conversation that lives only in the page instead of the encrypted store.
  it('streams the answer into the page while it is written, then finds the session in the store', async () => {
    // Every text the streaming message showed, recorded in the page as the DOM changes.
    await page.evaluate(`
      window.__seen = [];
      new MutationObserver(() => {
        const live = document.querySelector('[data-testid="message"][data-role="assistant"][data-streaming="true"]');
        const text = live ? live.textContent : '';
        if (text && window.__seen.at(-1) !== text) window.__seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    `);
    await send('Why do auroras glow?');
    await page.locator('[data-testid="message"][data-role="assistant"][data-streaming="true"]').waitFor({ timeout: 15_000 });
    await page.getByTestId('chat-view').and(page.locator('[data-phase="streaming"]')).waitFor();
    await screenshot(page, 'chat-streaming');
    await idle();
    await expect.poll(async () => (await lastAssistant().textContent())?.trim()).toBe(ANSWER);
    expect(await lastAssistant().getAttribute('data-streaming')).toBeNull();
    const seen = await page.evaluate<string[]>('window.__seen');
    const partial = seen.filter((text) => text.length < ANSWER.length && ANSWER.startsWith(text.trim()));
    expect(partial.length, `texts seen while streaming: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'chat-streamed');

    // A reload drops everything the page held; the session must come back from the store.
    await page.reload();
    await waitForApp(page);
    await page.getByTestId('nav-sessions').click();
    const item = page.getByTestId('session-item');
    await expect.poll(() => item.count()).toBe(1);
    await item.getByTestId('session-open').click();
    await page.locator('[data-testid="message"][data-role="user"]', { hasText: 'Why do auroras glow?' }).waitFor();
    await expect.poll(async () => (await lastAssistant().textContent())?.trim()).toBe(ANSWER);
    const stored = JSON.parse((await app.hearth(['sessions', 'list', '--json'])).stdout) as { source: string; messageCount?: number }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]?.source).toBe('web');
  });
});

describe('approving a flagged terminal command', () => {
  // The safety promise of the app: `rm -rf` must not run unless the user approves it, and the modal must
  // show what will run and why it was flagged.
  it('deny leaves the directory alone and the tool card reports the refusal; approve once removes it', async () => {
    mkdirSync(victim);
    writeFileSync(join(victim, 'keep.txt'), 'precious');
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await send('please clean up the victim folder');

    const modal = page.getByTestId('approval-modal');
    await modal.waitFor({ timeout: 20_000 });
    expect(await modal.getByTestId('approval-command').textContent()).toBe(`rm -rf ${victim}`);
    expect((await modal.getByTestId('approval-reasons').locator('li').allTextContents()).join(' ')).not.toBe('');
    expect(await modal.getByTestId('approval-countdown').textContent()).toMatch(/\d+/);
    expect(await page.getByTestId('chat-view').getAttribute('data-phase')).toBe('waiting-for-user');
    await screenshot(page, 'approval-modal');
    await modal.getByTestId('approval-deny').click();
    await modal.waitFor({ state: 'detached' });
    await idle();
    const deniedCard = page.locator('[data-testid="tool-card"][data-tool="terminal"]').last();
    // A refusal is not a failure of the tool: the card says denied (and keeps saying it after a reopen: approvals.test.ts).
    expect(await deniedCard.getAttribute('data-state')).toBe('denied');
    expect(await deniedCard.getByTestId('tool-result').textContent()).toContain('denied');
    expect(existsSync(join(victim, 'keep.txt'))).toBe(true);
    await screenshot(page, 'approval-denied');

    await send('clean up again, I approve this time');
    await modal.waitFor({ timeout: 20_000 });
    await modal.getByTestId('approval-once').click();
    await modal.waitFor({ state: 'detached' });
    await idle();
    const approvedCard = page.locator('[data-testid="tool-card"][data-tool="terminal"]').last();
    expect(await approvedCard.getAttribute('data-state')).toBe('done');
    expect(existsSync(victim)).toBe(false);
    await screenshot(page, 'approval-approved');
  });
});

describe('searching sessions', () => {
  // Catches search that misses stored messages, a snippet taken from another message of the session,
  // snippets without the highlighted match (or with the server's markers shown raw), and a result that
  // opens some other conversation.
  it('finds a word from an earlier chat, highlights it in the snippet, and opens that conversation', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await send('How does a kestrel hover?');
    await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'airspeed' }).waitFor({ timeout: 20_000 });
    await idle();
    await page.getByTestId('new-chat').click();

    await page.getByTestId('nav-sessions').click();
    await page.getByTestId('session-search').fill('kestrel');
    await page.getByTestId('session-search-submit').click();
    const results = page.getByTestId('search-result');
    await results.first().waitFor();
    const marks = await page.locator('[data-testid="search-snippet"] mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    for (const mark of marks) expect(mark.toLowerCase()).toBe('kestrel');
    const snippets = (await page.getByTestId('search-snippet').allTextContents()).join(' ');
    expect(snippets).not.toMatch(/[\uE000\uE001]/);
    // Each snippet comes from its own message: the answer's shows the answer, not the question.
    const answerHit = results.filter({ hasText: '· assistant ·' });
    expect(await answerHit.getByTestId('search-snippet').textContent()).toContain('hovers by flying into the wind');
    const questionHit = results.filter({ hasText: '· user ·' });
    expect(await questionHit.getByTestId('search-snippet').textContent()).toContain('How does a kestrel hover?');
    // Only the kestrel conversation matches, not the aurora or approval ones.
    const sessionIds = new Set(await results.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-session-id'))));
    expect(sessionIds.size).toBe(1);
    await screenshot(page, 'sessions-search');

    await results.first().click();
    await page.getByTestId('chat-view').waitFor();
    await page.locator('[data-testid="message"][data-role="user"]', { hasText: 'How does a kestrel hover?' }).waitFor();
    await expect.poll(async () => (await lastAssistant().textContent())?.trim()).toBe(KESTREL_ANSWER);
    expect(await page.locator('[data-testid="message"]', { hasText: 'Auroras' }).count()).toBe(0);
    await screenshot(page, 'sessions-opened');
  });
});

describe('failed runs in the session list', () => {
  // Catches failed runs cluttering the list unmarked (issue 12), and a "clear" that takes conversations with replies.
  it('marks a run that failed before any reply, and clears it (only it) from the list', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await send('please fail this run');
    await idle();
    await page.getByTestId('nav-sessions').click();
    const items = page.getByTestId('session-item');
    const failed = items.filter({ has: page.getByTestId('session-failed') });
    await expect.poll(() => failed.count()).toBe(1);
    expect(await failed.getByTestId('session-failed').getAttribute('title')).toContain('the scripted model refuses this one');
    const before = await items.count();
    await screenshot(page, 'sessions-failed-run');

    await page.getByTestId('sessions-clear-failed').click();
    await page.getByTestId('sessions-clear-failed-confirm').click();
    await expect.poll(() => items.count()).toBe(before - 1);
    expect(await failed.count()).toBe(0);
    expect(await page.getByTestId('sessions-clear-failed').count()).toBe(0);
    const stored = JSON.parse((await app.hearth(['sessions', 'list', '--json'])).stdout) as { title: string | null }[];
    expect(stored.some((s) => s.title?.includes('please fail') === true)).toBe(false);
    expect(stored.some((s) => s.title?.includes('kestrel') === true)).toBe(true);
  });
});
