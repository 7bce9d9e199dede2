import type { Scan } from '../scan.js';
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
  { names: ['make', 'gmake', 'bmake'], values: ['-f', '--file', '--makefile', '-C', '--directory', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if'], check: make },
];
