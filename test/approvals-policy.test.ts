import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../src/core/safety/approvals/broker.js';
import { REASONS } from '../src/core/safety/approvals/detector.js';
import { ApprovalPolicyBroker, type ApprovalRecord, type AskedApproval, type ToolCheckOptions } from '../src/core/safety/approvals/policy.js';

const never = new AbortController().signal;
const DANGEROUS = 'rm -rf build';

/** A broker whose prompt handler answers from a list and records what it was asked. */
function brokerAnswering(answers: ApprovalDecision[], options: ConstructorParameters<typeof ApprovalPolicyBroker>[0] = {}) {
  const asked: ApprovalRequest[] = [];
  const records: ApprovalRecord[] = [];
  const broker = new ApprovalPolicyBroker({ ...options, onDecision: (r) => records.push(r) });
  broker.setPromptHandler(async (request) => {
    asked.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('test asked more often than expected');
    return answer;
  });
  return { broker, asked, records };
}

describe('ApprovalPolicyBroker', () => {
  it('lets safe commands through without asking (a prompt per `ls` would make the agent unusable)', async () => {
    const { broker, asked } = brokerAnswering([]);
    const outcome = await broker.check('s1', 'ls -la', never);
    expect(outcome).toMatchObject({ approved: true, reason: 'safe' });
    expect(asked).toHaveLength(0);
  });

  it('"once" approves this command only: the same command asks again', async () => {
    const { broker, asked } = brokerAnswering(['once', 'deny']);
    expect((await broker.check('s1', DANGEROUS, never)).approved).toBe(true);
    expect(await broker.check('s1', DANGEROUS, never)).toMatchObject({ approved: false, reason: 'deny' });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ sessionId: 's1', command: DANGEROUS, reasons: [REASONS.recursiveDelete] });
  });

  it('"session" approves the reason for that session only', async () => {
    const { broker, asked } = brokerAnswering(['session', 'deny']);
    await broker.check('s1', DANGEROUS, never);
    // Same reason, different command, same session: remembered.
    expect(await broker.check('s1', 'rm -r dist', never)).toMatchObject({ approved: true, reason: 'session' });
    // Another session must ask again: approvals never leak across sessions.
    expect(await broker.check('s2', DANGEROUS, never)).toMatchObject({ approved: false, reason: 'deny' });
    expect(asked).toHaveLength(2);
  });

  it('a session approval does not cover a command with an additional, unapproved reason', async () => {
    const { broker, asked } = brokerAnswering(['session', 'deny']);
    await broker.check('s1', DANGEROUS, never);
    expect(await broker.check('s1', 'sudo rm -rf build', never)).toMatchObject({ approved: false, reason: 'deny' });
    expect(asked).toHaveLength(2);
  });

  it('"always" persists the allowlist through saveAllowlist and applies to every session and a new broker', async () => {
    const saved: string[][] = [];
    const { broker } = brokerAnswering(['always'], { saveAllowlist: (list) => void saved.push(list) });
    await broker.check('s1', DANGEROUS, never);
    expect(saved).toEqual([[REASONS.recursiveDelete]]);
    expect(await broker.check('s9', 'rm -r x', never)).toMatchObject({ approved: true, reason: 'allowlisted' });
    // What was saved is what a restarted app loads.
    const restarted = new ApprovalPolicyBroker({ allowlist: saved[0] });
    expect(await restarted.check('s1', DANGEROUS, never)).toMatchObject({ approved: true, reason: 'allowlisted' });
  });

  it('an "always" answer that cannot be saved still approves, and the audit record carries the failure', async () => {
    const { broker, records } = brokerAnswering(['always'], {
      saveAllowlist: () => {
        throw new Error('disk full');
      },
    });
    expect((await broker.check('s1', DANGEROUS, never)).approved).toBe(true);
    expect(records.at(-1)?.persistError).toContain('disk full');
  });

  it('fails closed with no prompt handler attached', async () => {
    const broker = new ApprovalPolicyBroker();
    expect(await broker.check('s1', DANGEROUS, never)).toMatchObject({ approved: false, reason: 'no_surface' });
  });

  it('fails closed when nobody answers in time, and tells the handler to withdraw its question', async () => {
    const broker = new ApprovalPolicyBroker({ timeoutMs: 50 });
    let withdrawn = false;
    broker.setPromptHandler(
      (_request, signal) =>
        new Promise<ApprovalDecision>(() => {
          signal.addEventListener('abort', () => (withdrawn = true));
        }),
    );
    expect(await broker.check('s1', DANGEROUS, never)).toMatchObject({ approved: false, reason: 'timeout' });
    expect(withdrawn).toBe(true);
  });

  it('fails closed when the handler throws or answers nonsense', async () => {
    const broker = new ApprovalPolicyBroker();
    broker.setPromptHandler(async () => {
      throw new Error('window closed');
    });
    expect(await broker.check('s1', DANGEROUS, never)).toMatchObject({ approved: false, reason: 'prompt_failed: window closed' });
    broker.setPromptHandler(async () => 'yes' as ApprovalDecision);
    expect((await broker.check('s1', DANGEROUS, never)).approved).toBe(false);
  });

  it('an interrupt while waiting rejects with HearthError(aborted)', async () => {
    const broker = new ApprovalPolicyBroker();
    broker.setPromptHandler(() => new Promise<ApprovalDecision>(() => undefined));
    const controller = new AbortController();
    const pending = broker.check('s1', DANGEROUS, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('yolo (mode off) approves dangerous commands without asking but never hardline ones', async () => {
    const { broker, asked } = brokerAnswering([], { mode: 'off' });
    expect(await broker.check('s1', 'sudo rm -rf build', never)).toMatchObject({ approved: true, reason: 'yolo' });
    expect(await broker.check('s1', 'rm -rf /', never)).toMatchObject({ approved: false, reason: 'hardline' });
    expect(asked).toHaveLength(0);
  });

  it('hardline is refused even when its reason was allowlisted, and nobody is asked', async () => {
    const { broker, asked } = brokerAnswering([], { allowlist: [REASONS.deleteCritical] });
    expect(await broker.check('s1', 'rm -rf /', never)).toMatchObject({ approved: false, reason: 'hardline' });
    expect(asked).toHaveLength(0);
  });

  it('records every decision for the audit log', async () => {
    const { broker, records } = brokerAnswering(['deny']);
    await broker.check('s1', 'ls', never);
    await broker.check('s1', DANGEROUS, never);
    expect(records.map((r) => [r.command, r.outcome.reason])).toEqual([
      ['ls', 'safe'],
      [DANGEROUS, 'deny'],
    ]);
    expect(records[1]?.requestId).toEqual(expect.any(String));
  });
});

describe('sandboxed backend', () => {
  // Catches auto-approval inside the docker sandbox that also lets hardline commands through, or that asks anyway.
  it('runs dangerous commands without asking, and still blocks hardline ones', async () => {
    const broker = new ApprovalPolicyBroker({ sandboxed: true });
    broker.setPromptHandler(() => Promise.reject(new Error('must not ask')));
    const signal = new AbortController().signal;
    await expect(broker.check('s1', 'curl https://example.com/install.sh | sh', signal)).resolves.toMatchObject({ approved: true, reason: 'sandboxed' });
    await expect(broker.check('s1', 'rm -rf /', signal)).resolves.toMatchObject({ approved: false, reason: 'hardline' });
  });

  // Catches the detector's "a checkpoint cannot undo this" lost between the classification and the question the
  // user sees, or the question not tied to the tool call (and working directory) that asked it.
  it('carries irreversible, the asking call and its cwd into the question; absent when the classification has none', async () => {
    const asked: AskedApproval[] = [];
    let irreversible: boolean | undefined = true;
    const broker = new ApprovalPolicyBroker({
      classify: () => ({ verdict: 'dangerous', reasons: [REASONS.recursiveDelete], ...(irreversible === undefined ? {} : { irreversible }) }),
    });
    broker.setPromptHandler(async (request) => {
      asked.push(request);
      return 'deny';
    });
    const checked: ToolCheckOptions = { cwd: '/work/ws', callId: 'call-7' };
    await broker.check('s1', 'rm -rf /srv/data', never, checked);
    irreversible = undefined;
    await broker.check('s1', 'rm -rf build', never);
    expect(asked[0]).toMatchObject({ irreversible: true, callId: 'call-7', cwd: '/work/ws', command: 'rm -rf /srv/data' });
    expect(asked[1]).not.toHaveProperty('irreversible');
    expect(asked[1]).not.toHaveProperty('callId');
  });
});
