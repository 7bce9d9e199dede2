import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startWebApp, type WebApp } from '../fixtures/web-app.js';

/**
 * What Hearth knows, edited in the browser: skills (files under HEARTH_HOME/skills) and curated memory
 * (entries in the encrypted store), each checked where it really lives, not only on the page.
 */
let app: WebApp;
let page: Page;
beforeAll(async () => {
  // No turn is sent here: any request to the model is a bug, answered with an error.
  app = await startWebApp({ script: [] });
  page = app.page;
});
afterAll(async () => {
  await app?.close();
});

const INVALID_SKILL = `---
name: Brew_Tea!
---

Steep it.
`;

const VALID_SKILL = `---
name: brew-green-tea
description: Brew green tea without bitterness. Use when the user asks how to make green tea.
---

# Brew green tea

1. Heat water to 80 °C.
2. Steep for two minutes.
`;

async function typeInEditor(content: string): Promise<void> {
  await page.getByTestId('skill-editor').fill(content);
}

describe('skills in the Skills tab', () => {
  // Catches the editor saving a SKILL.md the loader would reject, validation that never reports problems,
  // a save that changes nothing on disk, and an edit that writes somewhere else than the skill's file.
  it('shows the problems of an invalid SKILL.md, saves a valid one to disk, and edits that file', async () => {
    const skillFile = join(app.home, 'skills', 'brew-green-tea', 'SKILL.md');
    await page.getByTestId('nav-skills').click();
    await page.getByTestId('skill-new').click();

    // Saving an invalid SKILL.md is refused by the engine, which answers with the validator's list, and
    // writes nothing.
    await typeInEditor(INVALID_SKILL);
    await page.getByTestId('skill-save').click();
    const problems = page.getByTestId('skill-problem');
    await problems.first().waitFor();
    expect(await page.locator('[data-testid="skill-problem"][data-severity="error"]').count()).toBeGreaterThan(0);
    expect((await problems.allTextContents()).join('\n')).toMatch(/description/i);
    expect(existsSync(join(app.home, 'skills')) ? readdirSync(join(app.home, 'skills')).filter((d) => /tea/i.test(d)) : []).toEqual([]);
    // Validate gives the same verdict without saving; any edit clears it until asked again.
    await typeInEditor(INVALID_SKILL.replace('Steep it.', 'Steep it well.'));
    expect(await problems.count()).toBe(0);
    await page.getByTestId('skill-validate').click();
    await problems.first().waitFor();
    await screenshot(page, 'skill-invalid');

    await typeInEditor(VALID_SKILL);
    await page.getByTestId('skill-validate').click();
    await page.getByTestId('skill-valid').waitFor();
    await page.getByTestId('skill-save').click();
    await page.locator('[data-testid="skill-detail"][data-skill="brew-green-tea"]').waitFor();
    await page.locator('[data-testid="skill-item"][data-skill="brew-green-tea"]').waitFor();
    expect(readFileSync(skillFile, 'utf8')).toBe(VALID_SKILL);
    expect(await page.getByTestId('skill-detail').textContent()).toContain('Heat water to 80 °C.');
    await screenshot(page, 'skill-saved');

    await page.getByTestId('skill-edit').click();
    const edited = VALID_SKILL.replace('Steep for two minutes.', 'Steep for ninety seconds, then pour.');
    expect(await page.getByTestId('skill-editor').inputValue()).toBe(VALID_SKILL);
    await typeInEditor(edited);
    await page.getByTestId('skill-save').click();
    await page.locator('[data-testid="skill-detail"]', { hasText: 'Steep for ninety seconds' }).waitFor();
    expect(readFileSync(skillFile, 'utf8')).toBe(edited);
    await screenshot(page, 'skill-edited');
  });
});

interface MemoryShow {
  memory: { entries: string[] };
  user: { entries: string[] };
}

async function storedMemory(): Promise<string[]> {
  const result = await app.hearth(['memory', 'show', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as MemoryShow).memory.entries;
}

describe('memory in the Memory tab', () => {
  // Catches edits that only change the page (the store keeps the old text), a replace that adds instead of
  // replacing, and a delete that leaves the entry in the database.
  it('adds, edits and deletes an entry, and the store (read by `hearth memory show`) follows each step', async () => {
    await page.getByTestId('nav-memory').click();
    const store = page.locator('[data-testid="memory-store"][data-target="memory"]');
    await store.waitFor();
    const entries = store.getByTestId('memory-entry-text');

    await store.getByTestId('memory-add-input').fill('The user keeps their tea notes in ~/notes/tea.md.');
    await store.getByTestId('memory-add').click();
    await expect.poll(() => entries.allTextContents()).toEqual(['The user keeps their tea notes in ~/notes/tea.md.']);
    expect(await storedMemory()).toEqual(['The user keeps their tea notes in ~/notes/tea.md.']);
    expect(await store.getByTestId('memory-budget').textContent()).not.toMatch(/^0 /);

    await store.getByTestId('memory-edit').click();
    await store.getByTestId('memory-edit-input').fill('The user keeps tea notes in ~/notes/tea.md and brews at 80 °C.');
    await store.getByTestId('memory-edit-save').click();
    await expect.poll(() => entries.allTextContents()).toEqual(['The user keeps tea notes in ~/notes/tea.md and brews at 80 °C.']);
    expect(await storedMemory()).toEqual(['The user keeps tea notes in ~/notes/tea.md and brews at 80 °C.']);
    await screenshot(page, 'memory-edited');

    await store.getByTestId('memory-delete').click();
    await store.getByTestId('memory-delete-confirm').click();
    await expect.poll(() => entries.count()).toBe(0);
    expect(await storedMemory()).toEqual([]);
    expect(await page.getByTestId('memory-error').count()).toBe(0);
  });
});
