import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { resolveHome } from '../../core/config/home.js';
import { HearthError } from '../../core/errors.js';
import { ApprovalAuditLog } from '../../core/safety/approvals/audit-log.js';
import type { Classification } from '../../core/safety/approvals/broker.js';
import { classifyCommand, REASONS, type DetectorContext } from '../../core/safety/approvals/detector.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { cliConfig, withCliStore } from '../services.js';

export const approvalsHelp = `Usage:
  hearth approvals check "<command>" [--json] [--workspace DIR]
      classify a shell command: exit 0 safe, 1 dangerous (needs approval), 2 hardline (always refused)
  hearth approvals check --stdin [--json] [--workspace DIR]
      classify one command per input line: exactly one result per line, in order (a blank line is safe;
      a line the checker cannot read is dangerous), each with the command; exits 0
  --json prints {command?, verdict, reasons, irreversible}: irreversible is true when what a flagged
      command changes lies beyond a workspace checkpoint (outside the workspace, remote, processes…)
  hearth approvals list [--json]        reasons you approved "always" (config.yaml approvals.allowlist)
  hearth approvals revoke "<reason>"    ask again for commands with this reason
  hearth approvals log [--json] [--limit N]
      the latest decisions (what ran unasked and why, what was approved or denied), newest first
Recursive deletes inside the workspace (default: the current directory) need no approval.`;

const EXIT_CODES: Readonly<Record<Classification['verdict'], number>> = { safe: 0, dangerous: 1, hardline: 2 };

/** Reads config.yaml only: no database key, keychain or model is needed to check or manage approvals. */
export async function approvalsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('approvals', argv, {
    json: { type: 'boolean' },
    stdin: { type: 'boolean' },
    workspace: { type: 'string' },
    limit: { type: 'string' },
  });
  if (values.help) {
    io.out(`${approvalsHelp}\n`);
    return 0;
  }
  const [action, ...rest] = positionals;
  const json = values.json === true;
  switch (action) {
    case 'check': {
      const context = detectorContext(io, values.workspace);
      if (values.stdin) {
        if (rest.length > 0) throw new HearthError('usage', 'Give the command either as an argument or with --stdin, not both.');
        await checkLines(io, context, json);
        return 0;
      }
      const command = rest.join(' ');
      if (command.trim() === '') throw new HearthError('usage', `Give a command to check, e.g. hearth approvals check "rm -rf build".\n${approvalsHelp}`);
      const result = classifyCommand(command, context);
      io.out(json ? `${JSON.stringify(jsonResult(result))}\n` : `${describe(result)}\n`);
      return EXIT_CODES[result.verdict];
    }
    case 'list': {
      const allowlist = cliConfig(io).current().approvals.allowlist;
      if (json) io.out(`${JSON.stringify({ allowlist })}\n`);
      else io.out(allowlist.length > 0 ? `${allowlist.join('\n')}\n` : 'Nothing is approved "always": every dangerous command asks.\n');
      return 0;
    }
    case 'revoke':
      return await revoke(io, rest.join(' '));
    case 'log':
      return await printLog(io, values.limit, json);
    default:
      throw new HearthError('usage', `Unknown approvals action "${action ?? ''}".\n${approvalsHelp}`);
  }
}

function detectorContext(io: CliIO, workspaceFlag: string | undefined): DetectorContext {
  // With --workspace the command is read as if run there; otherwise the current directory is both.
  const workspace = workspaceFlag === undefined ? io.cwd : resolve(io.cwd, workspaceFlag);
  return { workspace, cwd: workspace, home: io.env.HOME ?? homedir(), hearthHome: resolveHome(io.env) };
}

function jsonResult(result: Classification): { verdict: Classification['verdict']; reasons: string[]; irreversible: boolean } {
  return { verdict: result.verdict, reasons: result.reasons, irreversible: result.irreversible === true };
}

/**
 * One result per input line, in order, so a caller can zip its input with the output: a blank line is safe
 * (nothing runs), and a line the detector fails on is reported as dangerous with the error, never dropped.
 */
async function checkLines(io: CliIO, context: DetectorContext, json: boolean): Promise<void> {
  const lines = createInterface({ input: io.stdin, terminal: false, crlfDelay: Infinity });
  for await (const line of lines) {
    let result: Classification;
    let error: string | undefined;
    try {
      result = line.trim() === '' ? { verdict: 'safe', reasons: [] } : classifyCommand(line, context);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      io.err(`hearth: could not classify line ${JSON.stringify(line)}: ${error}\n`);
      result = { verdict: 'dangerous', reasons: [REASONS.unreadable], irreversible: true };
    }
    io.out(json ? `${JSON.stringify({ command: line, ...jsonResult(result), ...(error === undefined ? {} : { error }) })}\n` : `${describe(result)}\t${line}\n`);
  }
}

function describe(result: Classification): string {
  return result.reasons.length === 0 ? result.verdict : `${result.verdict}: ${result.reasons.join('; ')}`;
}

async function printLog(io: CliIO, limitFlag: string | undefined, json: boolean): Promise<number> {
  const limit = limitFlag === undefined ? 50 : Number(limitFlag);
  if (!Number.isInteger(limit) || limit < 1) throw new HearthError('usage', `--limit takes a positive whole number, not "${limitFlag ?? ''}".`);
  // The log lives in the encrypted store: this action needs the database key, unlike the others.
  await withCliStore(io, ({ store }) => {
    const entries = new ApprovalAuditLog(store.db).list(limit);
    if (json) {
      for (const entry of entries) io.out(`${JSON.stringify(entry)}\n`);
    } else if (entries.length === 0) {
      io.out('No approval decisions are recorded yet.\n');
    } else {
      for (const e of entries) {
        const what = e.kind === 'command' ? e.command : `[${e.kind}] ${e.command}`;
        io.out(`${new Date(e.at).toISOString()}  ${e.approved ? 'ran    ' : 'refused'}  ${e.decision.padEnd(16)} ${e.origin === 'user' ? '' : `(${e.origin}) `}${what}\n`);
      }
    }
  });
  return 0;
}

async function revoke(io: CliIO, reason: string): Promise<number> {
  if (reason.trim() === '') throw new HearthError('usage', `Give the reason to revoke, as \`hearth approvals list\` prints it.\n${approvalsHelp}`);
  const config = cliConfig(io);
  const allowlist = config.current().approvals.allowlist;
  if (!allowlist.includes(reason)) {
    const known = allowlist.length > 0 ? `Approved "always": ${allowlist.map((r) => `"${r}"`).join(', ')}.` : 'Nothing is approved "always".';
    io.err(`hearth: "${reason}" is not in the approvals allowlist of ${config.path}. ${known}\n`);
    return 1;
  }
  await config.update((draft) => {
    draft.approvals.allowlist = draft.approvals.allowlist.filter((r) => r !== reason);
  });
  io.out(`Revoked "${reason}": commands for this reason ask for approval again (sessions already running keep it until they restart).\n`);
  return 0;
}
