import type { Invocation } from '../invocation.js';
import { flag, type Scan } from '../scan.js';

/**
 * What a command family does, as data: for each command, which subcommands and options destroy, stop, revoke
 * or overwrite (rules), and an optional `check` for what a rule cannot say (write targets, path judgements).
 * The registry (index.ts) maps every name to its spec; a command no spec names meets the generic verb rule.
 */
export interface CommandSpec {
  names: readonly string[];
  /** Options that take a value, so operands are found right (`git -C dir`, `kubectl -n ns`). */
  values?: readonly string[];
  /**
   * Short options cluster the getopt way: in `psql -tAc 'DROP …'` or `mysql -Bse '…'` the letter that takes a value
   * may come last, or anywhere with the value attached (`-uroot`). Off for commands with single-dash long options.
   */
  clusters?: boolean;
  rules?: readonly Rule[];
  check?: (command: Command, scan: Scan) => void;
}

export interface Rule {
  /** Leading operands, space-separated positions, each `a|b` alternatives or `*` (any). */
  sub?: string;
  /** Some option (or an argument, with `anyArg`) matches. */
  option?: RegExp;
  /** Some operand after `sub` matches. */
  operand?: RegExp;
  /** No rule fires when an argument matches this (`--dry-run`). */
  unless?: RegExp;
  reason: string;
  /** What it changes lies beyond a workspace checkpoint; default true. */
  irreversible?: boolean;
}

/** A command's argv split into options and operands by its spec's value options. */
export interface Command {
  name: string;
  args: string[];
  operands: string[];
  options: string[];
  /** Option → the value it took (attached or the next word), for `-t DIR`, `of=`-style lookups. */
  optionValues: Map<string, string[]>;
  invocation: Invocation;
}

export function parseCommand(name: string, args: readonly string[], values: ReadonlySet<string>, invocation: Invocation, clusters = false): Command {
  const operands: string[] = [];
  const options: string[] = [];
  const optionValues = new Map<string, string[]>();
  const addValue = (option: string, value: string): void => {
    optionValues.set(option, [...(optionValues.get(option) ?? []), value]);
  };
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as string;
    if (word === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word.length === 1) {
      operands.push(word);
      continue;
    }
    options.push(word);
    const eq = word.indexOf('=');
    if (word.startsWith('--') && eq !== -1) addValue(word.slice(0, eq), word.slice(eq + 1));
    else if (values.has(word) && i + 1 < args.length) {
      addValue(word, args[i + 1] as string);
      i += 1;
    } else if (clusters && !word.startsWith('--') && word.length > 2) {
      const at = [...word.slice(1)].findIndex((letter) => values.has(`-${letter}`)) + 1;
      if (at === 0) continue;
      const option = `-${word[at] as string}`;
      if (at < word.length - 1) addValue(option, word.slice(at + 1));
      else if (i + 1 < args.length) {
        addValue(option, args[i + 1] as string);
        i += 1;
      }
    } else if (!word.startsWith('--') && word.length > 2 && values.has(word.slice(0, 2))) addValue(word.slice(0, 2), word.slice(2));
  }
  return { name, args: [...args], operands, options, optionValues, invocation };
}

export function applyRules(rules: readonly Rule[], command: Command, scan: Scan): void {
  for (const rule of rules) if (ruleMatches(rule, command)) flag(scan, rule.reason, rule.irreversible ?? true);
}

function ruleMatches(rule: Rule, command: Command): boolean {
  const positions = rule.sub === undefined ? [] : rule.sub.split(' ');
  for (const [k, position] of positions.entries()) {
    const operand = command.operands[k];
    if (operand === undefined || (position !== '*' && !position.split('|').includes(operand))) return false;
  }
  if (rule.option !== undefined && !command.options.some((o) => rule.option?.test(o) === true)) return false;
  if (rule.operand !== undefined && !command.operands.slice(positions.length).some((o) => rule.operand?.test(o) === true)) return false;
  if (rule.unless !== undefined && command.args.some((a) => rule.unless?.test(a) === true)) return false;
  return true;
}

/** `-rf`, `-fr`, `-r`: a short-option cluster containing `letter`, or one of the long forms. */
export function hasFlag(command: Command, letter: string, ...long: string[]): boolean {
  return command.options.some((o) => (!o.startsWith('--') && o.slice(1).includes(letter)) || long.includes(o.split('=')[0] as string));
}

/** The values given to any of `names` (`-t DIR`, `--target-directory=DIR`). */
export function valuesOf(command: Command, ...names: string[]): string[] {
  return names.flatMap((n) => command.optionValues.get(n) ?? []);
}
