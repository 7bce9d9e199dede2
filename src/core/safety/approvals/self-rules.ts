import { resolvePath } from './paths.js';
import { REASONS } from './reasons.js';
import { flag, type Scan } from './scan.js';

/**
 * The agent changing Hearth itself: its settings (approval mode, allowlist), its persona (SOUL.md), the
 * skills it will load as instructions, its scheduled jobs. Each is a way to widen its own powers or to
 * persist past the session, so it asks the user (`approvals.self_modification`), whichever tool tries it.
 */
const SELF_FILES = ['config.yaml', 'SOUL.md'];
const SELF_DIRS = ['skills', 'cron'];

/** `hearth` subcommands that change what Hearth will do later. */
const HEARTH_CHANGES: Record<string, ReadonlySet<string> | 'any'> = {
  skills: new Set(['install', 'restore']),
  approvals: new Set(['revoke']),
  setup: 'any',
  cron: 'any',
  pending: new Set(['approve']),
  memory: new Set(['import', 'edit']),
};

/** True when `absolute` is Hearth's own configuration, persona, skills or schedule. */
function isSelfPath(absolute: string, hearthHome: string | undefined): boolean {
  if (hearthHome === undefined) return false;
  const home = hearthHome.replace(/\/+$/, '');
  if (!absolute.startsWith(`${home}/`)) return false;
  const rest = absolute.slice(home.length + 1);
  return SELF_FILES.includes(rest) || SELF_DIRS.some((dir) => rest === dir || rest.startsWith(`${dir}/`));
}

/** A write (redirect, cp/mv/tee target, sed -i…) into Hearth's own settings, persona, skills or schedule. */
export function checkSelfWrite(target: string, scan: Scan): void {
  const path = resolvePath(target, scan.paths);
  // Without a HEARTH_HOME in the context, the default one (~/.hearth) is still Hearth's.
  const hearthHome = scan.paths.hearthHome ?? (scan.paths.home === undefined ? undefined : `${scan.paths.home}/.hearth`);
  if (path !== null && isSelfPath(path, hearthHome)) flag(scan, REASONS.selfModification);
}

/** `hearth skills install …`, `hearth approvals revoke …`, `at`, `systemd-run --on-calendar`, `git clone … <skills dir>`. */
export function classifySelfCommand(name: string, operands: string[], args: string[], scan: Scan): boolean {
  if (name === 'hearth') {
    // `hearth --yolo run …`: another agent with every approval off.
    if (args.some((a) => a === '--yolo' || /^--yolo=(true|1)$/i.test(a))) flag(scan, REASONS.disableSecurity);
    const changes = HEARTH_CHANGES[operands[0] ?? ''];
    if (changes === 'any' || (changes !== undefined && changes.has(operands[1] ?? ''))) flag(scan, REASONS.selfModification);
    return true;
  }
  if (name === 'at' || name === 'batch' || (name === 'systemd-run' && args.some((a) => /^--on-/.test(a)))) {
    // Reading the queue (`at -l`, `atq`) schedules nothing.
    if (!args.some((a) => a === '-l' || a === '-r' || a === '-d')) flag(scan, REASONS.scheduleJob);
    return true;
  }
  if (name === 'git' && operands[0] === 'clone' && operands.length >= 3) checkSelfWrite(operands.at(-1) as string, scan);
  return false;
}
