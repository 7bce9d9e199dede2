import { REASONS } from './reasons.js';
import type { Scan } from './scan.js';

/** Rules for system administration, databases, version control, containers and cloud tools. */
const SECURITY_SERVICES = /^(firewalld|ufw|apparmor|auditd|fail2ban|nftables|iptables|ip6tables|selinux|clamav[\w-]*|sshguard|crowdstrike[\w-]*|falcon-sensor|osqueryd)(\.service)?$/;
const DB_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlcmd', 'duckdb', 'clickhouse-client', 'mongo', 'mongosh', 'redis-cli', 'cockroach']);
const ACCOUNT_TOOLS = new Set(['useradd', 'userdel', 'usermod', 'adduser', 'deluser', 'passwd', 'chpasswd', 'visudo', 'groupadd', 'gpasswd']);
const SQL_KEYWORDS = new Set(['drop', 'truncate', 'delete']);

/** SQL (or Mongo/Redis) text that destroys data: DROP, TRUNCATE, DELETE without WHERE, FLUSHALL, dropDatabase(). */
export function destroysData(text: string): boolean {
  return (
    /\b(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE(\s+TABLE)?\s+\w)/i.test(text) ||
    /\bDELETE\s+FROM\s+[\w."]+\s*(;|$)/im.test(text) ||
    /\b(FLUSHALL|FLUSHDB)\b/i.test(text) ||
    /\.(dropDatabase|drop)\s*\(\s*\)/.test(text)
  );
}

export function classifySystemCommand(name: string, args: string[], operands: string[], scan: Scan): void {
  const { found } = scan;
  switch (name) {
    case 'shutdown':
    case 'reboot':
    case 'halt':
    case 'poweroff':
    case 'telinit':
      found.add(REASONS.shutdown);
      return;
    case 'init':
      if (operands[0] === '0' || operands[0] === '6') found.add(REASONS.shutdown);
      return;
    case 'systemctl':
    case 'loginctl':
      if (operands.some((a) => ['poweroff', 'reboot', 'halt', 'kexec'].includes(a))) found.add(REASONS.shutdown);
      if (['stop', 'disable', 'mask', 'kill'].includes(operands[0] ?? '') && operands.slice(1).some((s) => SECURITY_SERVICES.test(s))) found.add(REASONS.disableSecurity);
      return;
    case 'service':
      if (SECURITY_SERVICES.test(operands[0] ?? '') && operands[1] === 'stop') found.add(REASONS.disableSecurity);
      return;
    case 'setenforce':
      if (/^(0|permissive)$/i.test(operands[0] ?? '')) found.add(REASONS.disableSecurity);
      return;
    case 'ufw':
      if (operands[0] === 'disable' || operands[0] === 'reset') found.add(REASONS.disableSecurity);
      return;
    case 'iptables':
    case 'ip6tables':
      if (args.some((a) => a === '-F' || a === '--flush' || a === '-X')) found.add(REASONS.disableSecurity);
      if ((args.includes('-P') || args.includes('--policy')) && operands.includes('ACCEPT')) found.add(REASONS.disableSecurity);
      return;
    case 'nft':
      if (operands[0] === 'flush') found.add(REASONS.disableSecurity);
      return;
    case 'sysctl':
      if (args.some((a) => /^kernel\.(randomize_va_space|yama\.ptrace_scope)=0$/.test(a))) found.add(REASONS.disableSecurity);
      return;
    case 'aa-teardown':
    case 'aa-disable':
      found.add(REASONS.disableSecurity);
      return;
    case 'spctl':
    case 'csrutil':
      if (args.includes('--master-disable') || operands[0] === 'disable') found.add(REASONS.disableSecurity);
      return;
    case 'git':
      if (operands[0] === 'push' && (args.some((a) => a === '-f' || a.startsWith('--force') || /^-[a-zA-Z]*f/.test(a)) || operands.some((a) => a.startsWith('+')))) found.add(REASONS.forcePush);
      return;
    case 'dropdb':
      found.add(REASONS.sqlDrop);
      return;
    case 'mysqladmin':
      if (operands.includes('drop')) found.add(REASONS.sqlDrop);
      return;
    case 'crontab':
      // `-l` lists and `-e` edits interactively; `-r` removes, and a file, `-` or no argument at all replaces from input.
      if (args.some((a) => /^-[a-z]*r/.test(a)) || !args.some((a) => /^-[a-z]*[le]/.test(a))) found.add(REASONS.crontab);
      return;
    case 'nc':
    case 'ncat':
    case 'netcat':
      if (args.some((a) => /^-[a-zA-Z]*[ec]$/.test(a) || a === '--exec' || a === '--sh-exec')) found.add(REASONS.remoteShell);
      return;
    case 'socat':
      if (operands.some((a) => /^(exec|system):/i.test(a))) found.add(REASONS.remoteShell);
      return;
    case 'docker':
    case 'podman':
      if (['run', 'create'].includes(operands[0] ?? '') && runsWithHostAccess(args)) found.add(REASONS.hostContainer);
      return;
    case 'terraform':
    case 'tofu':
      if (operands[0] === 'destroy' || (operands[0] === 'apply' && args.includes('-destroy'))) found.add(REASONS.cloudDelete);
      return;
    case 'aws':
      if (operands[0] === 's3' && (operands[1] === 'rb' || (operands[1] === 'rm' && args.includes('--recursive')))) found.add(REASONS.cloudDelete);
      return;
    case 'kubectl':
      if (operands[0] === 'delete' && (['namespace', 'ns', 'namespaces'].includes(operands[1] ?? '') || args.includes('--all') || args.includes('-A'))) found.add(REASONS.cloudDelete);
      return;
    case 'gcloud':
      if (operands.includes('delete') && operands[0] === 'projects') found.add(REASONS.cloudDelete);
      return;
    default:
      if (ACCOUNT_TOOLS.has(name)) found.add(REASONS.accounts);
      // A database client given SQL on its command line, or a heredoc body line read as a command.
      else if ((DB_CLIENTS.has(name) || SQL_KEYWORDS.has(name.toLowerCase())) && destroysData([name, ...args].join(' '))) found.add(REASONS.sqlDrop);
  }
}

/** The host's root filesystem, or the Docker socket (which is root on the host). */
const HOST_MOUNT = /^(\/|\/var\/run\/docker\.sock|\/run\/docker\.sock)(:|$)/;

function runsWithHostAccess(args: string[]): boolean {
  return args.some(
    (a, i) =>
      a === '--privileged' ||
      /^--(pid|ipc|userns)=host$/.test(a) ||
      /^--cap-add=(ALL|SYS_ADMIN)$/i.test(a) ||
      ((a === '-v' || a === '--volume') && HOST_MOUNT.test(args[i + 1] ?? '')) ||
      (/^(-v|--volume=)/.test(a) && HOST_MOUNT.test(a.replace(/^(-v|--volume=)/, ''))),
  );
}
