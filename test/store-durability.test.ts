import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/core/store/open-store.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'append-messages-forever.ts');
let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('durability', () => {
  it('keeps every message whose append returned when the process is SIGKILLed mid-loop', async () => {
    home = mkdtempSync(join(tmpdir(), 'hearth-durable-'));
    const env = { ...process.env, HEARTH_DB_KEY: randomBytes(32).toString('hex') };
    const setup = openStore(home, { env });
    const sessionId = setup.createSession({ source: 'cli', model: 'x' }).id;
    setup.close();

    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, home, sessionId], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged = new Map<number, number>(); // message id -> loop index
    let stderr = '';
    let buffered = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? ''; // a partial line was not fully acknowledged yet
        for (const line of lines) {
          const [id, index] = line.split(' ').map(Number);
          if (id !== undefined && index !== undefined) acknowledged.set(id, index);
        }
        // Kill while the loop is still appending, not after it stopped.
        if (acknowledged.size >= 150 && child.exitCode === null) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`child exited before being killed: ${stderr}`)));
    });
    expect(await exited).toBe('SIGKILL');

    const store = openStore(home, { env });
    const stored = new Map(store.getMessages(sessionId).map((m) => [m.id, m.content]));
    for (const [id, index] of acknowledged) {
      expect(stored.get(id), `message ${id} was acknowledged but is missing`).toMatch(new RegExp(`^durable message ${index} `));
    }
    expect(store.getSession(sessionId)?.messageCount).toBe(stored.size);
    store.close();
  });
});
