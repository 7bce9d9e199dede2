import { commandName, unwrapCommand } from './command-prefixes.js';
import { splitCommandLine } from './command-split.js';

/**
 * Commands that delete or overwrite files, so the terminal tool snapshots the project first (checkpoints).
 * This is not an approval question — `rm -rf build` inside the workspace is routine and safe — but such a
 * command is exactly what a user may want to undo. Erring towards "destructive" costs one cheap snapshot.
 */
const ALWAYS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'truncate', 'mv', 'dd']);

export function isDestructive(command: string): boolean {
  return splitCommandLine(command).some((simple) => {
    if (simple.writes.some((target) => !/^\/dev\/(null|stdout|stderr|tty)$|^&\d$/.test(target))) return true;
    const { argv, embedded } = unwrapCommand(simple.argv);
    if (embedded.some((inner) => isDestructive(inner))) return true;
    const name = commandName(argv[0] ?? '');
    const args = argv.slice(1);
    if (ALWAYS.has(name)) return true;
    if ((name === 'sed' || name === 'perl') && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return true;
    if (name === 'find' && args.some((a) => a === '-delete' || a === '-exec' || a === '-execdir')) return true;
    if (name === 'git') return gitDiscards(args);
    if (['bash', 'sh', 'zsh', 'dash'].includes(name)) {
      const code = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
      return code !== -1 && args[code + 1] !== undefined && isDestructive(args[code + 1] as string);
    }
    return false;
  });
}

/** git subcommands that throw away uncommitted work in the working tree. */
function gitDiscards(args: string[]): boolean {
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub === 'clean') return true;
  if (sub === 'reset') return args.includes('--hard') || args.includes('--merge') || args.includes('--keep');
  if (sub === 'checkout' || sub === 'restore') return args.includes('--') || args.includes('.') || args.includes('-f') || args.includes('--force');
  if (sub === 'stash') return !args.includes('list') && !args.includes('show');
  return false;
}
