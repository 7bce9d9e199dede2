import { destroysData } from './specs/databases.js';
import { judgeFileDelete, judgeRecursiveDelete } from './specs/files.js';
import { REASONS } from './reasons.js';
import { flag, UNKNOWN, type Scan } from './scan.js';
import { checkWriteTarget, isSensitivePath } from './write-targets.js';

/**
 * Reads inline interpreter code (`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, `lua -e`, a heredoc
 * fed to one) for what would need approval in shell: running processes (the commands themselves are classified
 * too, so `os.system('rm -rf /')` stays hardline), recursive deletes judged by their target like `rm -rf`,
 * writes to protected paths, sockets wired to a shell, environment or key files sent over the network, code
 * fetched from the network and evaluated, and fork loops. It reads patterns, not the language: what it cannot place it leaves to the other rules.
 */
export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'r' | 'julia' | 'tcl' | 'groovy' | 'elisp' | 'elixir' | 'go' | 'generic';

const STRING = String.raw`(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|\x60((?:[^\x60\\]|\\.)*)\x60)`;
/** Calls that start a process, per language family; the first string argument is the command when literal. */
const EXEC_CALLS: Readonly<Record<Language, RegExp>> = {
  python: /(?:\bos|__import__\(\s*['"]os['"]\s*\))\.(?:system|popen|exec\w*|spawn\w*|posix_spawnp?)\s*\(|(?:\bsubprocess|__import__\(\s*['"]subprocess['"]\s*\))\.\w+\s*\(|\b(?:commands\.getoutput|pty\.spawn|asyncio\.create_subprocess_(?:shell|exec))\s*\(/g,
  node: /(?<![\w.$])(?:(?:child_process|cp|childProcess|require\(\s*['"](?:node:)?child_process['"]\s*\))\s*\.\s*)?(?:execSync|execFileSync|spawnSync|exec|execFile|spawn|fork)\s*\(|\bBun\.(?:spawn|spawnSync)\s*\(|\bDeno\.(?:run|Command)\s*\(|\bnew\s+Deno\.Command\s*\(|(?<![\w.])\$(?=`)|\bBun\.\$(?=`)|\bimport\(\s*['"](?:node:)?child_process['"]\s*\)/g,
  perl: /(?<![\w$>])(?:system|exec)\s*\(?|\bqx\s*[{(/|]/g,
  ruby: /(?<![\w.])(?:system|exec|spawn)\s*\(?|\b(?:IO\.popen|Open3\.\w+|Process\.spawn)\s*[({]?/g,
  php: /(?<![\w>])(?:system|exec|shell_exec|passthru|proc_open|popen|pcntl_exec)\s*\(/g,
  // Neovim's Lua API: `vim.fn.system({'rm', '-rf', p})`, `vim.system(…)`, `vim.fn.jobstart(…)`, `vim.uv.spawn(…)`.
  lua: /\b(?:os\.execute|io\.popen|vim\.fn\.(?:system|systemlist|jobstart|termopen)|vim\.system|vim\.(?:uv|loop)\.spawn)\s*\(/g,
  r: /\b(?:system2?|shell)\s*\(/g,
  julia: /\brun\s*\(\s*(?=`)/g,
  tcl: /(?<![\w$])(?:exec|spawn|open\s+"\|)\s*/g,
  groovy: /(?=(?:'[^']*'|"[^"]*")\.execute\(\))|\bRuntime\.getRuntime\(\)\.exec\s*\(|\bProcessBuilder\s*\(/g,
  elisp: /\((?:shell-command|async-shell-command|call-process-shell-command|start-process-shell-command)\s+/g,
  elixir: /(?<![\w.])(?:System\.cmd|System\.shell|:os\.cmd|Port\.open)\s*\(/g,
  go: /\bexec\.Command(?:Context)?\s*\(|\bsyscall\.(?:Exec|ForkExec)\s*\(|\bos\.StartProcess\s*\(/g,
  generic: /\b(?:system|exec|popen|spawn)\s*\(/g,
};
/** Backticks run a shell in these languages (in JavaScript they are template literals). */
const BACKTICK_EXEC = new Set<Language>(['perl', 'ruby', 'php']);

/** Deletes that take a directory tree; `needsFlag` ones only when the code says `recursive`. */
const RECURSIVE_DELETE = /\b(?:shutil\.rmtree|rmtree|remove_tree|rm_rf|rm_r|remove_dir|remove_entry_secure|rimraf(?:\.sync)?|deleteRecursively|FileUtils\.rm_rf|delete-directory)\s*\(?\s*/g;
const FLAGGED_DELETE = /(?:\b(?:rmSync|rmdirSync|removeSync|fs\.rm|fs\.promises\.rm|fsPromises\.rm|promises\.rm|Deno\.remove|Deno\.removeSync)|\brequire\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\)\.(?:rm|rmdir)|(?<![\w.])(?:rm|unlink))\s*\(\s*/g;
const RECURSIVE_FLAG = /recursive\s*[:=]\s*(true|TRUE|T)\b|delete-directory[^)]*\bt\)/;
const FILE_DELETE = /(?:\b(?:os\.remove|os\.unlink|unlinkSync|fs\.unlink|File\.delete|File\.unlink|File\.rm!?(?=\s*\()|FileUtils\.rm|file\.remove|delete-file|Path\([^)]*\)\.unlink)|(?<![\w.])unlink)\s*\(?\s*|['"]unlink['"]\s*,\s*/g;
/** An absolute or home path written in the code: the target of a delete whose argument is computed. */
const PATH_LITERAL = /['"]((?:\/|~\/)[^'"\s]*)['"]/g;
const WRITE_CALLS = /\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|file_put_contents|File\.write|IO\.write|Deno\.writeTextFile|Bun\.write)\s*\(\s*/g;
const OPEN_FOR_WRITE = new RegExp(String.raw`\b(?:open|File\.open|io\.open|fopen)\s*\(\s*(?:\w+\s*,\s*)?${STRING}\s*,\s*${STRING}`, 'g');
const PERL_OPEN_WRITE = /\bopen\s*\(?\s*(?:(?:my|our|local)\s+)?[\w$]+\s*,\s*(?:['"]>>?['"]\s*,\s*['"]([^'"]+)['"]|['"]>>?\s*([^'"]+)['"])/g;
/** `os.open('/dev/sda', os.O_WRONLY)`, `fs.openSync('/dev/sda', 'r+')`, `sysopen($d, '/dev/sda', O_WRONLY)`: a path opened for writing. */
const LOW_LEVEL_OPEN_WRITE = new RegExp(String.raw`\b(?:os\.open|(?:fs|require\(\s*['"](?:node:)?fs['"]\s*\))\.open(?:Sync)?|sysopen\s*\(?\s*(?:my\s+)?[\w$]+\s*,)\s*\(?\s*${STRING}\s*,\s*([^)]*)`, 'g');
/** `Path.home().joinpath('.bashrc').write_text('')`, `Path.home() / '.ssh' / 'config'` then a write: the path the calls build. */
const PATH_OBJECT_WRITE = new RegExp(String.raw`\b((?:pathlib\.)?Path(?:\.home\(\s*\)|\(\s*${STRING}\s*\))(?:\s*\/\s*${STRING}|\s*\.\s*joinpath\(\s*${STRING}(?:\s*,\s*${STRING})*\s*\))*)\s*\)?\s*\.\s*(?:write_text|write_bytes|touch|unlink|symlink_to|hardlink_to)\s*\(`, 'g');
const PATH_WRITE = new RegExp(String.raw`\bPath\(\s*${STRING}\s*\)\s*\.\s*(?:write_text|write_bytes|touch|unlink|rmdir)`, 'g');
/** Node's fs module however it is reached: `fs.`, `fsp.`, `require("fs").`, `require('node:fs/promises').`. */
const NODE_FS = String.raw`(?:\bfsp?|\bpromises|require\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\))\.`;
/**
 * File operations that take paths and have a shell twin, judged as that command on the paths the code names:
 * `shutil.move('/etc/nginx', …)` is `mv /etc/nginx …` (the source is gone from where it was), `os.symlink(x,
 * '/etc/ld.so.preload')` is `ln -sf`, `shutil.copy(x, '/etc/hosts')` is `cp`, `os.truncate('/var/log/syslog', 0)`
 * empties the file as `truncate -s 0` does. `paths` is how many leading arguments are paths.
 */
const PATH_OPERATIONS: ReadonlyArray<{ call: RegExp; argv: readonly string[]; paths: number }> = [
  { call: new RegExp(String.raw`(?:\b(?:shutil\.move|os\.renames?|os\.replace|File\.rename|FileUtils\.(?:mv|move)|Deno\.rename(?:Sync)?)|${NODE_FS}rename(?:Sync)?|(?<![\w.$>])rename)\s*\(?\s*`, 'g'), argv: ['mv'], paths: 2 },
  { call: new RegExp(String.raw`(?:\b(?:os\.(?:sym)?link|File\.(?:sym)?link|FileUtils\.ln(?:_sf?|_s)?|Deno\.(?:sym)?link(?:Sync)?|File\.ln_s!?)|${NODE_FS}(?:sym)?link(?:Sync)?|(?<![\w.$>])symlink)\s*\(?\s*`, 'g'), argv: ['ln', '-sf'], paths: 2 },
  { call: new RegExp(String.raw`(?:\b(?:shutil\.(?:copy2?|copyfile|copytree)|FileUtils\.(?:cp|cp_r|copy)|File\.cp(?:_r)?!?|Deno\.copyFile(?:Sync)?)|${NODE_FS}(?:copyFile|cp)(?:Sync)?)\s*\(\s*`, 'g'), argv: ['cp', '-r'], paths: 2 },
  { call: new RegExp(String.raw`(?:\b(?:os\.truncate|File\.truncate|Deno\.truncate(?:Sync)?)|${NODE_FS}truncate(?:Sync)?|(?<![\w.$>])truncate)\s*\(\s*`, 'g'), argv: ['truncate', '-s', '0'], paths: 1 },
];
/**
 * `conn.execute("DROP TABLE users")`, `db.exec('DELETE FROM t')`, `$dbh->do("TRUNCATE t")`: SQL handed to a
 * database driver runs; the same text printed (`print("DROP TABLE t")`) is data.
 */
const SQL_CALL = new RegExp(String.raw`(?:\.|->)(?:execute|executescript|executemany|exec|query|run|do|prepare|raw|sql)\s*\(\s*${STRING}`, 'g');
/** `p.unlink()`, `f.rmdir()`: a path object deleting itself, whose path is the loop variable's. */
const SELF_DELETE = /\b([A-Za-z_]\w*)\.(?:unlink|rmdir|delete)\s*\(\s*(?:missing_ok\s*=\s*\w+\s*)?\)/g;

const SOCKET = /\b(?:socket\.socket|socket\.create_connection|net\.(?:connect|createConnection|Socket)|new\s+net\.Socket|TCPSocket|fsockopen|IO::Socket|Socket\.tcp|socket\s*\(\s*[A-Z])/;
const SHELL_WIRING = /\b(?:pty\.spawn|os\.dup2|subprocess|child_process|spawn\s*\(|exec\s*\(|proc_open|STDIN->fdopen|cmd\.exe)|\/bin\/(?:ba|z|da)?sh\b/;
const NETWORK = /\b(?:requests\.(?:post|put|get|patch)|urllib|urlopen|http\.client|httpx|aiohttp|fetch\s*\(|axios|https?\.request|https?\.get|Net::HTTP|HTTParty|Faraday|curl_exec|LWP::|HTTP::Tiny|XMLHttpRequest|smtplib|ftplib|socket\.|net\.connect|TCPSocket|fsockopen)/;
const WHOLE_ENVIRONMENT = /\b(?:dict\(\s*os\.environ\s*\)|os\.environ(?!\s*[.[])|process\.env(?!\s*[.[])|JSON\.stringify\(\s*process\.env|ENV\.to_h|%ENV|\$_ENV|\$_SERVER|getenv\(\s*\)|Deno\.env\.toObject)/;
const SECRET_FILES = /(\.ssh\/(id_[\w-]+|[\w-]+_key)(?!\.pub)|\.aws\/credentials|\.netrc|\.git-credentials|\.pgpass|\.kube\/config|\/etc\/g?shadow|(^|['"/])\.env(\.\w+)?['"])/;
const FORK = String.raw`\b(?:os\.fork|fork|pcntl_fork|Process\.fork|cluster\.fork|Process\s*\(\s*target)\b`;
/**
 * The running program itself: `os.Args[0]`, `sys.argv[0]`, `__filename`, `$0`, node's `process.execArgv` (under
 * `node -e CODE` it is `['-e', CODE]`: the same code again) (the interpreter alone, `sys.executable`,
 * is not: a loop starting plain interpreters that do not replicate is a fork loop, not a bomb).
 */
const SELF_PROGRAM = String.raw`(?:os\.Args\[0\]|sys\.argv\[0\]|process\.argv\[1\]|(?:\.\.\.)?process\.execArgv\b|__filename|__file__|\$0\b|\$PROGRAM_NAME|std::env::current_exe\(\))`;
/** A loop with no bound: `while True:`, `for(;;)`, Go's `for {`, Rust's `loop {`, `for _ in itertools.count():`, `5.times`. */
const ENDLESS_LOOP = String.raw`(?:while\s*\(?\s*(?:True|1|true|:)\s*\)?\s*:?\s*\{?|loop\s*(?:do|\{)|for\s*\(\s*;\s*;\s*\)|(?<![\w.])for\s*\{|for\s+\w+\s+in\s+(?:itertools\.)?(?:count|cycle|repeat)\s*\([^)]*\)\s*:|for\s+\w+\s+in\s+iter\s*\(\s*\w+\s*,[^)]*\)\s*:|\d+\.times)`;
const FORK_LOOP = [
  new RegExp(String.raw`${ENDLESS_LOOP}[\s\S]{0,120}?${FORK}`),
  // `for { exec.Command(os.Args[0]).Start() }`, `while True: subprocess.Popen([sys.executable, sys.argv[0]])`: an
  // endless loop that starts the program itself again, each copy doing the same.
  new RegExp(String.raw`${ENDLESS_LOOP}[\s\S]{0,160}?(?:spawn|fork|exec|Command|StartProcess|ForkExec|Popen|run|system)\w*\s*\(\s*\[?\s*(?:[\w.]+\s*,\s*\[?\s*)?${SELF_PROGRAM}`),
  // `[os.fork() for _ in itertools.count()]`, `… in iter(int, 1)`: a comprehension over an endless iterator.
  new RegExp(String.raw`${FORK}\s*\(\)[\s\S]{0,60}\bfor\b[\s\S]{0,40}(?:\bitertools\.(?:count|cycle|repeat)\(|\biter\s*\(\s*\w+\s*,)`),
  // Statement modifiers: `fork while true`, `fork while fork`, `fork until 0`.
  /\bfork(?:\(\))?\s+(?:while\s+(?:true|1|fork)|until\s+(?:false|0|nil))\b/,
  /\bwhile\s*\(?\s*fork\b/,
];
/** The program starting another copy of itself (`spawn(process.execPath, [__filename])`): twice is a fork bomb. */
const SELF_SPAWN = /\b(?:spawn|fork|exec|execFile|spawnSync|Popen|run)\w*\s*\(\s*(?:process\.execPath|process\.argv\[0\]|sys\.executable)\s*,\s*\[?\s*(?:__filename|process\.argv\[1\]|__file__|sys\.argv\[0\])/g;
/** `os.chmod('/etc/passwd', 0o777)`, `fs.chmodSync(…)`, `File.chmod(…)`: judged by the path, like chmod. */
const PERMISSION_CALLS = /(?:\b(?:os\.chmod|os\.chown|os\.lchown|shutil\.chown|(?:fs|require\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\))\.(?:chmod|chown|lchown)(?:Sync)?|File\.chmod|File\.chown|FileUtils\.chmod(?:_R)?|FileUtils\.chown(?:_R)?|Deno\.chmod(?:Sync)?)|(?<![\w.])chmod|(?<![\w.])chown)\s*\(\s*(?:[0-7]+\s*,\s*)?/g;
/** A signal spelled as SIGKILL: `9`, `signal.SIGKILL`, `'SIGKILL'`, `"KILL"`, `:KILL`, `-9` (perl's group form). */
const SIGKILL_ARG = String.raw`(?:-?9|(?:signal\.|Signal\.|POSIX::)?SIGKILL|['"](?:SIG)?KILL['"]|:KILL)`;
/**
 * Every process, or SIGKILL to init: pid first (`os.kill(-1, …)`, `process.kill(-1)`, `posix_kill(-1, …)`,
 * `os.kill(1, 9)`), or signal first (Ruby's `Process.kill(sig, -1)`, Perl's `kill 9, -1` / `kill('KILL', 1)`).
 */
const KILL_ALL: readonly RegExp[] = [
  /\b(?:os\.kill|process\.kill|posix_kill)\s*\(\s*-1\s*[,)]/,
  new RegExp(String.raw`\b(?:os\.kill|process\.kill|posix_kill)\s*\(\s*1\s*,\s*${SIGKILL_ARG}\s*\)`),
  /\bProcess\.kill\s*\(\s*[^,()]+,\s*(?:[^)]*,\s*)?-1\s*[,)]/,
  new RegExp(String.raw`\bProcess\.kill\s*\(\s*${SIGKILL_ARG}\s*,\s*1\s*\)`),
  /(?<![\w.$>])kill\s*\(?\s*['"]?-?\w+['"]?\s*(?:,|=>)\s*(?:[^;)]*,\s*)?-1\b/,
  new RegExp(String.raw`(?<![\w.$>])kill\s*\(?\s*${SIGKILL_ARG}\s*(?:,|=>)\s*1\s*[;)]?\s*$`, 'm'),
];
/** Code that lists every process (`os.listdir('/proc')`, `psutil.process_iter()`, `readdirSync('/proc')`, `Dir.glob('/proc/*')`). */
const EVERY_PROCESS = /\blistdir\s*\(\s*['"]\/proc\/?['"]|\bglob\s*\(\s*['"]\/proc\/|\breaddirSync\s*\(\s*['"]\/proc\/?['"]|\bDir\.(?:glob|entries|children|each_child)\s*\(\s*['"]\/proc|\bpsutil\.(?:process_iter|pids)\s*\(|\bopendir\s*\([^)]*['"]\/proc\/?['"]/;
/** …narrowed by what the process is (its name, command line, owner). */
const PROCESS_FILTER = /\.(?:name|cmdline|username|exe|uids)\s*\(|\.info\s*\[|\/proc\/[^'"]*\/(?:comm|cmdline|status)/;
const KILL_CALL = /\b(?:os\.kill|os\.killpg|process\.kill|Process\.kill|posix_kill|signal\.pthread_kill)\s*\(|(?<![\w.$>])kill\s*\(?\s*['"]?-?\w+['"]?\s*(?:,|=>)\s*\$?\w/;
const DECODE_AND_RUN = /\b(?:exec|eval|system|Function)\s*\([^;\n]{0,80}?(?:b64decode|atob|Buffer\.from\([^)]*base64|decode\(\s*['"]base64|unpack\s*\(?\s*['"]m|base64_decode|decode64|codecs\.decode)/;
/** What fetches text from the network in these languages (the argument of an eval that runs downloaded code). */
const FETCHED = String.raw`(?:\burlopen\s*\(|\burllib\.request\.|\b(?:requests|httpx)\.get\s*\(|\bfetch\s*\(|\bhttps?\.get\s*\(|\bNet::HTTP\.get|\bURI\.open\s*\(|\bURI\.parse\([^)]*\)\.read|\bopen\s*\(\s*['"]https?:|\bfile_get_contents\s*\(\s*['"]https?:|\bcurl_exec\s*\(|\bLWP::Simple::get|\bget\s*\(\s*['"]https?:|\bHTTP::Tiny->new->get)`;
/**
 * `exec(urlopen(URL).read())`, `eval(await (await fetch(URL)).text())`, `fetch(URL).then(r => r.text()).then(eval)`,
 * `code = requests.get(URL).text; exec(code)`: code downloaded and run, as `curl … | sh` is.
 */
const RUNS_FETCHED: readonly RegExp[] = [
  new RegExp(String.raw`(?<![\w.])(?:exec|eval|Function|instance_eval|load|loadstring|eval_string)\s*\(\s*(?:await\s*)?[^;\n]{0,160}?${FETCHED}`),
  /\.then\s*\(\s*(?:eval|Function)\s*\)/,
];
const FETCHED_INTO = new RegExp(String.raw`\b([A-Za-z_]\w*)\s*=\s*(?:await\s+)?[^;\n=]{0,80}?${FETCHED}`, 'g');

const BASE64_LITERAL = /(?:b64decode|atob|Buffer\.from|base64_decode|decode64|unpack\s*\(?\s*['"]m['"]\s*,)\s*\(?\s*b?['"]([A-Za-z0-9+/=]{8,})['"]/g;

/** The home directory as code spells it: `Path.home()`, `os.homedir()`, `process.env.HOME`, `getenv("HOME")` … */
const HOME_EXPRESSION = /^(?:(?:pathlib\.)?Path\.home\(\)|os\.homedir\(\)|require\(['"](?:node:)?os['"]\)\.homedir\(\)|Dir\.home|process\.env\.HOME|process\.env\[['"]HOME['"]\]|os\.environ\[['"]HOME['"]\]|os\.getenv\(['"]HOME['"]\)|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|getenv\(['"]HOME['"]\)|Deno\.env\.get\(['"]HOME['"]\)|Sys\.getenv\(['"]HOME['"]\)|path\.expand\(['"]~['"]\)|vim\.env\.HOME|vim\.(?:uv|loop)\.os_homedir\(\)|homedir\(\))/;

/** `'~'`, `os.path.expanduser('~/x')`, `Path.home()`, `process.env.HOME` …: the path text a call is given, or null. */
function targetText(code: string, at: number): string | null {
  const rest = code.slice(at, at + 200);
  const literal = new RegExp(`^${STRING}`).exec(rest);
  if (literal !== null) return literal[1] ?? literal[2] ?? literal[3] ?? '';
  const expanded = new RegExp(String.raw`^(?:os\.path\.expanduser|File\.expand_path|(?:pathlib\.)?Path)\s*\(\s*${STRING}`).exec(rest);
  if (expanded !== null) return expanded[1] ?? expanded[2] ?? expanded[3] ?? '';
  // `path.join(os.homedir(), '.npmrc')`, `os.path.join('/etc', 'x')`: a joined path is its first part and literal rest.
  const join = /^(?:require\(\s*['"](?:node:)?path['"]\s*\)|\bpath|os\.path|File)\.(?:join|resolve)\s*\(\s*/.exec(rest);
  if (join !== null) {
    const parts = argumentWords(callTail(rest.slice(join[0].length)));
    const [first, ...tail] = parts;
    if (first === undefined || first === UNKNOWN || tail.some((p) => p.includes(UNKNOWN) || p.startsWith("'"))) return null;
    return [first.replace(/\/+$/, ''), ...tail.map((p) => p.replace(/^\/+|\/+$/g, ''))].join('/');
  }
  // `Dir.glob("tmp/*")`, `Dir["tmp/*"]`, `glob.glob('/var/tmp/*')`: the pattern is the paths.
  const glob = /^(?:Dir\.glob\s*\(|Dir\s*\[|glob\.i?glob\s*\(|(?<![\w.])glob\s*\()\s*/.exec(rest);
  if (glob !== null) return targetText(rest, glob[0].length);
  const home = HOME_EXPRESSION.exec(rest);
  if (home === null) return null;
  // `$ENV{HOME} . "/.cpan"`, `os.homedir() + '/x'`, `Path.home() / 'x'`, `os.path.join(HOME, 'x')`
  const joined = new RegExp(String.raw`^\s*\)?\s*(?:\+|\.|\/|,)\s*${STRING}`).exec(rest.slice(home[0].length));
  const tail = joined === null ? '' : (joined[1] ?? joined[2] ?? joined[3] ?? '').replace(/^\/+/, '');
  return tail === '' ? '~' : `~/${tail}`;
}

/**
 * `[shutil.rmtree(p) for p in Path.home().iterdir()]`, `for f in os.listdir('/srv'): os.remove(f)`: a delete whose
 * argument is the variable of a loop over a directory's entries deletes `DIR/*`. A condition on the entries other
 * than their kind (`if p.is_dir()`) narrows them to names the detector cannot know: `DIR/<unknown>`.
 */
function loopTarget(code: string, at: number): string | null {
  const name = /^\s*\(?\s*([A-Za-z_]\w*)\b(?:\.path\b)?\s*[,)]/.exec(code.slice(at, at + 80))?.[1];
  return name === undefined ? null : loopVariableTarget(code, name);
}

/** What a loop variable ranges over, as a path pattern (`DIR/*`, `DIR/*.log`, `DIR/<unknown>`), or null. */
function loopVariableTarget(code: string, name: string): string | null {
  const loop = new RegExp(String.raw`\bfor\s+${name}\s+in\s+([^\n;\]]{1,200})`).exec(code);
  if (loop === null) return null;
  const iterable = loop[1] as string;
  const entries = /^(.{1,120}?)\.(?:iterdir\(\s*\)|(r?)glob\(\s*['"]([^'"/]*)['"]\s*\))/.exec(iterable);
  const listed = entries === null ? /^(?:os\.(?:listdir|scandir)|glob\.i?glob)\s*\(\s*/.exec(iterable) : null;
  const dir = entries !== null ? targetText(entries[1] as string, 0) : listed === null ? null : targetText(iterable, listed[0].length);
  if (dir === null) return null;
  // `.glob('*.log')` is those names in DIR; `.rglob('*.log')` those at every depth below it.
  const names = `${entries?.[2] === 'r' ? '**/' : ''}${entries?.[3] ?? '*'}`;
  const pattern = listed?.[0].startsWith('glob') === true ? dir : `${dir.replace(/\/+$/, '')}/${names}`;
  const condition = /\bif\b(.*)$/.exec(iterable.slice((entries ?? listed)?.[0].length ?? 0))?.[1];
  const onlyKind = condition === undefined || /^\s*(?:not\s+)?\w+\.(?:is_dir|is_file|is_symlink|exists)\(\s*\)\s*(?::.*)?$|^\s*os\.path\.(?:isdir|isfile|exists)\(\s*\w+\s*\)\s*(?::.*)?$/.test(condition);
  return onlyKind ? pattern : pattern.replace(/\*$/, UNKNOWN);
}

function stringArguments(code: string, at: number, language: Language): string | null {
  const rest = code.slice(at, at + 2000);
  const list = /^\s*[[(]?\s*\[/.test(rest) ? /\[([^\]]*)\]/.exec(rest) : null;
  // Lua writes an argv list as a table: `vim.fn.system({'rm', '-rf', p})`.
  const table = list === null && language === 'lua' && /^\s*\(?\s*\{/.test(rest) ? /\{([^}]*)\}/.exec(rest) : null;
  if (table !== null) return argumentWords(table[1] ?? '').join(' ');
  if (list !== null) return argumentWords(list[1] ?? '').join(' ');
  const first = new RegExp(String.raw`^\s*\(?\s*(?:[\w.]+\s*,\s*)?${STRING}`).exec(rest);
  if (first === null) return null;
  const joined = concatenation(rest.slice(first[0].length));
  // `Bun.$\`rm -rf ${process.env.HOME}\``, `execSync(\`rm -rf ${dir}\`)`: a template literal's `${…}` is its value.
  const literal = first[3] !== undefined && language === 'node' ? interpolated(first[3]) : (first[1] ?? first[2] ?? first[3] ?? '');
  const command = literal + joined.text;
  const after = joined.rest;
  // `spawn("sh", ["-c", "reboot"])`, `execFile('rm', ['-rf', '/'])`: the argument list follows the program.
  // `new Deno.Command("sh", { args: ["-c", "…"] })`: the list as an options object's `args`.
  const argList = /^\s*,\s*\[([^\]]*)\]/.exec(after) ?? /^\s*,\s*\{\s*args\s*:\s*\[([^\]]*)\]/.exec(after);
  if (argList !== null) return [command, ...argumentWords(argList[1] ?? '')].join(' ');
  // `system('rm', '-rf', Dir.home)`, `system('rm','-rf','/')`: the program's arguments as further arguments.
  if (/^\s*,/.test(after)) return [command, ...argumentWords(callTail(after))].join(' ');
  return command;
}

/** A JavaScript template literal's text with each `${expr}` as its value: a string literal, the home as `~`, else unknown. */
function interpolated(template: string): string {
  return template.replace(/\$\{([^{}]*)\}/g, (_, expr: string) => {
    const trimmed = expr.trim();
    const literal = new RegExp(`^${STRING}$`).exec(trimmed);
    if (literal !== null) return literal[1] ?? literal[2] ?? literal[3] ?? '';
    const home = HOME_EXPRESSION.exec(trimmed);
    return home !== null && home[0].length === trimmed.length ? '~' : UNKNOWN;
  });
}

/**
 * `"rm -rf " . getenv("HOME")`, `'rm -rf ' + os.homedir()`, `"rm -rf " .. os.getenv("HOME")`: what a string literal
 * is joined to. More literals are their text, the home directory is `~`, anything else is UNKNOWN (and ends it).
 */
function concatenation(after: string): { text: string; rest: string } {
  let text = '';
  let rest = after;
  for (let joins = 0; joins < 8; joins += 1) {
    const operator = /^\s*(?:\.\.|\.(?![\w(])|\+|<>)\s*/.exec(rest);
    if (operator === null) break;
    const next = rest.slice(operator[0].length);
    const literal = new RegExp(`^${STRING}`).exec(next);
    const home = literal === null ? HOME_EXPRESSION.exec(next) : null;
    if (literal !== null) text += literal[1] ?? literal[2] ?? literal[3] ?? '';
    else if (home !== null) text += '~';
    else return { text: text + UNKNOWN, rest: next };
    rest = next.slice((literal ?? home)?.[0].length ?? 0);
  }
  return { text, rest };
}

/** The rest of a call's arguments: up to the `)` that closes it, or the end of the statement. */
function callTail(text: string): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth += 1;
    else if (')]}'.includes(c)) {
      if (depth === 0) return text.slice(0, i);
      depth -= 1;
    } else if ((c === ';' || c === '\n') && depth === 0) return text.slice(0, i);
  }
  return text;
}

/**
 * Each argument of a list as a shell word: a string literal quoted as itself, the home directory (`Dir.home`,
 * `os.homedir()`, `$ENV{HOME}`) as `~`, anything else as unknown (never dropped, so a target stays a target).
 */
function argumentWords(list: string): string[] {
  return splitArguments(list).map((item) => {
    const literal = new RegExp(String.raw`^${STRING}$`).exec(item);
    if (literal !== null) return quoteForShell(literal[1] ?? literal[2] ?? (literal[3] === undefined ? '' : interpolated(literal[3])));
    const target = targetText(item, 0);
    return target !== null && /^~(\/[\w.@%+=:,/-]*)?$/.test(target) ? target : UNKNOWN;
  });
}

/** A call's argument list cut at its top-level commas, each argument as written. */
function splitArguments(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i <= list.length; i += 1) {
    const c = list[i];
    if (c === undefined || (c === ',' && depth === 0 && quote === null)) {
      const item = list.slice(start, i).trim();
      if (item !== '') items.push(item);
      start = i + 1;
      continue;
    }
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth += 1;
    else if (')]}'.includes(c)) depth -= 1;
  }
  return items;
}

export function readInterpreterCode(source: string, language: Language, scan: Scan): void {
  // `exec('import os\nwhile 1: os.fork()')`: escaped newlines inside a literal are lines of code too.
  const lines = source.replace(/\\n/g, '\n');
  // `"$ENV{HOME}/.cache/*"` (Perl), `"#{Dir.home}/.cache"` (Ruby): the home interpolated at a string's start is `~`.
  const code = (language === 'python' ? unaliasPython(lines) : lines).replace(/"(?:\$ENV\{HOME\}|#\{(?:Dir\.home|ENV\[['"]HOME['"]\])\})/g, '"~');
  for (const match of code.matchAll(EXEC_CALLS[language])) {
    flag(scan, REASONS.interpreterExec);
    const at = (match.index ?? 0) + match[0].length;
    const literal = language === 'tcl' ? null : nonEmpty(stringArguments(code, at, language));
    // `system(['726d…'].pack('H*'))`: an argument list that is only unknown may still be a decoded literal.
    const command = language === 'tcl' ? (/^[^\n;\]]*/.exec(code.slice(at))?.[0] ?? null) : literal === null || literal === UNKNOWN ? (decodedArgument(code, at) ?? literal) : literal;
    if (command !== null) scan.runShell(unescapeLiteral(command));
  }
  if (BACKTICK_EXEC.has(language)) {
    for (const match of code.matchAll(/`([^`]+)`/g)) {
      flag(scan, REASONS.interpreterExec);
      scan.runShell(match[1] as string);
    }
  }
  // Ruby's `%x(cmd)`, `%x{cmd}`, `%x[cmd]`, `%x|cmd|`: backticks by another name.
  if (language === 'ruby') {
    for (const match of code.matchAll(/%x(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\]|\|([^|]*)\|)/g)) {
      flag(scan, REASONS.interpreterExec);
      scan.runShell(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
    }
  }
  const literalPaths = (): string[] => [...code.matchAll(PATH_LITERAL)].map((m) => m[1] as string);
  const recursive = RECURSIVE_FLAG.test(code);
  // Tcl's `file delete -force DIR` removes a directory and everything in it (`file delete` alone only empty ones, or files).
  if (language === 'tcl') {
    for (const match of code.matchAll(/\bfile\s+delete\s+((?:-force\s+)?)(?:--\s+)?("[^"]*"|\S+)/g)) {
      const target = (match[2] as string).replace(/^"(.*)"$/, '$1').replace(/\$(?:::)?env\(HOME\)/g, '~').replace(/[\];]+$/, '');
      if (match[1] === '') judgeFileDelete(target, scan);
      else judgeRecursiveDelete([target], scan);
    }
  }
  for (const match of [...code.matchAll(RECURSIVE_DELETE), ...(recursive ? code.matchAll(FLAGGED_DELETE) : [])]) {
    const at = (match.index ?? 0) + match[0].length;
    const target = targetText(code, at) ?? loopTarget(code, at);
    judgeRecursiveDelete(target === null ? literalPaths() : [target], scan);
  }
  for (const match of [...code.matchAll(FILE_DELETE), ...(recursive ? [] : code.matchAll(FLAGGED_DELETE))]) {
    const at = (match.index ?? 0) + match[0].length;
    const target = targetText(code, at) ?? loopTarget(code, at);
    // `os.remove(p) for p in glob.glob('/var/tmp/*.lock')`: the paths the code names are what it deletes.
    for (const path of target === null ? literalPaths() : [target]) judgeFileDelete(path, scan);
  }
  for (const match of code.matchAll(SELF_DELETE)) {
    const target = loopVariableTarget(code, match[1] as string);
    if (target !== null) judgeFileDelete(target, scan);
  }
  for (const { call, argv, paths } of PATH_OPERATIONS) {
    for (const match of code.matchAll(call)) {
      const words = splitArguments(callTail(code.slice((match.index ?? 0) + match[0].length))).slice(0, paths);
      if (words.length < paths) continue;
      const targets = words.map((word) => targetText(word, 0) ?? UNKNOWN);
      // Nothing the code names is known (`shutil.move(src, dst)`): there is nothing to judge it by.
      if (targets.every((t) => t.includes(UNKNOWN))) continue;
      scan.runArgv([...argv, ...targets]);
    }
  }
  for (const match of code.matchAll(SQL_CALL)) if (destroysData(match[1] ?? match[2] ?? match[3] ?? '')) flag(scan, REASONS.sqlDrop);
  for (const match of code.matchAll(WRITE_CALLS)) {
    const target = targetText(code, (match.index ?? 0) + match[0].length);
    if (target !== null) checkWriteTarget(target, scan);
  }
  for (const match of code.matchAll(OPEN_FOR_WRITE)) {
    const mode = match[4] ?? match[5] ?? match[6] ?? '';
    if (/[wax+]/.test(mode)) checkWriteTarget(match[1] ?? match[2] ?? match[3] ?? '', scan);
  }
  for (const match of code.matchAll(PERMISSION_CALLS)) {
    const target = targetText(code, (match.index ?? 0) + match[0].length);
    if (target !== null && isSensitivePath(target, scan)) flag(scan, REASONS.systemPerms);
  }
  for (const match of code.matchAll(PERL_OPEN_WRITE)) checkWriteTarget(match[1] ?? match[2] ?? '', scan);
  for (const match of code.matchAll(PATH_WRITE)) checkWriteTarget(match[1] ?? match[2] ?? match[3] ?? '', scan);
  for (const match of code.matchAll(LOW_LEVEL_OPEN_WRITE)) {
    const flags = match[4] ?? '';
    if (/O_WRONLY|O_RDWR|O_APPEND|O_TRUNC|O_CREAT|['"][rwa]\+?['"]|['"]w|['"]a/.test(flags) && !/^\s*['"]r['"]\s*$/.test(flags)) checkWriteTarget(match[1] ?? match[2] ?? match[3] ?? '', scan);
  }
  for (const match of code.matchAll(PATH_OBJECT_WRITE)) {
    const target = pathObjectText(match[1] as string);
    if (target !== null) checkWriteTarget(target, scan);
  }
  if (SOCKET.test(code) && SHELL_WIRING.test(code)) flag(scan, REASONS.remoteShell);
  // A raw socket is a network sender too: `IO::Socket::INET->new(…)` printing `~/.aws/credentials` down it.
  if ((NETWORK.test(code) || SOCKET.test(code)) && (WHOLE_ENVIRONMENT.test(code) || SECRET_FILES.test(code))) flag(scan, REASONS.exfiltration);
  if (FORK_LOOP.some((re) => re.test(code)) || [...code.matchAll(SELF_SPAWN)].length >= 2) flag(scan, REASONS.forkBomb);
  const killsEveryListed = EVERY_PROCESS.test(code) && !PROCESS_FILTER.test(code) && (KILL_CALL.test(code) || /\.(?:kill|terminate|send_signal)\s*\(/.test(code));
  if (KILL_ALL.some((re) => re.test(code)) || killsEveryListed) flag(scan, REASONS.killAll);
  else if (KILL_CALL.test(code) || (/\bpsutil\b/.test(code) && /\.(?:kill|terminate|send_signal)\s*\(/.test(code))) flag(scan, REASONS.killProcesses);
  const fetchedNames = [...code.matchAll(FETCHED_INTO)].map((m) => m[1] as string);
  const runsFetchedName = fetchedNames.some((name) => new RegExp(String.raw`(?<![\w.])(?:exec|eval|Function)\s*\(\s*${name}\b`).test(code));
  if (RUNS_FETCHED.some((re) => re.test(code)) || runsFetchedName) flag(scan, REASONS.pipeToShell);
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

/** `Path.home().joinpath('.ssh', 'config')`, `Path('/etc') / 'hosts'`: the path as text (home as `~`), or null. */
function pathObjectText(expression: string): string | null {
  const parts = [...expression.matchAll(new RegExp(STRING, 'g'))].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  const fromHome = /^(?:pathlib\.)?Path\.home\(/.test(expression);
  const [first, ...rest] = fromHome ? ['~', ...parts] : parts;
  if (first === undefined) return null;
  return [first.replace(/\/+$/, ''), ...rest.map((p) => p.replace(/^\/+|\/+$/g, ''))].join('/');
}

const nonEmpty = (text: string | null): string | null => (text === '' ? null : text);

/**
 * Hex-decoded literals, per language: Perl's `pack("H*", "726d…")`, Python's `bytes.fromhex('726d…').decode()` (and
 * `bytearray.fromhex`, `binascii.unhexlify`, `codecs.decode(…, 'hex')`), Node's `Buffer.from('726d…', 'hex')`, Ruby's `['726d…'].pack('H*')`.
 */
const HEX_DECODED: readonly RegExp[] = [
  /^\s*\(?\s*pack\s*\(?\s*['"]H\*['"]\s*,\s*['"]([0-9a-fA-F]+)['"]/,
  /^\s*\(?\s*(?:bytes|bytearray)\.fromhex\(\s*['"]([0-9a-fA-F\s]+)['"]\s*\)/,
  /^\s*\(?\s*(?:binascii\.)?(?:unhexlify|a2b_hex)\(\s*b?['"]([0-9a-fA-F]+)['"]\s*\)/,
  /^\s*\(?\s*codecs\.decode\(\s*b?['"]([0-9a-fA-F]+)['"]\s*,\s*['"]hex['"]/,
  /^\s*\(?\s*Buffer\.from\(\s*['"]([0-9a-fA-F]+)['"]\s*,\s*['"]hex['"]\s*\)/,
  /^\s*\(?\s*\[\s*['"]([0-9a-fA-F]+)['"]\s*\]\.pack\(\s*['"]H\*['"]\s*\)/,
];

/** `os.system(base64.b64decode('cm0gLXJmIH4=').decode())`: a command that is a decoded literal. */
function decodedArgument(code: string, at: number): string | null {
  const rest = code.slice(at, at + 400);
  // `system(pack("H*", "726d…"))` (Perl hex), `os.system(''.join(map(chr, [114, 109, …])))` (character codes).
  const hex = HEX_DECODED.map((re) => re.exec(rest)).find((m) => m !== null) ?? null;
  if (hex !== null) return Buffer.from((hex[1] as string).replace(/\s+/g, ''), 'hex').toString('utf8');
  const codes = /^\s*\(?\s*(?:''|"")\.join\(\s*map\(\s*chr\s*,\s*\[([\d\s,]+)\]/.exec(rest) ?? /^\s*\(?\s*bytes\(\s*\[([\d\s,]+)\]\s*\)\.decode\(/.exec(rest);
  if (codes !== null) return String.fromCharCode(...(codes[1] as string).split(',').map((n) => Number(n.trim())).filter((n) => Number.isInteger(n)));
  const literal = new RegExp(String.raw`^\s*\(?\s*[\w.]*(?:b64decode|atob|decode64|base64_decode|Buffer\.from)\s*\(\s*b?${STRING}`).exec(code.slice(at, at + 400));
  const text = literal === null ? undefined : (literal[1] ?? literal[2] ?? literal[3]);
  return text === undefined ? null : Buffer.from(text, 'base64').toString('utf8');
}

/** One argv word as shell text, so `sh -c 'a b'` stays one argument when the joined line is parsed. */
/**
 * `import subprocess as sp; sp.Popen(…)`, `from subprocess import run; run(…)`, `import shutil as sh`: calls
 * through an alias or a bare imported name are spelled with the module, so the readers above see them.
 */
function unaliasPython(code: string): string {
  let out = code;
  for (const match of code.matchAll(/\bimport\s+(os|subprocess|shutil|signal)\s+as\s+(\w+)/g)) {
    out = out.replace(new RegExp(String.raw`(?<![\w.])${match[2] as string}\.`, 'g'), `${match[1] as string}.`);
  }
  for (const match of code.matchAll(/\bfrom\s+(os|subprocess|shutil)\s+import\s+([\w\s,]+)/g)) {
    for (const name of (match[2] as string).split(',').map((n) => n.trim().split(/\s+/)[0] ?? '').filter((n) => /^\w+$/.test(n))) {
      out = out.replace(new RegExp(String.raw`(?<![\w.])${name}\s*\(`, 'g'), `${match[1] as string}.${name}(`);
    }
  }
  return out;
}

function quoteForShell(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function unescapeLiteral(text: string): string {
  // `os.system("\x72\x6d -rf /")`: hex, octal and unicode escapes in the literal spell the command.
  return text
    .replace(/\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\([0-7]{3})/g, (_, hex: string | undefined, uni: string | undefined, oct: string | undefined) => String.fromCharCode(Number.parseInt(hex ?? uni ?? oct ?? '0', hex !== undefined || uni !== undefined ? 16 : 8)))
    .replace(/\\(["'\\`])/g, '$1')
    .replace(/\\n/g, '\n');
}
