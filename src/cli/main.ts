import { readFileSync } from 'node:fs';
import { isHearthError } from '../core/errors.js';
import { formatError } from './format-error.js';
import { processIO, type CliIO } from './io.js';

const usage = `hearth — a local-first AI agent that gets better the more it is used

Usage:
  hearth [chat]                      interactive chat (Ctrl+C interrupts a turn; twice exits)
  hearth run "<prompt>" [--json]     one shot: prints the final answer
  hearth sessions list|show <id>|search "<query>" [--json]
  hearth memory show|edit|export|import|user [--json]   what Hearth remembers about you and the work
  hearth memory user list [--json]|correct <id> "<text>"|reject <id>|delete <id>   what Hearth learned about you; fix it
  hearth skills list|show <name>|validate <dir>|install <dir> [--json]
  hearth pending list|approve <id>|reject <id>           memory, skill and user-model writes waiting for approval
  hearth learning log [--limit N] [--json]               every background review, flush, reflection and curator run
  hearth approvals check "<command>"|--stdin [--json]|list|revoke <reason>   classify commands; the "always" allowlist
  hearth checkpoints list|diff <N>|rollback <N> [--dir DIR] [--yes] [--json]   undo the agent's file changes
  hearth serve [--port N] [--open] [--new-token]   the interface in your browser, on 127.0.0.1 (a stable, tokened address)
  hearth serve --api [--port N]      the local OpenAI-compatible API (bearer token HEARTH_API_KEY, else generated)
  hearth gateway [status [--json]|install]   chat platforms + cron + API, headless, until SIGTERM
  hearth pairing list [--json]|approve <platform> <code>|revoke <platform> <user>|clear-pending   who may DM the bot
  hearth cron list|create|edit|pause|resume|run|remove|history [--json]   scheduled jobs
  hearth models list|download <source> [--sha256 HEX]|fit <source>   local GGUF models
  hearth prompt-size [--json]        fixed prompt overhead per toolset
  hearth scan <file|-> [--json] | --stdin-lines [--json]   check text for prompt injection
  hearth doctor                      check keychain, database key, models, GPU, providers
  hearth setup                       first-run wizard

Model flags (chat, run, serve):
  --model <file.gguf | provider:model>   e.g. models/hermes.gguf, openai:gpt-4o-mini, anthropic:claude-sonnet-4-5
  --provider openai|anthropic|local      force the wire protocol
  --base-url <url>                       OpenAI-compatible or Anthropic endpoint (Ollama, vLLM, LM Studio, …)
  --api-key-env <VAR>                    environment variable holding the API key
  --yolo                                 skip approval prompts (hardline commands stay blocked)

Environment: HEARTH_HOME (default ~/.hearth), HEARTH_DB_KEY, OPENAI_BASE_URL, OPENAI_API_KEY, ANTHROPIC_API_KEY.
`;

type Command = (argv: string[], io: CliIO) => Promise<number>;

/**
 * Each command's module is imported when the command runs, not before: `hearth sessions list` should not load
 * the model runtime, the HTTP server and the chat UI only to print a table (issue 12, "start fast";
 * bench/cli-startup.ts measures it).
 */
const commands: Record<string, () => Promise<Command>> = {
  chat: async () => (await import('./commands/chat.js')).chatCommand,
  run: async () => (await import('./commands/run.js')).runCommand,
  sessions: async () => (await import('./commands/sessions.js')).sessionsCommand,
  memory: async () => (await import('./commands/memory.js')).memoryCommand,
  skills: async () => (await import('./commands/skills.js')).skillsCommand,
  pending: async () => (await import('./commands/pending.js')).pendingCommand,
  learning: async () => (await import('./commands/learning.js')).learningCommand,
  approvals: async () => (await import('./commands/approvals.js')).approvalsCommand,
  checkpoints: async () => (await import('./commands/checkpoints.js')).checkpointsCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  gateway: async () => (await import('./commands/gateway.js')).gatewayCommand,
  pairing: async () => (await import('./commands/pairing.js')).pairingCommand,
  cron: async () => (await import('./commands/cron.js')).cronCommand,
  models: async () => (await import('./commands/models.js')).modelsCommand,
  'prompt-size': async () => (await import('./commands/prompt-size.js')).promptSizeCommand,
  scan: async () => (await import('./commands/scan.js')).scanCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
  setup: async () => (await import('./commands/setup.js')).setupCommand,
};

/**
 * The commands a new user starts with: on a first run with no usable keychain they offer to generate the database
 * key (first-run-key.ts) instead of stopping with an error. The others report that error, which names the same fix.
 */
const OFFERS_DATABASE_KEY: ReadonlySet<string> = new Set(['chat', 'run', 'serve']);

/** Entry point: returns the exit code. Every failure is printed as one actionable line, never a stack trace. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    io.out(usage);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    io.out(`${version()}\n`);
    return 0;
  }
  // `hearth --model x` and `hearth` alone mean chat.
  const load = first === undefined || first.startsWith('-') ? commands.chat : Object.hasOwn(commands, first) ? commands[first] : undefined;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  if (!load) {
    io.err(`hearth: unknown command "${first}".\n\n${usage}`);
    return 2;
  }
  try {
    const name = first === undefined || first.startsWith('-') ? 'chat' : first;
    if (OFFERS_DATABASE_KEY.has(name) && !args.includes('--help') && !args.includes('-h')) {
      const { offerDatabaseKey } = await import('./first-run-key.js');
      const { resolveHome } = await import('../core/config/home.js');
      if (!(await offerDatabaseKey(io, resolveHome(io.env)))) return 1;
    }
    const command = await load();
    return await command(args, io);
  } catch (err) {
    io.err(formatError(err));
    return isHearthError(err, 'usage') ? 2 : 1;
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
