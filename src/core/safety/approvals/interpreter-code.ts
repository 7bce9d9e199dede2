import { judgeRecursiveDelete } from './specs/files.js';
import { REASONS } from './reasons.js';
import { flag, type Scan } from './scan.js';
import { checkWriteTarget } from './write-targets.js';

/**
 * Reads inline interpreter code (`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, `lua -e`, a heredoc
 * fed to one) for what would need approval in shell: running processes (the commands themselves are classified
 * too, so `os.system('rm -rf /')` stays hardline), recursive deletes judged by their target like `rm -rf`,
 * writes to protected paths, sockets wired to a shell, environment or key files sent over the network, and
 * fork loops. It reads patterns, not the language: what it cannot place it leaves to the other rules.
 */
export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'r' | 'julia' | 'generic';

const STRING = String.raw`(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|\x60((?:[^\x60\\]|\\.)*)\x60)`;
/** Calls that start a process, per language family; the first string argument is the command when literal. */
const EXEC_CALLS: Readonly<Record<Language, RegExp>> = {
  python: /\b(?:os\.(?:system|popen|exec\w*|spawn\w*|posix_spawnp?)|subprocess\.\w+|commands\.getoutput|pty\.spawn|asyncio\.create_subprocess_(?:shell|exec))\s*\(/g,
  node: /(?<![\w.$])(?:(?:child_process|cp|childProcess|require\(\s*['"](?:node:)?child_process['"]\s*\))\s*\.\s*)?(?:execSync|execFileSync|spawnSync|exec|execFile|spawn|fork)\s*\(|\bBun\.(?:spawn|spawnSync)\s*\(|\bDeno\.(?:run|Command)\s*\(|\bnew\s+Deno\.Command\s*\(/g,
  perl: /(?<![\w$>])(?:system|exec)\s*\(?|\bqx\s*[{(/|]/g,
  ruby: /(?<![\w.])(?:system|exec|spawn)\s*\(?|\b(?:IO\.popen|Open3\.\w+|Process\.spawn|%x)\s*[({]?/g,
  php: /(?<![\w>])(?:system|exec|shell_exec|passthru|proc_open|popen|pcntl_exec)\s*\(/g,
  lua: /\b(?:os\.execute|io\.popen)\s*\(/g,
  r: /\b(?:system2?|shell)\s*\(/g,
  julia: /\brun\s*\(\s*`/g,
  generic: /\b(?:system|exec|popen|spawn)\s*\(/g,
};
/** Backticks run a shell in these languages (in JavaScript they are template literals). */
const BACKTICK_EXEC = new Set<Language>(['perl', 'ruby', 'php']);

const RECURSIVE_DELETE = /\b(?:shutil\.rmtree|rmtree|remove_tree|rm_rf|rm_r|remove_dir|remove_entry_secure|rimraf(?:\.sync)?|rmSync|rmdirSync|fs\.rm|fs\.promises\.rm|fsPromises\.rm|Deno\.remove|Remove-Item|deleteRecursively|FileUtils\.rm_rf)\s*\(?\s*/g;
const FILE_DELETE = /\b(?:os\.remove|os\.unlink|unlinkSync|fs\.unlink|File\.delete|unlink|Path\([^)]*\)\.unlink)\s*\(\s*/g;
const WRITE_CALLS = /\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|file_put_contents|File\.write|IO\.write|Deno\.writeTextFile|Bun\.write)\s*\(\s*/g;
const OPEN_FOR_WRITE = new RegExp(String.raw`\b(?:open|File\.open|io\.open|fopen)\s*\(\s*(?:\w+\s*,\s*)?${STRING}\s*,\s*${STRING}`, 'g');
const PERL_OPEN_WRITE = /\bopen\s*\(?\s*[\w$]+\s*,\s*(?:['"]>>?['"]\s*,\s*['"]([^'"]+)['"]|['"]>>?\s*([^'"]+)['"])/g;
const PATH_WRITE = new RegExp(String.raw`\bPath\(\s*${STRING}\s*\)\s*\.\s*(?:write_text|write_bytes|touch|unlink|rmdir)`, 'g');

const SOCKET = /\b(?:socket\.socket|socket\.create_connection|net\.(?:connect|createConnection|Socket)|new\s+net\.Socket|TCPSocket|fsockopen|IO::Socket|Socket\.tcp|socket\s*\(\s*[A-Z])/;
const SHELL_WIRING = /\b(?:pty\.spawn|os\.dup2|subprocess|child_process|spawn\s*\(|exec\s*\(|proc_open|STDIN->fdopen|\/bin\/(?:ba|z|da)?sh\b|cmd\.exe)/;
const NETWORK = /\b(?:requests\.(?:post|put|get|patch)|urllib|urlopen|http\.client|httpx|aiohttp|fetch\s*\(|axios|https?\.request|https?\.get|Net::HTTP|HTTParty|Faraday|curl_exec|LWP::|HTTP::Tiny|XMLHttpRequest|smtplib|ftplib|socket\.|net\.connect|TCPSocket|fsockopen)/;
const WHOLE_ENVIRONMENT = /\b(?:dict\(\s*os\.environ\s*\)|os\.environ(?!\s*[.[])|process\.env(?!\s*[.[])|JSON\.stringify\(\s*process\.env|ENV\.to_h|%ENV|\$_ENV|\$_SERVER|getenv\(\s*\)|Deno\.env\.toObject)/;
const SECRET_FILES = /(\.ssh\/(id_[\w-]+|[\w-]+_key)(?!\.pub)|\.aws\/credentials|\.netrc|\.git-credentials|\.pgpass|\.kube\/config|\/etc\/g?shadow|(^|['"/])\.env(\.\w+)?['"])/;
const FORK_LOOP = [/\b(?:while\s*\(?\s*(?:True|1|true)\s*\)?\s*:?\s*\{?|loop\s*(?:do|\{)|for\s*\(\s*;\s*;\s*\))[\s\S]{0,120}?\b(?:os\.fork|fork|pcntl_fork|Process\.fork|cluster\.fork)\s*\(/, /\bfork\s+while\s+fork\b/, /\bfork\s+until\s+0\b/, /\bwhile\s*\(?\s*fork\b/];
const KILL_ALL = /\b(?:os\.kill|process\.kill|Process\.kill|posix_kill)\s*\(\s*-1\s*,/;
const DECODE_AND_RUN = /\b(?:exec|eval|system|Function)\s*\([^)]*(?:b64decode|atob|Buffer\.from\([^)]*base64|decode\(\s*['"]base64|unpack\s*\(?\s*['"]m|base64_decode|decode64|codecs\.decode)/;
const BASE64_LITERAL = /(?:b64decode|atob|Buffer\.from|base64_decode|decode64|unpack\s*\(?\s*['"]m['"]\s*,)\s*\(?\s*b?['"]([A-Za-z0-9+/=]{8,})['"]/g;

/** `'~'`, `os.path.expanduser('~/x')`, `Path.home()`, `process.env.HOME` …: the path text a call is given, or null. */
function targetText(code: string, at: number): string | null {
  const rest = code.slice(at, at + 200);
  const literal = new RegExp(`^${STRING}`).exec(rest);
  if (literal !== null) return literal[1] ?? literal[2] ?? literal[3] ?? '';
  const expanded = new RegExp(String.raw`^(?:os\.path\.expanduser|File\.expand_path|Path)\s*\(\s*${STRING}`).exec(rest);
  if (expanded !== null) return expanded[1] ?? expanded[2] ?? expanded[3] ?? '';
  if (/^(?:Path\.home\(\)|os\.homedir\(\)|require\(['"](?:node:)?os['"]\)\.homedir\(\)|Dir\.home|process\.env\.HOME|process\.env\[['"]HOME['"]\]|os\.environ\[['"]HOME['"]\]|os\.getenv\(['"]HOME['"]\)|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|getenv\(['"]HOME['"]\))/.test(rest)) return '~';
  return null;
}

function stringArguments(code: string, at: number): string | null {
  const rest = code.slice(at, at + 2000);
  const list = /^\s*[[(]?\s*\[/.test(rest) ? /\[([^\]]*)\]/.exec(rest) : null;
  const strings = (text: string): string[] => [...text.matchAll(new RegExp(STRING, 'g'))].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  if (list !== null) return strings(list[1] ?? '').join(' ');
  const first = new RegExp(String.raw`^\s*\(?\s*(?:[\w.]+\s*,\s*)?${STRING}`).exec(rest);
  return first === null ? null : (first[1] ?? first[2] ?? first[3] ?? '');
}

export function readInterpreterCode(code: string, language: Language, scan: Scan): void {
  for (const match of code.matchAll(EXEC_CALLS[language])) {
    flag(scan, REASONS.interpreterExec);
    const command = stringArguments(code, (match.index ?? 0) + match[0].length);
    if (command !== null) scan.runShell(unescapeLiteral(command));
  }
  if (BACKTICK_EXEC.has(language)) {
    for (const match of code.matchAll(/`([^`]+)`/g)) {
      flag(scan, REASONS.interpreterExec);
      scan.runShell(match[1] as string);
    }
  }
  for (const match of code.matchAll(RECURSIVE_DELETE)) {
    const target = targetText(code, (match.index ?? 0) + match[0].length);
    if (/^(rmSync|rmdirSync|fs\.rm|fs\.promises\.rm|fsPromises\.rm|Deno\.remove)/.test(match[0]) && !/recursive\s*:\s*true/.test(code)) {
      if (target !== null) checkWriteTarget(target, scan);
      continue;
    }
    judgeRecursiveDelete(target === null ? [] : [target], scan);
  }
  for (const pattern of [FILE_DELETE, WRITE_CALLS]) {
    for (const match of code.matchAll(pattern)) {
      const target = targetText(code, (match.index ?? 0) + match[0].length);
      if (target !== null) checkWriteTarget(target, scan);
    }
  }
  for (const match of code.matchAll(OPEN_FOR_WRITE)) {
    const mode = match[4] ?? match[5] ?? match[6] ?? '';
    if (/[wax+]/.test(mode)) checkWriteTarget(match[1] ?? match[2] ?? match[3] ?? '', scan);
  }
  for (const match of code.matchAll(PERL_OPEN_WRITE)) checkWriteTarget(match[1] ?? match[2] ?? '', scan);
  for (const match of code.matchAll(PATH_WRITE)) checkWriteTarget(match[1] ?? match[2] ?? match[3] ?? '', scan);
  if (SOCKET.test(code) && SHELL_WIRING.test(code)) flag(scan, REASONS.remoteShell);
  if (NETWORK.test(code) && (WHOLE_ENVIRONMENT.test(code) || SECRET_FILES.test(code))) flag(scan, REASONS.exfiltration);
  if (FORK_LOOP.some((re) => re.test(code))) flag(scan, REASONS.forkBomb);
  if (KILL_ALL.test(code)) flag(scan, REASONS.killAll);
  if (DECODE_AND_RUN.test(code)) {
    flag(scan, REASONS.obfuscatedCode);
    for (const match of code.matchAll(BASE64_LITERAL)) {
      const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
      if (scan.depth < 4) {
        scan.depth += 1;
        readInterpreterCode(decoded, language, scan);
        scan.depth -= 1;
      }
    }
  }
}

function unescapeLiteral(text: string): string {
  return text.replace(/\\(["'\\`])/g, '$1').replace(/\\n/g, '\n');
}
