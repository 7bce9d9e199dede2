import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PendingWrites } from '../../src/core/learning/pending-writes.js';
import { openStore } from '../../src/core/store/open-store.js';
import { createUserModelTool } from '../../src/core/tools/user-model.js';
import { UserFactStore } from '../../src/core/user-model/facts.js';
import { runTool, toolContext } from '../fixtures/tool-harness.js';
import { screenshot, startWebApp, waitForApp, type WebApp } from '../fixtures/web-app.js';

/**
 * Issue 11, problem 3: the user owns the user model. In the browser against `hearth serve`, a fact is
 * edited, one is marked wrong and one deleted; each change is checked in the store (through the real CLI,
 * `hearth memory user list --json`) and on the page after a reload.
 */
let app: WebApp;
let page: Page;
beforeAll(async () => {
  // No turn is sent here: any request to the model is a bug, answered with an error.
  app = await startWebApp({ script: [] });
  page = app.page;
  // Seeded as the reflection would have stored them, in the same store file the server has open.
  const store = openStore(app.home, { env: app.env });
  try {
    store.createSession({ id: 's-tea', source: 'web', model: 'scripted:model' });
    const said = store.appendMessage('s-tea', { role: 'user', content: 'I brew green tea at 80 degrees and live in Lisbon.' });
    const evidence = [{ messageId: said.id, sessionId: 's-tea', excerpt: 'I brew green tea at 80 degrees and live in Lisbon.' }];
    const facts = new UserFactStore(store.db);
    facts.insert({ category: 'preference', statement: 'The user brews green tea at 90 degrees.', confidence: 0.9, evidence });
    facts.insert({ category: 'background', statement: 'The user lives in Porto.', confidence: 0.7, evidence });
    facts.insert({ category: 'background', statement: 'The user owns a cat.', confidence: 0.5, evidence });
  } finally {
    store.close();
  }
});
afterAll(async () => {
  await app?.close();
});

interface ListedFact {
  id: number;
  statement: string;
  status: string;
  source: string;
}

async function storedFacts(): Promise<ListedFact[]> {
  const result = await app.hearth(['memory', 'user', 'list', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as ListedFact[]).map(({ id, statement, status, source }) => ({ id, statement, status, source }));
}

const fact = (id: number) => page.locator(`[data-testid="user-fact"][data-fact-id="${id}"]`);
const statements = () => page.getByTestId('fact-statement').allTextContents();

describe('what Hearth knows about you, in the Memory tab', () => {
  // Catches a user model its user cannot fix: edits that only change the page, "this is wrong" that leaves the
  // fact in use, a delete that leaves it in the database, and evidence shown as bare ids.
  it('edits a fact, marks one wrong and deletes one; the store follows and a reload shows only the edited fact', async () => {
    await page.getByTestId('nav-memory').click();
    await expect.poll(statements).toEqual(['The user brews green tea at 90 degrees.', 'The user lives in Porto.', 'The user owns a cat.']);
    expect(await fact(1).getByTestId('fact-evidence').textContent()).toContain('I brew green tea at 80 degrees');

    await fact(1).getByTestId('fact-edit').click();
    await fact(1).getByTestId('fact-edit-input').fill('The user brews green tea at 80 degrees.');
    await fact(1).getByTestId('fact-edit-save').click();
    await expect.poll(statements).toEqual(['The user lives in Porto.', 'The user owns a cat.', 'The user brews green tea at 80 degrees.']);
    await screenshot(page, 'user-fact-edited');

    await fact(2).getByTestId('fact-wrong').click();
    await expect.poll(statements).toEqual(['The user owns a cat.', 'The user brews green tea at 80 degrees.']);

    await fact(3).getByTestId('fact-delete').click();
    await fact(3).getByTestId('fact-delete-confirm').click();
    await expect.poll(statements).toEqual(['The user brews green tea at 80 degrees.']);
    expect(await page.getByTestId('memory-error').count()).toBe(0);

    expect(await storedFacts()).toEqual([
      { id: 1, statement: 'The user brews green tea at 90 degrees.', status: 'superseded', source: 'reflection' },
      { id: 2, statement: 'The user lives in Porto.', status: 'rejected', source: 'reflection' },
      { id: 4, statement: 'The user brews green tea at 80 degrees.', status: 'active', source: 'user' },
    ]);

    await page.reload();
    await waitForApp(page);
    await page.getByTestId('nav-memory').click();
    await expect.poll(statements).toEqual(['The user brews green tea at 80 degrees.']);
    // The correction keeps the evidence of the fact it replaced.
    expect(await fact(4).getByTestId('fact-evidence').textContent()).toContain('I brew green tea at 80 degrees');
    await screenshot(page, 'user-facts-after-reload');
  });

  // Catches a correction the model proposed (the user_model tool stages it) that applies without the user, or
  // that the app never shows for approval.
  it('a change the model proposed waits in the Memory tab and applies only when the user approves it', async () => {
    const store = openStore(app.home, { env: app.env });
    let opera = 0;
    try {
      const facts = new UserFactStore(store.db);
      opera = facts.insert({ category: 'preference', statement: 'The user likes opera.', confidence: 0.6, evidence: [] }).id;
      const tool = createUserModelTool({ facts, propose: (write) => new PendingWrites(store.db).stage(write) });
      await runTool(tool, { action: 'reject', fact_id: opera, reason: 'the user said they never liked opera' }, toolContext({ workspace: app.workspace }));
    } finally {
      store.close();
    }
    await page.reload();
    await waitForApp(page);
    await page.getByTestId('nav-memory').click();
    await expect.poll(statements).toEqual(['The user brews green tea at 80 degrees.', 'The user likes opera.']);
    const proposal = page.locator('[data-testid="pending-changes"][data-kind="user_model"]');
    expect(await proposal.getByTestId('pending-change').textContent()).toContain('mark fact #5 "The user likes opera." as wrong');
    // The diff shows the fact that would stop being used.
    expect(await proposal.getByTestId('pending-change').textContent()).toContain('-[preference] The user likes opera.');
    expect((await storedFacts()).find((f) => f.id === opera)?.status).toBe('active');
    await screenshot(page, 'user-fact-proposal');

    await proposal.getByTestId('pending-approve').click();
    await expect.poll(statements).toEqual(['The user brews green tea at 80 degrees.']);
    expect((await storedFacts()).find((f) => f.id === opera)?.status).toBe('rejected');
    expect(await page.getByTestId('memory-error').count()).toBe(0);
  });
});
