import { REASONS } from './reasons.js';
import { destroysData } from './specs/databases.js';
import { flag, UNKNOWN, type Scan } from './scan.js';

/**
 * The rule for commands no spec names: a subcommand or option built from a destructive verb
 * (`doctl compute droplet delete 123`, `linode-cli linodes delete 1`, `heroku apps:destroy`, `--force-delete`)
 * asks. This is what generalizes to the next cloud CLI. Everyday words (`clean`, `clear`, `cache`) are not
 * in the lexicon, so `make clean` and `jest --clearCache` stay routine.
 */
const LEXICON: ReadonlySet<string> = new Set([
  'delete', 'del', 'destroy', 'remove', 'rm', 'rmi', 'rmdir', 'prune', 'purge', 'terminate', 'uninstall', 'drop', 'wipe', 'erase', 'truncate',
  'reset', 'revoke', 'deregister', 'unregister', 'flush', 'flushall', 'flushdb', 'kill', 'nuke', 'obliterate', 'shred', 'teardown',
  'decommission', 'deprovision', 'unpublish', 'expunge', 'evict', 'zap', 'annihilate', 'deletion', 'rb',
]);
const SCHEMA_RELOADS = /^db:(schema:load|structure:load|seed:replant|schema:load:\w+)$/;
/** Subcommand-like words: lowercase identifiers, optionally with `-`, `:` or `_` (never paths or file names). */
const SUBCOMMAND = /^[a-zA-Z][\w:.-]*$/;
const HTTP_DELETE = /^(-X|--request|--method|-m)(=)?DELETE$/i;
/**
 * `dart run build_runner build --delete-conflicting-outputs`, `--remove-orphans`: an option whose destructive verb
 * acts on what the run itself produces (outputs it is about to write again, leftovers of earlier runs) tidies up.
 */
const OWN_OUTPUTS = /[-_](?:outputs?|orphans)$/i;
/** How many leading operands count as subcommands (`doctl compute droplet delete`). */
const SUBCOMMAND_DEPTH = 4;

/** True when `word` (a subcommand like `delete-stack`, `apps:destroy`, `force_delete`) is built from a destructive verb. */
export function destructiveWord(word: string): boolean {
  if (!SUBCOMMAND.test(word)) return false;
  // `mix ecto.drop`, `db.reset`: a dotted task is judged by its last part (`drop.sql` is a file, not a verb).
  if (word.includes('.')) return destructiveWord(word.slice(word.lastIndexOf('.') + 1));
  // `DeleteInstance`, `deleteBucket`: camel case is a word boundary too.
  return word.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase().split(/[-:_]/).some((piece) => LEXICON.has(piece));
}

/**
 * `--dry-run`, `--dry-run=client`, `--dryrun` (aws s3), `--dry_run`: the tool reports what it would change and changes
 * nothing. `--dry-run=none` (kubectl) and `--dry-run=false` turn it off.
 */
export const DRY_RUN = /^--dry[-_]?run(=(?!(none|false|0|no)$).*)?$/i;

export function isDryRun(arg: string): boolean {
  return DRY_RUN.test(arg);
}

export function classifyByVerb(name: string, args: readonly string[], scan: Scan): void {
  if (args.some((a) => a === '--help' || a === '-h' || a === 'help' || isDryRun(a))) return;
  const operands = args.filter((a) => !a.startsWith('-')).slice(0, SUBCOMMAND_DEPTH);
  // `--force-delete`, and Go-style single-dash long options (`-purge`).
  const options = args.filter((a) => a.startsWith('--') || /^-[a-z]{3,}/.test(a)).map((a) => a.replace(/^-+/, '').split('=')[0] as string);
  const joined = args.map((a, i) => (a.startsWith('-') && args[i + 1] !== undefined ? `${a}${args[i + 1]}` : a));
  // `wrangler d1 execute db --command "DROP TABLE users"`: SQL handed to a tool nobody described.
  if (args.some(destroysData)) flag(scan, REASONS.sqlDrop);
  // Rails/Rake tasks that load a schema over the database or truncate it (`db:schema:load`, `db:seed:replant`).
  if (operands.some((o) => SCHEMA_RELOADS.test(o))) flag(scan, REASONS.sqlDrop);
  if (operands.some(destructiveWord) || options.some((o) => destructiveWord(o) && !OWN_OUTPUTS.test(o)) || joined.some((a) => HTTP_DELETE.test(a)) || destructiveWord(name.replace(/\.\w+$/, '').replace(UNKNOWN, ''))) {
    flag(scan, REASONS.destructiveVerb);
  }
}
