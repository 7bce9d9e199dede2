import { REASONS } from '../reasons.js';
import { flag, type Scan } from '../scan.js';
import { classifySelfCommand } from '../self-rules.js';
import { valuesOf, type Command, type CommandSpec } from './spec.js';

/** Accounts, scheduled jobs, shell history, and Hearth changing itself. */
function crontab(command: Command, scan: Scan): void {
  // `-l` lists and `-e` edits interactively; `-r` removes, and a file, `-` or no argument at all replaces from input.
  const replaces = !command.options.some((a) => /^-[a-z]*[le]/.test(a));
  if (command.options.some((a) => /^-[a-z]*r/.test(a)) || replaces) flag(scan, REASONS.crontab);
  // `echo '0 3 * * * /sbin/reboot' | crontab -`: each job the new table holds is judged as the command it runs
  // (a scheduled reboot is a reboot; SPLITS.md). A file's jobs are unknown here, and stay "replaces the crontab".
  const table = command.invocation.stdin?.text;
  if (!replaces || table === null || table === undefined || command.operands.some((o) => o !== '-')) return;
  for (const line of table.split('\n')) {
    const job = cronJob(line);
    if (job !== null) scan.runShell(job);
  }
}

/** A crontab line's command: what follows five time fields or one `@reboot`-style keyword; comments, blank lines and `VAR=value` lines have none. */
function cronJob(line: string): string | null {
  const text = line.trim();
  if (text === '' || text.startsWith('#') || /^[A-Za-z_]\w*\s*=/.test(text)) return null;
  return /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.+)$/.exec(text)?.[1] ?? null;
}

const self = (command: Command, scan: Scan): void => {
  classifySelfCommand(command.name, command.operands, command.args, scan);
  // `echo 'cmd' | at now + 1 minute`: the job is the text on stdin, run later by a shell.
  const job = command.invocation.stdin?.text;
  if ((command.name === 'at' || command.name === 'batch') && job !== null && job !== undefined && !command.options.some((o) => /^-[a-zA-Z]*f/.test(o))) scan.runShell(job);
};

export const SYSTEM_SPECS: readonly CommandSpec[] = [
  { names: ['useradd', 'userdel', 'usermod', 'adduser', 'deluser', 'passwd', 'chpasswd', 'visudo', 'groupadd', 'groupdel', 'gpasswd', 'chsh', 'dscl', 'sysadminctl'], check: (_c, s) => flag(s, REASONS.accounts) },
  { names: ['crontab'], values: ['-u'], check: crontab },
  // macOS group membership: `dseditgroup -o edit -a dev -t user admin` (reading, `-o read|checkmember`, does not ask).
  { names: ['dseditgroup'], values: ['-o', '-a', '-d', '-t', '-n', '-u', '-P', '-r', '-c', '-k', '-i', '-g', '-m', '-L', '-T', '-q'], check: (c, s) => (/^(edit|create|delete)$/.test(valuesOf(c, '-o')[0] ?? '') ? flag(s, REASONS.accounts) : undefined) },
  // The journal and Windows event logs: `journalctl --vacuum-time=1s` deletes what is older; `wevtutil cl Security` clears a log.
  { names: ['journalctl'], rules: [{ option: /^--(vacuum-time|vacuum-size|vacuum-files)(=.*)?$/, reason: REASONS.history }] },
  { names: ['wevtutil', 'wevtutil.exe'], rules: [{ sub: 'cl|clear-log', reason: REASONS.history }, { sub: 'sl|set-log', operand: /^\/e(nabled)?:false$/i, reason: REASONS.history }] },
  // bash `history -c`/`-d N`, fish `history clear`/`delete`; `history -w /dev/null` writes it nowhere.
  { names: ['history'], rules: [{ option: /^-[a-z]*[cd]/, reason: REASONS.history }, { sub: 'clear|delete|clear-session', reason: REASONS.history }] },
  { names: ['hearth', 'at', 'batch'], check: self },
  { names: ['schtasks', 'schtasks.exe'], rules: [{ operand: /^\/create$/i, reason: REASONS.persistence }, { operand: /^\/delete$/i, reason: REASONS.destructiveVerb }] },
  { names: ['reg', 'reg.exe'], rules: [{ sub: 'add', operand: /\\(Run|RunOnce|Winlogon|Image File Execution Options)\b/i, reason: REASONS.persistence }, { sub: 'delete', reason: REASONS.destructiveVerb }, { sub: 'add', operand: /\\(Windows Defender|Windows Defender Security Center|WindowsFirewall|SharedAccess)(\\|$)/i, reason: REASONS.disableSecurity }] },
];
