import { homeRelative, isInsideWorkspace, isUnder, MAC_AND_WSL_DIRS, normalize, resolvePath } from './paths.js';
import { REASONS } from './reasons.js';
import { flag, UNKNOWN, type Scan } from './scan.js';
import { checkSelfWrite } from './self-rules.js';

/**
 * Where a write lands: a redirect target, a `cp`/`tee`/`install -t` destination, `dd of=`. Disk devices are
 * hardline, `/etc`-like system paths (Linux, macOS and Windows under WSL), `~/.ssh`, shell rc files and login
 * agents need approval, Hearth's own settings are self-modification. Reading a private key puts it into the
 * conversation, so that asks too.
 */
const RC_FILES = new Set(['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin', '.zlogout', '.kshrc', '.cshrc', '.tcshrc', '.inputrc', '.xprofile', '.xinitrc', '.xsession', '.pam_environment', '.config/fish/config.fish']);
export const HISTORY_FILE = /(^|\/)(\.(bash_|zsh_|sh_|python_|node_repl_|psql_|mysql_|sqlite_|rediscli_)?history|\.lesshst|\.viminfo|\.wget-hsts|\.local\/share\/recently-used\.xbel|\.local\/share\/fish\/fish_history)$/;
// `/dev/sd$x`: a disk whatever the unknown letter is (UNKNOWN marks what is only known at run time).
export const DISK_DEVICE = new RegExp(String.raw`^/dev/(sd[a-z?*[${UNKNOWN}]|hd[a-z?*[${UNKNOWN}]|vd[a-z?*[${UNKNOWN}]|xvd[a-z?*[${UNKNOWN}]|nvme[\d?*[${UNKNOWN}]|mmcblk[\d?*[${UNKNOWN}]|r?disk[\d${UNKNOWN}]|md\d|dm-\d|mapper/|loop\d|disk/by-|block/)`);
/** Writes under these need approval; /tmp, /var/tmp and /dev/null-like devices do not. */
const WRITE_PROTECTED = ['/etc', '/boot', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/opt', '/root', '/srv', '/sys', '/proc/sys', '/var', ...MAC_AND_WSL_DIRS.filter((d) => d !== '/Users' && d !== '/mnt/c/Users' && d !== '/Volumes' && d !== '/mnt/c')];
const WRITABLE_UNDER_PROTECTED = ['/var/tmp', '/private/tmp', '/private/var/tmp', '/private/var/folders'];
const HOME_SENSITIVE = /^~\/(\.ssh|\.gnupg|\.aws|\.kube|\.docker|\.config\/(autostart|systemd|environment\.d|fish)|\.local\/share\/systemd|Library\/(LaunchAgents|LaunchDaemons))(\/|$)/;
/** `/dev/$d`, `/dev/sd$x`: a device whose name is only known when the line runs (UNKNOWN marks what is not known). */
export const UNNAMED_DEVICE = new RegExp(`^/dev/[^/]*${UNKNOWN}`);
const HARMLESS_DEVICE = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+)$/;
const SECRET_FILE = /(^|\/)(\.ssh\/(id_[\w-]+|[\w-]+_key|[\w.-]+\.pem)|\.aws\/credentials|\.netrc|\.git-credentials|\.pgpass|\.docker\/config\.json|\.kube\/config|\.config\/gh\/hosts\.yml|\.config\/gcloud\/(application_default_credentials\.json|credentials\.db)|\.gnupg\/[\w.-]+|\/etc\/g?shadow)$/;

/** The reason a write to `target` needs approval, if any (shared by writes and by permission changes). */
export function isSensitivePath(target: string, scan: Scan): boolean {
  const path = resolvePath(target, scan.paths) ?? normalize(target);
  const inHome = homeRelative(target, scan.paths);
  const homeSensitive = inHome !== null && (HOME_SENSITIVE.test(inHome) || RC_FILES.has(inHome.slice(2)));
  return (isUnder(path, WRITE_PROTECTED) && !isUnder(path, WRITABLE_UNDER_PROTECTED)) || homeSensitive || /(^|\/)\.ssh(\/|$)/.test(path);
}

export function checkWriteTarget(target: string, scan: Scan): void {
  const path = resolvePath(target, scan.paths) ?? normalize(target);
  if (HARMLESS_DEVICE.test(path)) return;
  scan.mutatesFiles = true;
  if (DISK_DEVICE.test(path)) {
    flag(scan, REASONS.rawDisk);
    return;
  }
  // `dd of=/dev/$d` in a loop over `lsblk`: the disk, or /dev/null; not known, so never safe.
  if (UNNAMED_DEVICE.test(path)) {
    flag(scan, REASONS.unknownDevice);
    return;
  }
  if (path === '/proc/sysrq-trigger') {
    flag(scan, REASONS.shutdown);
    return;
  }
  if (/^\/(dev|inet)\/(tcp|udp)\//.test(path)) {
    flag(scan, REASONS.remoteShell);
    return;
  }
  if (HISTORY_FILE.test(path)) {
    flag(scan, REASONS.history);
    return;
  }
  const base = path.slice(path.lastIndexOf('/') + 1);
  // `.bashrc` with no known directory could be the user's own: read it as in home.
  const bareRcFile = RC_FILES.has(base) && !target.includes('/') && resolvePath(target, scan.paths) === null;
  if (isSensitivePath(target, scan) || bareRcFile) flag(scan, REASONS.sensitiveWrite);
  checkSelfWrite(target, scan);
}

/** The home itself and the folders whose files configure or start programs (`~/.config`, `~/.local`, `~/Library`). */
const HOME_CONFIG_ROOTS = /^~(\/(\.config|\.local(\/share|\/bin)?|Library(\/Application Support|\/Preferences)?))?\/?$/;

/**
 * `unzip -o x.zip -d ~/.config`, `tar -xf x.tgz -C ~`, `cp -r ./dotfiles/. ~/`: files whose names the line does not
 * know spread into the home or a folder of program settings, where any of them may be an rc file, an autostart entry
 * or a unit. Into a folder of its own (`cp -r dist ~/`, `unzip x.zip -d ~/Downloads/x`) it is an ordinary copy.
 */
export function checkSpreadInto(directory: string, scan: Scan): void {
  checkWriteTarget(directory, scan);
  const inHome = homeRelative(directory, scan.paths);
  if (inHome !== null && HOME_CONFIG_ROOTS.test(inHome)) flag(scan, REASONS.sensitiveWrite);
}

/** Reading a private key or a credentials file puts it into the conversation (and the model provider's logs). */
export function checkReadSource(source: string, scan: Scan): void {
  const inHome = homeRelative(source, scan.paths);
  const path = inHome ?? resolvePath(source, scan.paths) ?? normalize(source);
  if (SECRET_FILE.test(path) && !path.endsWith('.pub')) flag(scan, REASONS.secretRead);
  if (/^\/dev\/(tcp|udp)\//.test(path)) flag(scan, REASONS.remoteShell);
}

/** A write that a workspace checkpoint restores (so asking about it is not about irreversibility). */
export function insideWorkspace(target: string, scan: Scan): boolean {
  return !scan.remote && isInsideWorkspace(target, scan.paths);
}
