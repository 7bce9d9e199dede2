import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UiEvent } from '../src/shared/contract.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';

/**
 * Approval settings changed in the app apply to the running engine, not only to config.yaml at the next
 * start. Catches a user who switches approvals to manual (or removes an "always" entry) and is not asked
 * before the next dangerous command.
 */
let app: AppHarness | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

/** Outside the workspace: a recursive delete inside it is routine and never asks. */
const VICTIM = join(mkdtempSync(join(tmpdir(), 'hearth-outside-')), 'victim');

/** Every turn runs `rm -rf <victim>` once, then reports. */
const deleteVictim = (_req: unknown, index: number) =>
  index % 2 === 0 ? { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${VICTIM}` } }] } : { text: 'done' };

async function turn(harness: AppHarness): Promise<UiEvent[]> {
  const from = harness.events.length;
  const { sessionId } = await harness.service.handlers['chat.start']({});
  await harness.service.handlers['chat.send']({ sessionId, text: 'clean up', attachments: [] });
  await expect.poll(() => harness.events.slice(from).some((e) => e.channel === 'agent' && e.event.type === 'turn_end'), { timeout: 20_000 }).toBe(true);
  return harness.events.slice(from);
}

/** A turn whose command must be asked about (the poll fails if it is not); the user denies it. */
async function turnDenyingWhenAsked(harness: AppHarness): Promise<void> {
  const from = harness.events.length;
  const events = turn(harness);
  const request = () => harness.events.slice(from).find((e) => e.channel === 'agent' && e.event.type === 'approval_request');
  await expect.poll(() => request() !== undefined, { timeout: 20_000 }).toBe(true);
  const asked = request();
  if (asked?.channel === 'agent' && asked.event.type === 'approval_request') await harness.service.handlers['approvals.answer']({ id: asked.event.id, choice: 'deny' });
  await events;
}

const asked = (events: UiEvent[]) => events.some((e) => e.channel === 'agent' && e.event.type === 'approval_request');

function makeVictim(_harness: AppHarness): string {
  mkdirSync(VICTIM, { recursive: true });
  writeFileSync(join(VICTIM, 'keep.txt'), 'x');
  return VICTIM;
}

describe('approval settings apply live', () => {
  it('switching to off runs flagged commands without asking; back to manual asks again', async () => {
    app = await startAppHarness(deleteVictim);
    const victim = makeVictim(app);
    await app.service.handlers['settings.update']({ approvalsMode: 'off' });
    expect(asked(await turn(app))).toBe(false);
    expect(existsSync(victim)).toBe(false);

    makeVictim(app);
    await app.service.handlers['settings.update']({ approvalsMode: 'manual' });
    await turnDenyingWhenAsked(app);
    expect(existsSync(victim)).toBe(true);
  });

  it('an allowlist edited in settings replaces the live one', async () => {
    app = await startAppHarness(deleteVictim);
    const victim = makeVictim(app);
    await app.service.handlers['settings.update']({ allowlist: ['recursive delete'] });
    expect(asked(await turn(app))).toBe(false);
    expect(existsSync(victim)).toBe(false);

    makeVictim(app);
    await app.service.handlers['settings.update']({ allowlist: [] });
    await turnDenyingWhenAsked(app);
    expect(existsSync(victim)).toBe(true);
  });
});
