import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startWebApp, type WebApp } from '../fixtures/web-app.js';

/**
 * Undo in the desktop app: the agent rewrites a file, and Settings shows the checkpoint taken before, its diff,
 * and restores it; the approval log shows what ran. Real `hearth serve`, engine and Chromium.
 */
let app: WebApp;
let page: Page;
beforeAll(async () => {
  app = await startWebApp({
    script: (req: unknown) => {
      const messages = (req as { messages: { role: string }[] }).messages;
      if (messages.at(-1)?.role === 'tool') return { text: 'Rewritten.' };
      return {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'plan.md', content: 'the agent\'s plan\n' } },
          { name: 'write_file', arguments: { path: 'todo.md', content: 'new list\n' } },
        ],
      };
    },
  });
  page = app.page;
});
afterAll(async () => {
  await app?.close();
});

describe('checkpoints in Settings', () => {
  // Catches an agent's edit the desktop user cannot undo, a diff that shows nothing, or a restore that changes nothing.
  it('shows the checkpoint the turn took, its changes, and restores the file', async () => {
    const plan = join(app.workspace, 'plan.md');
    writeFileSync(plan, 'my own plan\n');
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('composer-input').fill('rewrite my plan');
    await page.getByTestId('send').click();
    await page.locator('[data-testid="chat-view"][data-phase="idle"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => readFileSync(plan, 'utf8')).toBe('the agent\'s plan\n');

    await page.getByTestId('nav-settings').click();
    const checkpoint = page.locator('[data-testid="checkpoint"][data-number="1"]');
    await checkpoint.waitFor();
    // One snapshot per turn, labelled by everything it holds the state before (the two writes run in parallel, so
    // either may be the one it was taken for).
    const label = `${await checkpoint.getByTestId('checkpoint-reason').textContent()} ${await checkpoint.getByTestId('checkpoint-covers').textContent()}`;
    expect(label).toContain('before write_file plan.md');
    expect(label).toContain('before write_file todo.md');
    expect(await page.getByTestId('safety-section').textContent()).toContain(app.workspace);
    await checkpoint.getByTestId('checkpoint-diff').click();
    const diff = page.getByTestId('checkpoint-diff-text');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('-my own plan');
    expect((await page.getByTestId('approval-log-entry').allTextContents()).join('\n')).toContain(plan);

    await checkpoint.getByTestId('checkpoint-restore').click();
    await checkpoint.getByTestId('checkpoint-restore-confirm').click();
    await page.getByTestId('safety-restored').waitFor();
    expect(readFileSync(plan, 'utf8')).toBe('my own plan\n');
    // The state before the restore is kept as the newest checkpoint, so the restore can be undone too.
    await page.locator('[data-testid="checkpoint"][data-number="2"]').waitFor();
    await screenshot(page, 'settings-checkpoints');
  });
});
