import { REASONS } from '../reasons.js';
import { flag, type Scan } from '../scan.js';
import { checkSelfWrite } from '../self-rules.js';
import { insideWorkspace } from '../write-targets.js';
import { hasFlag, valuesOf, type Command, type CommandSpec, type Rule } from './spec.js';

/**
 * git: what a checkpoint cannot restore always asks (remote deletes, force pushes, `branch -D`, stash and reflog
 * loss, history rewrites); working-tree resets in the workspace ask too, but are not irreversible, since the
 * terminal snapshots the workspace before they run (decision 0009).
 */
const FORCE = /^(-f|--force|--force-with-lease(=.*)?|--force-if-includes|--mirror|-[a-zA-Z]*f[a-zA-Z]*)$/;
/** `git push -n` / `--dry-run` sends nothing: it reports what a push would update. */
const PUSH_DRY_RUN = /^(-n|--dry-run|-[a-zA-Z]*n[a-zA-Z]*)$/;
const GIT_RULES: readonly Rule[] = [
  { sub: 'push', option: FORCE, unless: PUSH_DRY_RUN, reason: REASONS.forcePush },
  { sub: 'push', operand: /^\+/, unless: PUSH_DRY_RUN, reason: REASONS.forcePush },
  { sub: 'push', option: /^(-d|--delete|--prune)$/, unless: PUSH_DRY_RUN, reason: REASONS.remoteGitDelete },
  { sub: 'push', operand: /^:./, unless: PUSH_DRY_RUN, reason: REASONS.remoteGitDelete },
  { sub: 'branch', option: /^(-D|-[a-zA-Z]*D[a-zA-Z]*)$/, reason: REASONS.gitHistory },
  { sub: 'tag', option: /^(-d|--delete)$/, reason: REASONS.gitHistory },
  { sub: 'stash', operand: /^(clear|drop)$/, reason: REASONS.gitHistory },
  { sub: 'reflog', operand: /^(expire|delete)$/, reason: REASONS.gitHistory },
  { sub: 'filter-branch|filter-repo', reason: REASONS.gitHistory },
  { sub: 'update-ref', option: /^-d$/, reason: REASONS.gitHistory },
  { sub: 'gc|prune', option: /^--prune(=now|=all)?$|^--expire(=now)?$/, reason: REASONS.gitHistory },
  { sub: 'remote', operand: /^(prune)$/, reason: REASONS.gitHistory },
  { sub: 'reset', option: /^--(hard|merge|keep)$/, reason: REASONS.workingTreeReset, irreversible: false },
  { sub: 'switch', option: /^(--discard-changes|-f|--force)$/, reason: REASONS.workingTreeReset, irreversible: false },
  { sub: 'worktree', operand: /^remove$/, option: /^(-f|--force)$/, reason: REASONS.workingTreeReset },
];

/**
 * `git clean -fdX -- build/`: only files git ignores (build output), only under folders inside the workspace, which
 * is `rm -rf build/` by another name. Without a pathspec it reaches ignored files such as `.env` as well, and asks.
 */
function cleansOnlyIgnoredBelow(command: Command, pathspecs: readonly string[], scan: Scan): boolean {
  const onlyIgnored = command.options.some((o) => /^-[a-zA-Z]*X/.test(o)) && !command.options.some((o) => /^-[a-zA-Z]*x/.test(o));
  return onlyIgnored && pathspecs.length > 0 && pathspecs.every((p) => !/^\.\/?$|^:/.test(p) && insideWorkspace(p, scan));
}

function gitCheck(command: Command, scan: Scan): void {
  const [sub, ...rest] = command.operands;
  const afterSub = command.args.slice(command.args.indexOf(sub ?? '') + 1);
  if (sub === 'branch' && hasFlag(command, 'd', '--delete') && hasFlag(command, 'f', '--force')) flag(scan, REASONS.gitHistory);
  if (sub === 'clean' && hasFlag(command, 'f', '--force') && !hasFlag(command, 'n', '--dry-run') && !cleansOnlyIgnoredBelow(command, rest, scan)) discards(scan);
  if (sub === 'checkout' && (afterSub.includes('--') || rest.includes('.') || hasFlag(command, 'f', '--force'))) discards(scan);
  if (sub === 'restore' && rest.length > 0 && !(command.options.includes('--staged') && !command.options.some((o) => o === '--worktree' || o === '-W'))) discards(scan);
  if (sub !== undefined && ['clean', 'reset', 'checkout', 'restore', 'stash', 'rm', 'mv', 'apply', 'merge', 'rebase', 'pull', 'cherry-pick', 'revert', 'switch'].includes(sub)) scan.mutatesFiles = true;
  // `git -c alias.x='!rm -rf ~' x` runs the alias; `git config alias.x '!…'` plants it for later: both are read.
  for (const value of valuesOf(command, '-c')) {
    const alias = /^alias\.([\w-]+)=(.*)$/s.exec(value);
    if (alias !== null && alias[1] === sub) runAlias(alias[2] as string, rest, scan);
    // `git -c core.pager='rm -rf ~' log`: settings whose value git runs as a shell command.
    const setting = /^([\w.-]+)=(.+)$/s.exec(value);
    if (setting !== null && COMMAND_SETTINGS.test(setting[1] as string)) scan.runShell(setting[2] as string);
  }
  if (sub === 'config' && /^alias\./.test(rest.find((r) => r.startsWith('alias.')) ?? '')) {
    const at = rest.findIndex((r) => r.startsWith('alias.'));
    const body = rest[at + 1];
    if (body?.startsWith('!') === true) {
      scan.runShell(body.slice(1));
      // An alias that runs shell stays in the config and runs whenever the name is typed: planted, like a hook.
      if (!command.options.some((o) => /^--(get|get-all|get-regexp|unset|unset-all|list)$/.test(o))) flag(scan, REASONS.persistence);
    }
    // `git config alias.pf 'push --force' && git pf`: remembered for the rest of the line.
    if (body !== undefined) scan.files.set(`${GIT_ALIAS}${(rest[at] as string).slice(6)}`, body);
  }
  const defined = sub === undefined ? undefined : scan.files.get(`${GIT_ALIAS}${sub}`);
  if (defined !== undefined && scan.depth < 4) runAlias(defined, rest, scan);
  if (sub === 'config' && rest.some((r) => /^core\.(hooksPath|sshCommand|pager|fsmonitor)$/.test(r)) && command.options.some((o) => o === '--global' || o === '--system')) flag(scan, REASONS.persistence);
  // `git config core.hooksPath /tmp/shared-hooks`: this repository's hooks now run from a folder outside the workspace,
  // which anyone who can write there fills (a folder in the workspace, `.githooks`, is the project's own).
  const hooksPath = rest[rest.indexOf('core.hooksPath') + 1];
  if (sub === 'config' && rest.includes('core.hooksPath') && hooksPath !== undefined && !insideWorkspace(hooksPath, scan)) flag(scan, REASONS.persistence);
  // `git rebase --exec 'cmd'`, `git rebase -x cmd`, `git submodule foreach 'cmd'`, `git bisect run cmd …`: git runs them.
  if (sub === 'rebase') {
    for (const code of [...valuesOf(command, '--exec', '-x'), ...afterSub.flatMap((a, i) => (a === '-x' || a === '--exec' ? [afterSub[i + 1] ?? ''] : []))]) scan.runShell(code);
  }
  if (sub === 'submodule' && rest[0] === 'foreach') {
    const words = afterSub.slice(afterSub.indexOf('foreach') + 1).filter((w) => w !== '--recursive' && w !== '-q' && w !== '--quiet');
    if (words.length > 0) scan.runShell(words.join(' '));
  }
  if (sub === 'filter-branch') {
    for (const code of valuesOf(command, '--tree-filter', '--index-filter', '--msg-filter', '--env-filter', '--commit-filter', '--parent-filter', '--tag-name-filter')) scan.runShell(code);
    for (const [i, a] of afterSub.entries()) if (/^--(tree|index|msg|env|commit|parent|tag-name)-filter$/.test(a) && afterSub[i + 1] !== undefined) scan.runShell(afterSub[i + 1] as string);
  }
  if (sub === 'bisect' && rest[0] === 'run' && rest.length > 1) scan.runArgv(afterSub.slice(afterSub.indexOf('run') + 1));
  // `git clone … <skills dir>` installs a skill behind the user's back.
  if (sub === 'clone' && command.operands.length >= 3) checkSelfWrite(command.operands.at(-1) as string, scan);
}

/** Settings whose value git runs through the shell (`core.pager`, `core.editor`, `diff.external`…). */
const COMMAND_SETTINGS = /^(core\.(pager|editor|sshCommand|fsmonitor|askPass)|sequence\.editor|diff\.external|pager\.[\w-]+|credential\.helper|gpg\.program|difftool\.[\w-]+\.cmd|mergetool\.[\w-]+\.cmd|filter\.[\w-]+\.(clean|smudge|process))$/i;
const GIT_ALIAS = '\uE003git-alias:';

/** An alias: `!…` is shell, anything else is more git words. */
function runAlias(body: string, args: readonly string[], scan: Scan): void {
  if (body.startsWith('!')) {
    scan.runShell(body.slice(1));
    return;
  }
  scan.depth += 1;
  try {
    scan.runArgv(['git', ...body.split(/\s+/).filter((w) => w !== ''), ...args]);
  } finally {
    scan.depth -= 1;
  }
}

function discards(scan: Scan): void {
  flag(scan, REASONS.workingTreeReset, false);
}

/** Git tools shipped as a jar: `java -jar bfg-1.14.0.jar …` is BFG. */
const GIT_JARS = /^(?:.*\/)?(bfg|git-filter-repo)(?:[-_.][\w.-]*)?\.jar$/i;

/** `java -jar bfg.jar --delete-files id_rsa`: the jar is the command; any other java program runs what it runs. */
function java(command: Command, scan: Scan): void {
  const jar = valuesOf(command, '-jar')[0];
  if (jar !== undefined && GIT_JARS.test(jar)) flag(scan, REASONS.gitHistory);
}

export const GIT_SPECS: readonly CommandSpec[] = [
  // History rewriters outside git itself.
  { names: ['bfg', 'git-filter-repo', 'git-filter-branch'], check: (_c, s) => flag(s, REASONS.gitHistory) },
  { names: ['java'], values: ['-jar', '-cp', '-classpath', '--class-path', '-p', '--module-path', '-m', '--module'], check: java },
  { names: ['git'], values: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '-m', '-F', '--file', '-b', '-B', '--branch', '--depth', '-o', '--origin', '--author', '--date', '-u', '--template', '--format', '--pretty', '-n', '--max-count', '--since', '--until', '--grep', '-S', '-G', '--reference', '-X', '--strategy-option', '-s', '--strategy'], rules: GIT_RULES, check: gitCheck },
];
