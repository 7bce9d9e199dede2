import type { Scan } from '../scan.js';
import { classifyByVerb } from '../generic-verbs.js';
import { valuesOf, type Command, type CommandSpec } from './spec.js';

/**
 * make: a makefile's recipes are shell command lines. When the makefile's text is known — given on stdin
 * (`make -f - <<< $'all:\n\trm -rf /'`) or written earlier on the line — the recipes of the goals that run (the
 * ones named, else the first target, and what they depend on) are read as shell. An unknown makefile is not.
 */
function make(command: Command, scan: Scan): void {
  const goals = command.operands.filter((o) => !o.includes('='));
  for (const file of valuesOf(command, '-f', '--file', '--makefile')) {
    const stdin = command.invocation.stdin;
    const text = file === '-' || file === '/dev/stdin' ? (stdin?.text ?? null) : (scan.files.get(file.slice(file.lastIndexOf('/') + 1)) ?? null);
    if (text === null) continue;
    for (const recipe of recipesToRun(text, goals)) scan.runShell(recipe);
  }
  // `make --eval='x: ; shutdown -h now' x`: the evaluated text is makefile source, its recipes run like a file's.
  const evaluated = [...valuesOf(command, '--eval', '-E'), ...command.options.filter((o) => o.startsWith('--eval=')).map((o) => o.slice(7))];
  for (const text of evaluated) for (const recipe of recipesToRun(text, goals)) scan.runShell(recipe);
}

/**
 * `just RECIPE` after the line wrote a justfile: the recipe's indented lines (or the first recipe's) run in a shell.
 * The named recipes only; a recipe's dependencies are not followed.
 */
function just(command: Command, scan: Scan): void {
  const text = scan.files.get('justfile') ?? scan.files.get('Justfile') ?? scan.files.get('.justfile');
  // A justfile the line did not write: its recipes are unknown, and their names are judged like any tool's words.
  if (text === undefined) {
    classifyByVerb(command.name, command.args, scan);
    return;
  }
  const recipes = new Map<string, string[]>();
  let current: string[] | undefined;
  let first: string | undefined;
  for (const line of text.split('\n')) {
    const header = /^@?([\w-]+)(?:\s+[^:]*)?:(?!=)/.exec(line);
    if (header !== null) {
      current = [];
      recipes.set(header[1] as string, current);
      first ??= header[1];
    } else if (/^\s+\S/.test(line) && current !== undefined) current.push(line.trim().replace(/^[@-]+/, ''));
    else if (line.trim() !== '') current = undefined;
  }
  const goals = command.operands.filter((o) => recipes.has(o));
  for (const goal of goals.length > 0 ? goals : first === undefined ? [] : [first]) for (const line of recipes.get(goal) ?? []) scan.runShell(line);
}

/** `task` after the line wrote a Taskfile: every `cmds:` entry in it is read as a shell line (which task runs is not followed). */
function task(command: Command, scan: Scan): void {
  const text = scan.files.get('Taskfile.yml') ?? scan.files.get('Taskfile.yaml') ?? scan.files.get('taskfile.yml');
  // No Taskfile the line wrote (or Taskwarrior's `task 5 delete`): the words are judged like any tool's.
  if (text === undefined) {
    classifyByVerb(command.name, command.args, scan);
    return;
  }
  let inCmds = -1;
  for (const line of text.split('\n')) {
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    if (/^\s*cmds:\s*$/.test(line)) inCmds = indent;
    else if (inCmds >= 0 && indent <= inCmds && line.trim() !== '') inCmds = -1;
    const item = inCmds >= 0 ? /^\s*-\s+(?:cmd:\s*)?(.+)$/.exec(line)?.[1] : undefined;
    if (item !== undefined) scan.runShell(item.replace(/^(['"])(.*)\1$/, '$2'));
  }
}

interface MakeRule {
  prerequisites: string[];
  recipe: string[];
}

/** The recipe lines of `goals` (or of the default goal) and of their prerequisites, make's `$$` read as `$`. */
export function recipesToRun(text: string, goals: readonly string[]): string[] {
  const rules = new Map<string, MakeRule>();
  let defaultGoal: string | undefined;
  let current: MakeRule[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('\t')) {
      for (const rule of current) rule.recipe.push(line.slice(1));
      continue;
    }
    const header = /^([^\s#:=][^:=]*?)\s*::?(?!=)\s*([^;]*)(?:;(.*))?$/.exec(line);
    if (header === null) {
      if (line.trim() !== '' && !line.trim().startsWith('#')) current = [];
      continue;
    }
    const targets = (header[1] as string).split(/\s+/);
    current = targets.map((target) => {
      const rule = rules.get(target) ?? { prerequisites: [], recipe: [] };
      rule.prerequisites.push(...(header[2] as string).split(/\s+/).filter((p) => p !== '' && p !== '|'));
      if (header[3] !== undefined) rule.recipe.push(header[3]);
      rules.set(target, rule);
      return rule;
    });
    defaultGoal ??= targets.find((t) => !t.startsWith('.'));
  }
  const recipes: string[] = [];
  const seen = new Set<string>();
  const visit = (target: string): void => {
    const rule = rules.get(target);
    if (rule === undefined || seen.has(target)) return;
    seen.add(target);
    for (const prerequisite of rule.prerequisites) visit(prerequisite);
    for (const line of rule.recipe) recipes.push(asShell(line));
  };
  for (const goal of goals.length > 0 ? goals : defaultGoal === undefined ? [] : [defaultGoal]) visit(goal);
  return recipes;
}

/** A recipe line as its shell gets it: make's prefixes (`@`, `-`, `+`) dropped, `$(VAR)` a variable, `$$` a `$`. */
function asShell(line: string): string {
  return line
    .replace(/^[\s@+-]+/, '')
    .replace(/\$\$|\$\((\w+)\)/g, (whole, variable: string | undefined) => (variable === undefined ? '$' : `\${${variable}}`));
}

export const MAKE_SPECS: readonly CommandSpec[] = [
  { names: ['make', 'gmake', 'bmake'], values: ['-f', '--file', '--makefile', '-C', '--directory', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '--eval', '-E'], check: make },
  { names: ['just'], check: just },
  { names: ['task', 'go-task'], check: task },
];
