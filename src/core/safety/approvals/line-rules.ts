import { REASONS } from './reasons.js';
import type { Scan } from './scan.js';

/**
 * Rules that read the whole line: they span the operators the splitter cuts on (a fork bomb's
 * function body, a secret piped into `nc`) or look at text the splitter keeps verbatim (`$(curl …)`).
 */
const FORK_BOMB = [
  // `:(){ :|:& };:` and any function that pipes itself into itself in the background.
  /([\w:.-]+)\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&/,
  /\bfork\s+while\s+fork\b/,
  /\bwhile\b[\s\S]{0,60}\bfork\s*\(\s*\)/,
];
/** A download whose output is executed: `sh -c "$(curl …)"`, `source <(curl …)`, `eval "$(wget …)"`. */
const EXECUTED_DOWNLOAD = /(^|[\s;&|(`])(sh|bash|zsh|dash|ksh|source|\.|eval|python[23]?|perl|ruby|node)\s[^|;&]*([<$]\(|`)\s*(curl|wget)\b/;
const NETWORK_SENDER = /(^|[\s;&|(`])(curl|wget|nc|ncat|netcat|socat|scp|sftp|ftp|telnet|rsync|ssh|http|xh)\s|\/dev\/(tcp|udp)\//;
const RAW_SOCKET = /\/dev\/(tcp|udp)\//;
/** Private keys, cloud and tool credentials, password databases and dotenv files (not `.env.example`). */
const SECRET_MENTION =
  /(\.ssh(\/(id_[\w-]+|[\w-]+_key)\b(?!\.pub)|\/?(\s|$))|\.aws\/credentials|\.aws\b|\.gnupg\b|\.netrc\b|\.git-credentials\b|\.pgpass\b|\.docker\/config\.json|\.kube\/config|\/etc\/g?shadow\b|(^|[\s/@=])\.env(\.(local|production|prod|development|dev))?(\s|$|["'])|\.hearth\/)/;
const ENVIRONMENT_DUMP = /(^|[\s;&|(])(env|printenv|set|export\s+-p|declare\s+-x)\s*\|/;
/** A secret variable placed in a URL or request body (a `-H` header with a token is ordinary API use). */
const SECRET_VARIABLE_SENT = /(https?:\/\/\S*|(-d|--data[\w-]*|-F|--form)[\s=]\S*)\$\{?\w*(SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|ACCESS_KEY)\w*/i;

export function classifyWholeLine(line: string, scan: Scan): void {
  if (FORK_BOMB.some((re) => re.test(line))) scan.found.add(REASONS.forkBomb);
  if (EXECUTED_DOWNLOAD.test(line)) scan.found.add(REASONS.pipeToShell);
  if (RAW_SOCKET.test(line)) scan.found.add(REASONS.remoteShell);
  if (NETWORK_SENDER.test(line) && (SECRET_MENTION.test(line) || ENVIRONMENT_DUMP.test(line) || SECRET_VARIABLE_SENT.test(line))) scan.found.add(REASONS.exfiltration);
}
