import { readFileSync } from 'node:fs';
import { isHearthError } from '../core/errors.js';
import { formatError } from './format-error.js';
import { approvalsCommand } from './commands/approvals.js';
import { chatCommand } from './commands/chat.js';
import { checkpointsCommand } from './commands/checkpoints.js';
import { doctorCommand } from './commands/doctor.js';
import { learningCommand } from './commands/learning.js';
import { memoryCommand } from './commands/memory.js';
import { modelsCommand } from './commands/models.js';
import { pendingCommand } from './commands/pending.js';
import { promptSizeCommand } from './commands/prompt-size.js';
import { runCommand } from './commands/run.js';
import { scanCommand } from './commands/scan.js';
import { serveCommand } from './commands/serve.js';
import { sessionsCommand } from './commands/sessions.js';
import { setupCommand } from './commands/setup.js';
import { skillsCommand } from './commands/skills.js';
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
  hearth serve [--port N] [--open]   the interface in your browser, on 127.0.0.1 with a per-launch token
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

const commands: Record<string, Command> = {
  chat: chatCommand,
  run: runCommand,
  sessions: sessionsCommand,
  memory: memoryCommand,
  skills: skillsCommand,
  pending: pendingCommand,
  learning: learningCommand,
  approvals: approvalsCommand,
  checkpoints: checkpointsCommand,
  serve: serveCommand,
  models: modelsCommand,
  'prompt-size': promptSizeCommand,
  scan: scanCommand,
  doctor: doctorCommand,
  setup: setupCommand,
};

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
  const command = first === undefined || first.startsWith('-') ? commands.chat : commands[first];
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  if (!command) {
    io.err(`hearth: unknown command "${first}".\n\n${usage}`);
    return 2;
  }
  try {
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
