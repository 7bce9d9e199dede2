import { expandBraces } from './brace-expansion.js';
import { classifyInvocation, isDownloader } from './commands.js';
import { commandsMatchingGlob } from './specs/index.js';
import { commandName, type Invocation, type Stdin } from './invocation.js';
import { pureOutput, type PureOutput } from './pure-eval.js';
import { REASONS } from './reasons.js';
import { ALL_PROCESSES, flag, UNKNOWN, type Scan } from './scan.js';
import { withShellTree, type ShellNode } from './shell-parser.js';
import { ARRAY_SEPARATOR, expandToString, expandWord, type Substitution, type WordContext } from './shell-words.js';
import { runBuiltin } from './shell-builtins.js';
import { checkReadSource, checkWriteTarget, DISK_DEVICE } from './write-targets.js';
import { runWrittenFile } from './specs/shells.js';
import { readPowerShell } from './specs/interpreters.js';

/**
 * Walks every command a bash AST can run (lists, pipelines, if/while/until/for/case bodies, subshells, groups,
 * functions and their calls, `$(…)`, backticks, process substitution, heredocs and here-strings feeding
 * commands) and hands each one, expanded, to the command rules. A parse with errors is still walked, but it
 * is unreadable (dangerous) unless the error is confined to data.
 */
const MAX_DEPTH = 6;
/** `for x in …` bodies are walked once per value, up to this many. */
const MAX_LOOP_VALUES = 8;

/** What a statement leaves behind for whoever reads its output: the text (when pure) and where it came from. */
interface Flow {
  output: PureOutput | null;
  downloaded: boolean;
  decoded: boolean;
  names: string[];
  /** `find ROOTS -name …`, whose output is unknown: each line it prints is a path under one of these, NUL-ended with -print0. */
  findRoots?: { roots: string[]; nul: boolean };
  /** `ls /dev/sd*`, `lsblk -p`: a listing of disk devices, as a line that stands for each of them (a disk glob). */
  devices?: string;
  /** `ls /`: one name per entry of a directory, unknown, as a line that stands for each of them (a glob, `*`). */
  entries?: string;
}

const NO_FLOW: Flow = { output: null, downloaded: false, decoded: false, names: [] };

export function walkShell(text: string, scan: Scan, stdin: Stdin | null = null): void {
  if (scan.depth > MAX_DEPTH) {
    // `eval eval eval … rm -rf /`: what cannot be read to the end is not called safe.
    flag(scan, REASONS.unreadable);
    return;
  }
  const functions = new Map(scan.functions);
  // `r\<newline>m -rf /`: bash joins a line continuation inside a word before it splits words; tree-sitter does not.
  if (text.includes('\\\n')) text = joinContinuations(text);
  // `Get-Process | Stop-Process -Force`, `irm https://… | iex`: a line written in PowerShell is read as PowerShell too.
  if (POWERSHELL_LINE.test(text)) readPowerShell(text, scan);
  // `kill$IFS-9$IFS-1`: tree-sitter misreads `$IFS` followed by a dash; `${IFS}` is the same expansion.
  if (text.includes('$IFS')) text = text.replace(/\$IFS(?!\w)/g, '${IFS}');
  withShellTree(text, (root) => {
    // `[[ -d / ]] && rm -rf /`, `[ -e ~ ]`: tree-sitter misreads a bare `/` or `~` in a test and swallows the rest of the
    // line; quoted, the test reads the same for the walker, which does not evaluate it.
    const bareSlash = root.hasError ? text.replace(TEST_BARE_SLASH, '$1"$2"') : text;
    if (bareSlash !== text) {
      scan.depth += 1;
      walkShell(bareSlash, scan, stdin);
      scan.depth -= 1;
      if (scan.depth === 0) runTraps(scan);
      return;
    }
    // `{rm,-rf,/}`: bash brace-expands the word into a command; tree-sitter reads `{` as a group and fails.
    const leadingBraces = root.hasError ? /^\s*(\{[^\s{}]*,[^\s{}]*\})(?=\s|;|$)/.exec(text) : null;
    if (leadingBraces !== null && scan.depth <= MAX_DEPTH) {
      const words = expandBraces(leadingBraces[1] as string);
      if (words.length > 1) {
        scan.depth += 1;
        walkShell(`${words.join(' ')}${text.slice(leadingBraces[0].length)}`, scan, stdin);
        scan.depth -= 1;
        if (scan.depth === 0) runTraps(scan);
        return;
      }
    }
    if (root.hasError && fishFunctionForksItself(text)) flag(scan, REASONS.forkBomb);
    if (root.hasError && !errorsConfinedToData(root)) flag(scan, REASONS.unreadable);
    walk(root, scan, stdin);
    // `trap cleanup EXIT; cleanup() { … }`: handlers run at exit, when every function of the line is defined.
    if (scan.depth === 0) runTraps(scan);
  });
  // Function bodies point into the tree just freed.
  scan.functions = functions;
}

/** A PowerShell cmdlet (`Verb-Noun`, as PowerShell writes them) or a PowerShell-only alias in command position. */
const POWERSHELL_LINE = /(?:^|[|;&({])\s*(?:(?:Get|Set|Stop|Start|Restart|Remove|Clear|Invoke|New|Add|Disable|Enable|Uninstall|Format|Initialize|ForEach|Where|Select|Sort)-[A-Z][A-Za-z]+|gps|spps|iwr|irm|iex|gcim|gwmi)(?=[\s|;)}]|$)/m;

/** Reads each trap handler the line set, once, where it was set (remote or not, its directory then). */
function runTraps(scan: Scan): void {
  // A handler may set another trap (`trap 'trap "…" EXIT' INT`): those are read in the same pass.
  for (let trap = scan.traps.shift(); trap !== undefined; trap = scan.traps.shift()) {
    const { remote, cwd } = { remote: scan.remote, cwd: scan.paths.cwd };
    scan.remote = trap.remote;
    scan.paths.cwd = trap.cwd;
    try {
      scan.runShell(trap.handler);
    } finally {
      scan.remote = remote;
      scan.paths.cwd = cwd;
    }
  }
}

const TEST_BARE_SLASH = /(\[\[?[ \t][^\n\]]*?[ \t])([/~])(?=[ \t]+\]\]?)/g;

/** Removes `\<newline>` outside single quotes (and `$'…'`), as bash's reader does before anything else. */
function joinContinuations(text: string): string {
  let out = '';
  let quote: "'" | '"' | '$' | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quote === "'") {
      out += c;
      if (c === "'") quote = null;
      continue;
    }
    if (c === '\\') {
      if (text[i + 1] === '\n' && quote !== '$') {
        i += 1;
        continue;
      }
      out += c + (text[i + 1] ?? '');
      i += 1;
      continue;
    }
    out += c;
    if (quote === '$' && c === "'") quote = null;
    else if (quote === '"' && c === '"') quote = null;
    else if (quote === null && c === "'") quote = text[i - 1] === '$' ? '$' : "'";
    else if (quote === null && c === '"') quote = '"';
  }
  return out;
}

function walk(node: ShellNode, scan: Scan, stdin: Stdin | null): Flow {
  const handler = STATEMENTS[node.type];
  if (handler !== undefined) return handler(node, scan, stdin);
  // Anything else (test expressions, arithmetic, case values…): only its substitutions run.
  for (const inner of node.descendantsOfType(['command_substitution', 'process_substitution'])) if (inner !== null) substitute(inner, scan);
  return NO_FLOW;
}

const children = (node: ShellNode): ShellNode[] => node.namedChildren.filter((c): c is ShellNode => c !== null && c.type !== 'comment');

function walkAll(node: ShellNode, scan: Scan, stdin: Stdin | null = null): Flow {
  let last = NO_FLOW;
  for (const child of children(node)) last = walk(child, scan, stdin);
  return last;
}

type Handler = (node: ShellNode, scan: Scan, stdin: Stdin | null) => Flow;

const STATEMENTS: Readonly<Record<string, Handler>> = {
  program: (n, s, stdin) => walkAll(n, s, stdin),
  list: (n, s) => walkAll(n, s),
  compound_statement: (n, s, stdin) => walkAll(n, s, stdin),
  do_group: (n, s) => walkAll(n, s),
  if_statement: (n, s) => walkAll(n, s),
  elif_clause: (n, s) => walkAll(n, s),
  else_clause: (n, s) => walkAll(n, s),
  while_statement: walkWhile,
  case_statement: (n, s) => walkAll(n, s),
  case_item: (n, s) => {
    for (const child of children(n)) if (n.childForFieldName('value')?.id !== child.id) walk(child, s, null);
    return NO_FLOW;
  },
  negated_command: (n, s, stdin) => walkAll(n, s, stdin),
  ERROR: (n, s) => walkAll(n, s),
  subshell: (n, s, stdin) => {
    const cwd = s.paths.cwd;
    const flow = walkAll(n, s, stdin);
    s.paths.cwd = cwd;
    return flow;
  },
  for_statement: walkFor,
  c_style_for_statement: (n, s) => walkAll(n, s),
  pipeline: walkPipeline,
  redirected_statement: walkRedirected,
  command: (n, s, stdin) => walkCommand(n, s, stdin, []),
  variable_assignment: (n, s) => {
    assign(n, s);
    return NO_FLOW;
  },
  variable_assignments: (n, s) => walkAll(n, s),
  declaration_command: walkDeclaration,
  unset_command: (n, s) => {
    // `unset HIST""FILE`: quotes split the word into nodes but not the name; `h=HIST; unset ${h}FILE`: the words expand.
    const written = n.text.replace(/^\S+\s*/, '').replace(/["'\\]/g, '').split(/\s+/);
    const names = [...written, ...children(n).flatMap((word) => (word.type === 'variable_name' ? [word.text] : expandWord(word, wordContext(s)).fields))];
    if (names.includes('HISTFILE')) flag(s, REASONS.history);
    for (const name of names) s.vars.delete(name);
    return NO_FLOW;
  },
  function_definition: (n, s) => {
    const name = n.childForFieldName('name')?.text ?? '';
    const body = n.childForFieldName('body');
    if (body !== null) {
      s.functions.set(name, body);
      if (callsItselfInParallel(name, body)) flag(s, REASONS.forkBomb);
    }
    return NO_FLOW;
  },
  comment: () => NO_FLOW,
};

function walkFor(node: ShellNode, scan: Scan): Flow {
  const variable = node.childForFieldName('variable')?.text;
  const values = node.childrenForFieldName('value').filter((v): v is ShellNode => v !== null);
  const body = node.childForFieldName('body');
  const expanded = values.length === 0 ? (scan.positional ?? [UNKNOWN]) : values.flatMap((v) => expandWord(v, wordContext(scan)).fields);
  // `for p in /proc/*`: every process's directory among the other entries; the body is read both ways.
  const words = expanded.flatMap((w) => (/^\/proc\/\*\/?$/.test(w) ? [w, ALL_PROCESSES] : [w]));
  if (body === null) return NO_FLOW;
  for (const value of words.slice(0, MAX_LOOP_VALUES)) {
    if (variable !== undefined) scan.vars.set(variable, value);
    walk(body, scan, null);
  }
  return NO_FLOW;
}

/** `… | while read -r d; do rm -rf "$d"; done`: the body runs once per known input line, `read` taking it. */
function walkWhile(node: ShellNode, scan: Scan, stdin: Stdin | null): Flow {
  const lines = stdin?.text?.split('\n').filter((l) => l !== '').slice(0, MAX_LOOP_VALUES) ?? [];
  if (lines.length === 0) walkAll(node, scan, stdin);
  for (const line of lines) walkAll(node, scan, { kind: 'text', text: `${line}\n` });
  return NO_FLOW;
}

/** Commands that pass on (some of) the lines they read, each unchanged or cut to a field. */
const LINE_FILTERS: ReadonlySet<string> = new Set(['grep', 'egrep', 'awk', 'gawk', 'mawk', 'cut', 'sed', 'head', 'tail', 'sort', 'uniq', 'tr']);

function walkPipeline(node: ShellNode, scan: Scan, stdin: Stdin | null): Flow {
  let input = stdin;
  let flow = NO_FLOW;
  const upstream: string[] = [];
  let devices: string | undefined;
  const stages = children(node);
  const consumed = scan.outputConsumed;
  for (const [k, stage] of stages.entries()) {
    // Filters pass what they read on to the terminal (`| base64 -d`, `| jq .`); any other program takes it in.
    scan.outputConsumed = consumed || stages.slice(k + 1).some((later) => !PASSES_OUTPUT_ON.has(commandName(stageName(later))));
    try {
      flow = walk(stage, scan, input);
    } finally {
      scan.outputConsumed = consumed;
    }
    upstream.push(...flow.names);
    // `lsblk -ndo PATH,TYPE | awk '$2 == "disk" {print $1}' | while read -r d`: what a filter keeps of a device listing
    // is still disk devices, whatever its condition selects.
    devices = flow.devices ?? (devices !== undefined && flow.names.every((n) => LINE_FILTERS.has(n)) ? devices : undefined);
    // `ls / | while read d; do rm -rf "/$d"; done`: each name read is an entry of the directory, so `"/$d"` is `/*`.
    input = { kind: 'pipe', text: devices ?? flow.entries ?? flow.output?.text ?? foundUnder(flow.findRoots) ?? null, downloaded: flow.downloaded, decoded: flow.decoded || flow.output?.decoded === true, upstream: [...upstream] };
  }
  return { ...flow, downloaded: input?.kind === 'pipe' && input.downloaded, decoded: input?.kind === 'pipe' && input.decoded };
}

/** Git hooks and husky's: the file runs at the next commit, checkout or push, so what the line writes there is read as code. */
const GIT_HOOK = /(?:^|\/)(?:\.git\/hooks|\.husky)\/[\w.-]+$/;

/** A file the line wrote with known text: remembered in case the line runs it; a git hook's text is read now. */
function rememberWrite(file: string, text: string, scan: Scan): void {
  scan.files.set(commandName(file), text);
  if (GIT_HOOK.test(file) && !file.endsWith('.sample')) scan.runShell(text);
}

/** Programs that print (some of) what they read: a secret piped through them still reaches the terminal. */
const PASSES_OUTPUT_ON: ReadonlySet<string> = new Set([...LINE_FILTERS, 'base64', 'base32', 'xxd', 'jq', 'yq', 'cat', 'tee', 'less', 'more', 'od', 'hexdump', 'rev', 'fold', 'column', 'openssl']);

/** The command name a pipeline stage starts with, as written (empty for compound stages). */
function stageName(stage: ShellNode): string {
  const command = stage.type === 'command' ? stage : stage.type === 'redirected_statement' ? stage.childForFieldName('body') : null;
  return command?.type === 'command' ? (command.childForFieldName('name')?.text ?? '') : '';
}

/** `find ~/Library/Logs -name '*.log' | xargs rm -f`: each name found is unknown, but lies under a starting point. */
function foundUnder(found: Flow['findRoots']): string | undefined {
  if (found === undefined) return undefined;
  const end = found.nul ? '\0' : '\n';
  return found.roots.map((root) => `${root.replace(/\/+$/, '')}/${UNKNOWN}${end}`).join('');
}

/** `cmd > f`, `cmd <<EOF … EOF | sh`, `{ …; } > log`: the redirects apply to the body. */
function walkRedirected(node: ShellNode, scan: Scan, stdin: Stdin | null): Flow {
  const body = node.childForFieldName('body');
  // Here-strings hang off the statement without the `redirect` field name.
  const redirects = children(node).filter((r) => r.type.endsWith('_redirect'));
  if (body === null) {
    // `> ~/.bash_history`, `: > f` spelled without a command: the redirects still write.
    readRedirects(redirects, scan);
    return walkAll(node, scan, stdin);
  }
  const flow = body.type === 'command' ? walkCommand(body, scan, stdin, redirects) : withRedirects(body, scan, stdin, redirects);
  // `cat <<EOF | sh` / `cat <<EOF && x`: tree-sitter hangs what follows the heredoc start inside the redirect.
  let input: Stdin = { kind: 'pipe', text: flow.output?.text ?? null, downloaded: flow.downloaded, decoded: flow.decoded, upstream: flow.names };
  for (const redirect of redirects) {
    if (redirect.type !== 'heredoc_redirect') continue;
    for (const tail of children(redirect)) {
      if (!['pipeline', 'command', 'list', 'redirected_statement', 'subshell', 'compound_statement'].includes(tail.type)) continue;
      const piped = precededByPipe(redirect, tail);
      const next = walk(tail, scan, piped ? input : null);
      input = { kind: 'pipe', text: next.output?.text ?? null, downloaded: next.downloaded, decoded: next.decoded, upstream: next.names };
    }
  }
  return flow;
}

function precededByPipe(parent: ShellNode, child: ShellNode): boolean {
  if (child.type === 'pipeline') return true;
  const previous = child.previousSibling;
  return previous !== null && (previous.type === '|' || previous.type === '|&');
}

function withRedirects(body: ShellNode, scan: Scan, stdin: Stdin | null, redirects: ShellNode[]): Flow {
  const redirected = readRedirects(redirects, scan);
  const flow = walk(body, scan, redirected.stdin ?? stdin);
  feedReaders(redirected.readers, pipeFrom(flow), scan);
  // `echo … | base64 -d > x.sh`: tree-sitter hangs the redirect on the whole pipeline; its output is the file's text.
  if (flow.output !== null) for (const file of redirected.files) rememberWrite(file, flow.output.text, scan);
  return redirected.readers.length > 0 || redirected.toFile ? { ...flow, output: null } : flow;
}

interface Redirected {
  stdin: Stdin | null;
  /** Output goes to a file: nothing flows on to a pipe. */
  toFile: boolean;
  /** Files stdout is written to. */
  files: string[];
  /** `> >(sh)`: process substitutions that read the command's output. */
  readers: ShellNode[];
}

const OUTPUT_OPERATORS = /^(\d*>>?|&>>?|>\||\d*>&|&>)$/;

function readRedirects(redirects: readonly ShellNode[], scan: Scan): Redirected {
  let stdin: Stdin | null = null;
  let toFile = false;
  const files: string[] = [];
  const readers: ShellNode[] = [];
  const ctx = wordContext(scan);
  for (const redirect of redirects) {
    if (redirect.type === 'heredoc_redirect') {
      const body = redirect.children.find((c) => c?.type === 'heredoc_body') ?? null;
      // An unquoted heredoc expands `$(…)` in its body: those commands run, whoever reads the text.
      for (const inner of body?.descendantsOfType('command_substitution') ?? []) if (inner !== null) substitute(inner, scan);
      stdin = { kind: 'text', text: body?.text ?? '' };
      for (const nested of children(redirect)) if (nested.type === 'file_redirect' || nested.type === 'herestring_redirect') stdin = readRedirects([nested], scan).stdin ?? stdin;
      continue;
    }
    if (redirect.type === 'herestring_redirect') {
      const word = children(redirect)[0];
      stdin = { kind: 'text', text: word === undefined ? '' : `${expandToString(word, ctx).text}\n` };
      continue;
    }
    const destination = redirect.childForFieldName('destination');
    if (destination === null) continue;
    const operator = redirect.children.find((c) => c !== null && /[<>]/.test(c.type))?.type ?? '>';
    // `2>&1`, `>&2`: duplicating a descriptor, no file involved.
    if (destination.type === 'number' && operator.includes('&')) continue;
    if (operator.startsWith('<') && destination.type === 'process_substitution') {
      // `xargs kill < <(ps -eo pid=)`, `bash < <(curl …)`: the inner command's output is the input.
      const cwd = scan.paths.cwd;
      let flow = NO_FLOW;
      for (const statement of children(destination)) flow = walk(statement, scan, null);
      scan.paths.cwd = cwd;
      stdin = pipeFrom(flow);
      continue;
    }
    if (operator.includes('>') && destination.type === 'process_substitution' && destination.text.startsWith('>(')) {
      // `echo 'rm -rf ~' > >(bash)`: the inner commands read this command's output, walked once it is known.
      if (/^[2-9]/.test(operator)) feedReaders([destination], pipeFrom(NO_FLOW), scan);
      else {
        readers.push(destination);
        toFile = true;
      }
      continue;
    }
    const target = expandToString(destination, ctx).text;
    if (operator.startsWith('<')) {
      checkReadSource(target, scan);
      // `sh < x.sh`, `psql < q.sql` after the line wrote the file: its text is the input.
      stdin = { kind: 'pipe', text: scan.files.get(commandName(target)) ?? null, downloaded: false, decoded: false, upstream: [] };
    } else if (OUTPUT_OPERATORS.test(operator) || operator.includes('>')) {
      checkWriteTarget(target, scan);
      const stdout = !/^[2-9]/.test(operator);
      if (stdout && !target.startsWith('/dev/')) files.push(target);
      toFile ||= stdout && !target.startsWith('/dev/std');
    }
  }
  return { stdin, toFile, files, readers };
}

/** A stage's flow as the next stage's stdin: its output when known, and whether it was downloaded or decoded. */
function pipeFrom(flow: Flow): Stdin {
  return { kind: 'pipe', text: flow.output?.text ?? null, downloaded: flow.downloaded, decoded: flow.decoded || flow.output?.decoded === true, upstream: flow.names };
}

/** Walks each `>(…)` reader with `input` (what the writer sends it) as its stdin. */
function feedReaders(readers: readonly ShellNode[], input: Stdin, scan: Scan): void {
  for (const reader of readers) {
    const cwd = scan.paths.cwd;
    for (const statement of children(reader)) walk(statement, scan, input);
    scan.paths.cwd = cwd;
  }
}

function walkCommand(node: ShellNode, scan: Scan, stdin: Stdin | null, outerRedirects: ShellNode[]): Flow {
  const ctx = wordContext(scan);
  const assignments: ShellNode[] = [];
  const redirects = [...outerRedirects];
  let nameNode: ShellNode | null = null;
  const argumentNodes: ShellNode[] = [];
  const groups: ShellNode[] = [];
  for (const child of children(node)) {
    if (child.type === 'variable_assignment') assignments.push(child);
    else if (child.type.endsWith('_redirect')) redirects.push(child);
    else if (child.type === 'command_name') nameNode = child;
    // `time (make)`, `coproc (cmd)`: tree-sitter hangs the compound command on the keyword as an argument; it runs.
    else if (child.type === 'subshell' || child.type === 'compound_statement') groups.push(child);
    else argumentNodes.push(child);
  }
  for (const group of groups) walk(group, scan, null);
  const redirected = readRedirects(redirects, scan);
  const input = redirected.stdin ?? stdin;
  if (nameNode === null) {
    for (const a of assignments) assign(a, scan);
    return NO_FLOW;
  }
  // `X=1 cmd`: the assignment is for that command's environment only, but its value still runs substitutions.
  for (const a of assignments) {
    // `HISTFILE= bash`: the command (often a new shell) runs without history.
    const variable = a.childForFieldName('name')?.text ?? '';
    const value = assignmentValue(a, scan);
    if (disablesHistory(variable, value)) flag(scan, REASONS.history);
    // `GIT_SSH_COMMAND='…' git fetch`, `EDITOR='…' git commit`, `BASH_ENV=<(…) bash -c …`: the value is run.
    runCommandVariable(variable, value, scan);
  }
  const name = expandWord(nameNode, ctx);
  const args = argumentNodes.map((a) => expandWord(a, ctx));
  const argv = [...name.fields, ...args.flatMap((a) => a.fields)];
  if (dashDroppedBeforeHeredoc(node, outerRedirects)) argv.push('-');
  // `/???/?m -rf /`: an unquoted glob as the command is whichever described command it matches.
  const globbed = /[*?[]/.test(nameNode.text) && !/["'\\]/.test(nameNode.text) ? commandsMatchingGlob(commandName(argv[0] ?? '')) : [];
  if (globbed.length > 0 && globbed.length <= 4) {
    const dir = (argv[0] ?? '').slice(0, (argv[0] ?? '').lastIndexOf('/') + 1);
    for (const candidate of globbed.slice(1)) classifyInvocation({ argv: [`${dir}${candidate}`, ...argv.slice(1)], source: node.text, stdin: input, decoded: true, downloaded: false, nameComputed: true }, scan);
    argv[0] = `${dir}${globbed[0] as string}`;
  }
  const invocation: Invocation = {
    argv,
    source: node.text,
    stdin: input,
    decoded: name.decoded || args.some((a) => a.decoded),
    downloaded: name.downloaded || args.some((a) => a.downloaded),
    nameComputed: nameNode.text.includes('$') || nameNode.text.includes('`'),
  };
  const called = commandName(argv[0] ?? '');
  const body = scan.functions.get(called);
  if (body !== undefined) callFunction(called, body, argv.slice(1), scan);
  else if (!runBuiltin(argv, input, scan)) classifyInvocation(invocation, scan);
  const fromFile = writtenFileInput(argv, scan);
  const computed = pureOutput(fromFile?.argv ?? argv, fromFile?.text ?? (input?.kind === 'text' ? input.text : input?.kind === 'pipe' ? input.text : null), scan.paths.cwd);
  // `cat > x.sh <<EOF …`, `printf '…' > b.sh`: remembered, in case the line runs the file next.
  if (computed !== null) for (const file of redirected.files) rememberWrite(file, computed.text, scan);
  // `… | tee >(sh)`: tee copies its input into each `>(…)` it is given.
  if (called === 'tee' && input !== null) {
    const copies = argumentNodes.filter((a) => a.type === 'process_substitution' && a.text.startsWith('>('));
    if (copies.length > 0) feedReaders(copies, input.kind === 'pipe' ? input : { kind: 'pipe', text: input.text, downloaded: false, decoded: false, upstream: [] }, scan);
  }
  if (redirected.readers.length > 0) feedReaders(redirected.readers, pipeFrom({ output: computed, downloaded: isDownloader(argv), decoded: invocation.decoded || (input?.kind === 'pipe' && input.decoded), names: [called] }), scan);
  const output = redirected.toFile ? null : computed;
  // Filters pass on what they read: `curl … | tee a.sh | sh` still runs the download.
  const piped = input?.kind === 'pipe' && !redirected.toFile ? input : null;
  const findRoots = called === 'find' && output === null ? startingPoints(argv) : undefined;
  const devices = redirected.toFile ? undefined : deviceListing(called, argv);
  const entries = redirected.toFile || devices !== undefined || output !== null ? undefined : directoryEntries(called, argv);
  return { output, downloaded: isDownloader(argv) || piped?.downloaded === true, decoded: invocation.decoded || piped?.decoded === true, names: [called], findRoots, devices, entries };
}

/** ls options that keep its output one bare name a line (a terminal is not stdout here: a pipe gets one per line). */
const LS_NAME_PER_LINE = /^(-[1aAfrtSUXvc]+|--all|--almost-all|--color(=\w+)?|--sort=\w+)$/;

/** `ls DIR` (or `ls` of the cwd): the names of DIR's entries, each one unknown, so the line that stands for them is `*`. */
function directoryEntries(called: string, argv: readonly string[]): string | undefined {
  if (called !== 'ls') return undefined;
  const args = argv.slice(1);
  const operands = args.filter((a) => !a.startsWith('-'));
  if (operands.length > 1 || operands.some((o) => /[*?[]/.test(o) || o.includes(UNKNOWN)) || !args.every((a) => !a.startsWith('-') || LS_NAME_PER_LINE.test(a))) return undefined;
  return '*\n';
}

/**
 * `ls /dev/nvme*n1` lists those disks (the glob stands for each); `lsblk` lists disks, by path with `-p` or a PATH column,
 * named only at run time (so `wipefs` on one is hardline, `dd of=` one asks, as for `/dev/$d`).
 */
function deviceListing(called: string, argv: readonly string[]): string | undefined {
  if (called === 'ls') {
    const operands = argv.slice(1).filter((a) => !a.startsWith('-'));
    return operands.length > 0 && operands.every((o) => DISK_DEVICE.test(o)) ? `${operands.join('\n')}\n` : undefined;
  }
  if (called !== 'lsblk') return undefined;
  const byPath = argv.some((a) => /^-[a-zA-Z]*p[a-zA-Z]*$/.test(a) || a === '--paths' || /(^|[,=])PATH(,|$)/.test(a));
  return byPath ? `/dev/${UNKNOWN}\n` : `${UNKNOWN}\n`;
}

/** find's starting points (`.` when none is given) and whether it prints NUL-ended names. */
function startingPoints(argv: readonly string[]): { roots: string[]; nul: boolean } {
  const args = argv.slice(1);
  let at = 0;
  while (/^-[HLP]+$/.test(args[at] ?? '')) at += 1;
  const end = args.findIndex((a, k) => k >= at && (a.startsWith('-') || a === '(' || a === '!'));
  const roots = args.slice(at, end === -1 ? args.length : end);
  return { roots: roots.length === 0 ? ['.'] : roots, nul: args.includes('-print0') };
}

/**
 * `make -f - <<EOF`, `cat - <<EOF`: tree-sitter drops a lone `-` standing just before `<<` from the command's words,
 * but bash passes it (the program reads stdin, the heredoc).
 */
function dashDroppedBeforeHeredoc(node: ShellNode, redirects: readonly ShellNode[]): boolean {
  const heredoc = redirects.find((r) => r.type === 'heredoc_redirect');
  if (heredoc === undefined) return false;
  const parent = node.parent;
  if (parent === null) return false;
  const gap = parent.text.slice(node.endIndex - parent.startIndex, heredoc.startIndex - parent.startIndex);
  return /^[ \t]+-[ \t]*$/.test(gap);
}

/**
 * Readers whose file operand, when the line wrote that file (or it is a `<(…)`, or a file whose text is known), is
 * computed like their stdin; each with how many operands come before the file (awk's program).
 */
const FILE_READERS: ReadonlyMap<string, number> = new Map([['cat', 0], ['base64', 0], ['base32', 0], ['basenc', 0], ['xxd', 0], ['rev', 0], ['tac', 0], ['awk', 1], ['cut', 0]]);

/** `/proc/1/stat` begins with its pid: `kill -9 $(awk '{print $1}' /proc/1/stat)` is `kill -9 1`. */
function knownFileText(file: string): string | undefined {
  const stat = /^\/proc\/(\d+)\/stat$/.exec(file);
  return stat === null ? undefined : `${stat[1] as string} (?) ?\n`;
}

/** `base64 -d /tmp/p` after `echo … > /tmp/p`, `$(cat /tmp/c)`: the argv without the file, and the file's text. */
function writtenFileInput(argv: readonly string[], scan: Scan): { argv: string[]; text: string } | null {
  const before = FILE_READERS.get(commandName(argv[0] ?? ''));
  if (before === undefined) return null;
  const operands = argv.slice(1).filter((a) => !a.startsWith('-'));
  const file = operands.at(-1);
  if (operands.length !== before + 1 || file === undefined) return null;
  const text = scan.files.get(commandName(file)) ?? knownFileText(file);
  if (text === undefined) return null;
  return { argv: argv.filter((a, i) => i === 0 || a !== file), text };
}

/** Functions being called per scan: a recursive call's body is being walked already. */
const activeCalls = new WeakMap<Scan, Set<string>>();

function callFunction(name: string, body: ShellNode, args: string[], scan: Scan): void {
  const active = activeCalls.get(scan) ?? new Set<string>();
  activeCalls.set(scan, active);
  if (active.has(name)) return;
  active.add(name);
  const positional = scan.positional;
  scan.positional = args;
  scan.depth += 1;
  try {
    if (scan.depth > MAX_DEPTH) flag(scan, REASONS.unreadable);
    else walk(body, scan, null);
  } finally {
    scan.depth -= 1;
    scan.positional = positional;
    active.delete(name);
  }
}

/** fish's `function b; b | b &; end`, which bash cannot parse: a body that pipes into or backgrounds itself. */
function fishFunctionForksItself(text: string): boolean {
  for (const match of text.matchAll(/(?:^|[;\n])\s*function\s+([^\s;]+)[^;\n]*[;\n]([\s\S]*?)[;\n]\s*end\b/g)) {
    const name = (match[1] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|[;|&\\s])${name}\\s*(\\||&)`).test(match[2] as string)) return true;
  }
  return false;
}

/** `f() { f | f & }`: a function that starts copies of itself in parallel multiplies until the machine stops. */
function callsItselfInParallel(name: string, body: ShellNode): boolean {
  const calls = body.descendantsOfType('command').filter((c) => c !== null && c.childForFieldName('name')?.text === name);
  return calls.some((call) => {
    const parent = call?.parent;
    if (parent?.type === 'pipeline') return true;
    const next = call?.nextSibling;
    return next?.type === '&';
  });
}

function walkDeclaration(node: ShellNode, scan: Scan): Flow {
  for (const child of children(node)) {
    if (child.type === 'variable_assignment') assign(child, scan);
    else if (child.type !== 'word' && child.type !== 'variable_name') walk(child, scan, null);
  }
  return NO_FLOW;
}

function assignmentValue(node: ShellNode, scan: Scan): string {
  const value = node.childForFieldName('value');
  if (value === null) return '';
  if (value.type === 'array') {
    const items = children(value).flatMap((item) => expandWord(item, wordContext(scan)).fields);
    return items.length === 0 || items.some((i) => i.includes(UNKNOWN)) ? UNKNOWN : items.join(ARRAY_SEPARATOR);
  }
  return expandToString(value, wordContext(scan)).text;
}

function assign(node: ShellNode, scan: Scan): void {
  const name = node.childForFieldName('name')?.text ?? '';
  const appending = node.children.some((c) => c?.type === '+=');
  const value = assignmentValue(node, scan);
  scan.vars.set(name, appending ? (scan.vars.get(name) ?? UNKNOWN) + value : value);
  if (disablesHistory(name, value)) flag(scan, REASONS.history);
  // The prompt hook runs before every prompt: its value is shell code.
  if (PROMPT_HOOKS.has(name) && value !== UNKNOWN) scan.runShell(value);
  runCommandVariable(name, value, scan);
}

/** Variables whose value programs run as a command (git, man, less, sudo, ssh) or, for BASH_ENV/ENV, source as a file. */
const COMMAND_VARIABLES: ReadonlySet<string> = new Set(['GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_PAGER', 'PAGER', 'MANPAGER', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'EDITOR', 'VISUAL', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'LESSOPEN', 'LESSCLOSE', 'BROWSER']);

function runCommandVariable(name: string, value: string, scan: Scan): void {
  if (value === '' || value.includes(UNKNOWN)) return;
  if (name === 'BASH_ENV' || name === 'ENV') {
    runWrittenFile(value, scan);
    return;
  }
  // LESSOPEN's `|cmd %s` form pipes the command's output to less.
  if (COMMAND_VARIABLES.has(name)) scan.runShell(value.replace(/^\|+/, '').replace(/%s/g, 'file'));
}

const PROMPT_HOOKS: ReadonlySet<string> = new Set(['PROMPT_COMMAND', 'PS0']);

/** HISTFILE moved anywhere, a history size of 0, or an ignore pattern that matches every command. */
function disablesHistory(name: string, value: string): boolean {
  if (name === 'HISTFILE') return true;
  if (['HISTSIZE', 'HISTFILESIZE', 'SAVEHIST'].includes(name)) return /^0+$/.test(value);
  if (name === 'HISTIGNORE') return value.split(':').some((p) => /^\**$/.test(p) && p !== '');
  return false;
}

function wordContext(scan: Scan): WordContext {
  return { scan, substitute: (node) => substitute(node, scan) };
}

/** Classifies the commands inside `$(…)`, backticks or `<(…)`, and computes the output when it is pure. */
function substitute(node: ShellNode, scan: Scan): Substitution {
  const all = children(node);
  const cwd = scan.paths.cwd;
  // `$(IFS=; echo "${w[*]}")`: a subshell's assignments set its own variables, not the line's; they print nothing.
  const vars = new Map(scan.vars);
  let flow = NO_FLOW;
  const consumed = scan.outputConsumed;
  // `$(gh auth token)`: what runs here prints into the enclosing command's words, not onto the terminal.
  scan.outputConsumed = true;
  try {
    for (const statement of all) flow = walk(statement, scan, null);
  } finally {
    scan.outputConsumed = consumed;
  }
  scan.paths.cwd = cwd;
  scan.vars = vars;
  const statements = all.filter((statement, k) => k === all.length - 1 || !ASSIGNMENTS_ONLY.has(statement.type));
  const known = statements.length === 1 && flow.output !== null && node.type === 'command_substitution';
  if (statements.length === 1 && flow.output !== null && node.type === 'process_substitution' && node.text.startsWith('<(')) {
    // `<(echo 'reboot')` is read as a file: remembered like one the line wrote, under its /dev/fd name.
    let fd = 63;
    while (scan.files.has(String(fd))) fd += 1;
    scan.files.set(String(fd), flow.output.text);
    return { text: `/dev/fd/${fd}`, decoded: flow.decoded || flow.output.decoded, downloaded: flow.downloaded };
  }
  if (statements.length === 1 && flow.findRoots !== undefined && node.type === 'process_substitution' && node.text.startsWith('<(')) {
    // `xargs -a <(find /srv -name '*.tmp') rm -f`: the names are unknown, but each lies under a starting point.
    let fd = 63;
    while (scan.files.has(String(fd))) fd += 1;
    const end = flow.findRoots.nul ? '\0' : '\n';
    scan.files.set(String(fd), flow.findRoots.roots.map((root) => `${root.replace(/\/+$/, '')}/${UNKNOWN}${end}`).join(''));
    return { text: `/dev/fd/${fd}`, decoded: flow.decoded, downloaded: flow.downloaded };
  }
  // `for d in $(lsblk -dnpo NAME)`: the words are disk devices, named only at run time.
  if (statements.length === 1 && flow.devices !== undefined && node.type === 'command_substitution') return { text: flow.devices.replace(/\n+$/, ''), decoded: flow.decoded, downloaded: flow.downloaded };
  // `for d in $(ls /); do rm -rf "/$d"; done`: the words are the directory's entries, each as unknown as the glob `*`.
  if (statements.length === 1 && flow.entries !== undefined && node.type === 'command_substitution') return { text: '*', decoded: flow.decoded, downloaded: flow.downloaded };
  return { text: known ? (flow.output?.text ?? '').replace(/\n+$/, '') : UNKNOWN, decoded: flow.decoded || flow.output?.decoded === true, downloaded: flow.downloaded };
}

const ASSIGNMENTS_ONLY: ReadonlySet<string> = new Set(['variable_assignment', 'variable_assignments']);

/**
 * A parse error is confined to data when it is an unclosed quote (the string is still read as an argument) or
 * a heredoc that never ends (its command reads empty input); anything else makes the line unreadable.
 */
function errorsConfinedToData(root: ShellNode): boolean {
  const problems: ShellNode[] = [];
  const visit = (node: ShellNode): void => {
    if (node.isError || node.isMissing) problems.push(node);
    else for (const child of node.children) if (child !== null && (child.hasError || child.isMissing)) visit(child);
  };
  visit(root);
  return problems.every((p) => {
    if (p.isMissing) return ['string', 'raw_string', 'translated_string'].includes(p.parent?.type ?? '');
    const inside = p.namedChildren.filter((c): c is ShellNode => c !== null);
    return inside.length > 0 && inside.every((c) => DATA_ONLY.has(c.type)) && !/\$\(|`/.test(p.text);
  });
}

const DATA_ONLY: ReadonlySet<string> = new Set(['heredoc_start', 'string_content', 'raw_string']);
