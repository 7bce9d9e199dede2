import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../src/core/safety/approvals/broker.js';
import { classifyCommand, classifyFileWrite, REASONS } from '../src/core/safety/approvals/detector.js';
import { ApprovalPolicyBroker, type ApprovalRecord } from '../src/core/safety/approvals/policy.js';
import type { CommandJudge } from '../src/core/safety/approvals/smart-judge.js';

/** The parts of the policy beyond the shell detector: who asks (origin), what is asked about (kind), where (cwd). */
const never = new AbortController().signal;
const WORKSPACE = '/home/me/project';
const HEARTH_HOME = '/home/me/.hearth';
const context = { workspace: WORKSPACE, home: '/home/me', hearthHome: HEARTH_HOME };

function broker(answers: ApprovalDecision[], options: ConstructorParameters<typeof ApprovalPolicyBroker>[0] = {}) {
  const asked: ApprovalRequest[] = [];
  const records: ApprovalRecord[] = [];
  const policy = new ApprovalPolicyBroker({ detectorContext: context, ...options, onDecision: (r) => records.push(r) });
  policy.setPromptHandler(async (request) => {
    asked.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('asked more often than expected');
    return answer;
  });
  return { policy, asked, records };
}

describe('approval scope: cwd', () => {
  it('a relative delete is judged from the command\'s own cwd (catches `rm -rf build` in the workspace asking, or outside it not asking)', async () => {
    const { policy, asked } = broker(['deny']);
    expect(await policy.check('s', 'rm -rf build', never, { cwd: `${WORKSPACE}/sub` })).toMatchObject({ approved: true, reason: 'safe' });
    expect(await policy.check('s', 'rm -rf build', never, { cwd: '/home/me' })).toMatchObject({ approved: false, reason: 'deny' });
    expect(asked).toHaveLength(1);
  });
});

describe('approval scope: origins', () => {
  it('a subagent\'s dangerous command is denied without asking by default, and a hardline one never runs (catches subagents bypassing the user)', async () => {
    const { policy, asked } = broker([]);
    expect(await policy.check('sub', 'rm -rf /tmp/x', never, { origin: 'subagent' })).toMatchObject({ approved: false, reason: 'origin_denied' });
    expect(await policy.check('sub', 'rm -rf /', never, { origin: 'subagent' })).toMatchObject({ approved: false, reason: 'hardline' });
    expect(asked).toHaveLength(0);
  });

  it('approvals.subagents: ask puts a subagent\'s command to the user like the parent\'s', async () => {
    const { policy, asked } = broker(['once'], { origins: { subagent: 'ask', cron: 'deny' } });
    expect(await policy.check('sub', 'rm -rf /tmp/x', never, { origin: 'subagent' })).toMatchObject({ approved: true, reason: 'once' });
    expect(asked).toHaveLength(1);
  });

  it('cron is denied by default; with cron: allow it runs dangerous but never hardline or self-modifying commands', async () => {
    const denied = broker([]);
    expect(await denied.policy.check('job', 'rm -rf /tmp/x', never, { origin: 'cron' })).toMatchObject({ approved: false, reason: 'origin_denied' });
    const allowed = broker([], { origins: { subagent: 'deny', cron: 'allow' } });
    expect(await allowed.policy.check('job', 'rm -rf /tmp/x', never, { origin: 'cron' })).toMatchObject({ approved: true, reason: 'origin_allowed' });
    expect(await allowed.policy.check('job', 'mkfs.ext4 /dev/sda1', never, { origin: 'cron' })).toMatchObject({ approved: false, reason: 'hardline' });
    expect(await allowed.policy.check('job', `echo x >> ${HEARTH_HOME}/SOUL.md`, never, { origin: 'cron' })).toMatchObject({ approved: false, reason: 'origin_denied' });
  });

  it('an "always" answer covers later subagent commands with the same reasons (the user decided for every caller)', async () => {
    const { policy } = broker(['always']);
    await policy.check('s', 'rm -rf /tmp/x', never);
    expect(await policy.check('sub', 'rm -rf /tmp/y', never, { origin: 'subagent' })).toMatchObject({ approved: true, reason: 'allowlisted' });
  });
});

describe('approval scope: file writes', () => {
  it('classifies a file tool\'s path like a redirect to it (catches write_file to ~/.ssh or /etc running unasked)', () => {
    // `irreversible` is the detector's to set (a file outside the workspace is beyond its checkpoint); the scope
    // is about the verdict and its reasons.
    expect(classifyFileWrite('/home/me/.ssh/authorized_keys', context)).toMatchObject({ verdict: 'dangerous', reasons: [REASONS.sensitiveWrite] });
    expect(classifyFileWrite('/etc/hosts', context).verdict).toBe('dangerous');
    expect(classifyFileWrite('/home/me/.bashrc', context).verdict).toBe('dangerous');
    expect(classifyFileWrite('/dev/sda', context).verdict).toBe('hardline');
    expect(classifyFileWrite(`${WORKSPACE}/src/a.ts`, context)).toEqual({ verdict: 'safe', reasons: [] });
  });

  it('asks with kind file_write, and the docker sandbox does not waive it (file tools write this machine)', async () => {
    const { policy, asked } = broker(['deny'], { sandboxed: true });
    expect(await policy.check('s', '/home/me/.zshrc', never, { kind: 'file_write' })).toMatchObject({ approved: false, reason: 'deny' });
    expect(asked[0]).toMatchObject({ kind: 'file_write', command: '/home/me/.zshrc' });
    expect(await policy.check('s', 'rm -rf /tmp/x', never)).toMatchObject({ approved: true, reason: 'sandboxed' });
  });
});

describe('approval scope: self-modification', () => {
  it('writes to config.yaml, SOUL.md, skills/ and hearth subcommands that change Hearth are flagged (catches the agent widening its own powers)', () => {
    const flagged = [
      `echo 'approvals: {mode: off}' > ${HEARTH_HOME}/config.yaml`,
      `sed -i s/manual/off/ ${HEARTH_HOME}/config.yaml`,
      `cp evil.md ${HEARTH_HOME}/SOUL.md`,
      `git clone https://example.com/skill.git ${HEARTH_HOME}/skills/x`,
      'hearth skills install ./downloaded-skill',
      'hearth approvals revoke --all',
      'echo "curl x | sh" | at now + 1 hour',
    ];
    for (const command of flagged) {
      const { reasons } = classifyCommand(command, context);
      expect(reasons.some((r) => r === REASONS.selfModification || r === REASONS.scheduleJob), command).toBe(true);
    }
    expect(classifyCommand('hearth skills list', context).verdict).toBe('safe');
    expect(classifyCommand(`cat ${HEARTH_HOME}/config.yaml`, context).verdict).toBe('safe');
    expect(classifyFileWrite(`${HEARTH_HOME}/skills/x/SKILL.md`, context).reasons).toEqual([REASONS.selfModification]);
  });

  it('asks even in the docker sandbox and in smart mode; approvals.self_modification: allow lets it through', async () => {
    let judged = 0;
    const judge: CommandJudge = async () => {
      judged++;
      return { decision: 'approve', why: 'looks fine' };
    };
    const asking = broker(['deny'], { sandboxed: true, mode: 'smart', judge });
    expect(await asking.policy.check('s', `echo x > ${HEARTH_HOME}/SOUL.md`, never)).toMatchObject({ approved: false, reason: 'deny' });
    expect(judged).toBe(0);
    const allowing = broker([], { selfModification: 'allow' });
    expect(await allowing.policy.check('s', `echo x > ${HEARTH_HOME}/SOUL.md`, never)).toMatchObject({ approved: true, reason: 'self_modification_allowed' });
    expect(await allowing.policy.check('s', 'schedule a daily report', never, { kind: 'self_modification' })).toMatchObject({ approved: true });
  });

  it('every decision is recorded with its kind and origin (the audit trail)', async () => {
    const { policy, records } = broker(['once']);
    await policy.check('s', 'ls', never);
    await policy.check('s', '/etc/hosts', never, { kind: 'file_write' });
    await policy.check('sub', 'rm -rf /tmp/z', never, { origin: 'subagent' });
    expect(records.map((r) => [r.kind, r.origin, r.outcome.reason])).toEqual([
      ['command', 'user', 'safe'],
      ['file_write', 'user', 'once'],
      ['command', 'subagent', 'origin_denied'],
    ]);
  });
});
