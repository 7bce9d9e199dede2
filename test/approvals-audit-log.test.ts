import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../src/core/safety/approvals/policy.js';
import { ApprovalAuditLog } from '../src/core/safety/approvals/audit-log.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/** The audit log in a real encrypted store: what is kept, in what order, with secrets redacted, and bounded. */
let temp: TempStore | null = null;
afterEach(() => {
  temp?.cleanup();
  temp = null;
});

function record(command: string, at: number, approved = true): ApprovalRecord {
  return {
    requestId: null,
    sessionId: 's1',
    command,
    kind: 'command',
    origin: 'user',
    outcome: { approved, reason: approved ? 'safe' : 'deny', classification: { verdict: approved ? 'safe' : 'dangerous', reasons: approved ? [] : ['recursive delete'] } },
    at,
  };
}

describe('approval audit log', () => {
  it('lists newest first with reasons, and redacts what the redactor finds (catches a key written to the log in clear)', () => {
    temp = createTempStore();
    const log = new ApprovalAuditLog(temp.open().db, (text) => text.replaceAll('hunter2-secret', '[REDACTED:x]'));
    log.record(record('ls', 1));
    log.record(record('curl -H "token: hunter2-secret" x', 2, false));
    expect(log.list(5)).toEqual([
      expect.objectContaining({ command: 'curl -H "token: [REDACTED:x]" x', approved: false, decision: 'deny', reasons: ['recursive delete'] }),
      expect.objectContaining({ command: 'ls', approved: true, decision: 'safe', reasons: [] }),
    ]);
  });

  it('prune keeps the newest records only (catches an unbounded table, and pruning the wrong end)', () => {
    temp = createTempStore();
    const log = new ApprovalAuditLog(temp.open().db);
    for (let i = 0; i < 10; i++) log.record(record(`echo ${i}`, i));
    expect(log.prune(4)).toBe(6);
    expect(log.list(100).map((e) => e.command)).toEqual(['echo 9', 'echo 8', 'echo 7', 'echo 6']);
    expect(log.prune(4)).toBe(0);
  });
});
