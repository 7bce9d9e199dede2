import { createInterface } from 'node:readline';
import { modelFlags, parseCommandArgs, readModelFlags } from '../args.js';
import { openCliEngine, type CliEngine } from '../engine.js';
import { PendingQuestions } from '../interaction.js';
import type { CliIO } from '../io.js';
import { TerminalRenderer, styler } from '../render.js';

const slashHelp = `Commands:
  /help            this list
  /new             start a new session
  /model           show the model in use
  /tools           list the tools the agent can call
  /usage           tokens used in this session
  /stop            interrupt the running turn (or press Ctrl+C)
  /quit            exit (or press Ctrl+C twice)
While the agent works, a line you type is delivered to it with the next tool result (steer);
/stop and /quit act at once, other commands run when the turn ends.`;

/**
 * Interactive chat. Lines typed while a turn runs steer it (terminal) or queue as the next message
 * (piped input, which is a script). Ctrl+C interrupts the turn; twice within 2 s exits.
 */
export async function chatCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('chat', argv, modelFlags);
  if (values.help) {
    io.out(`Usage: hearth [chat] [model flags]\n\n${slashHelp}\n`);
    return 0;
  }
  const engine = await openCliEngine(io, readModelFlags(values));
  try {
    return await new ChatLoop(engine, io).run();
  } finally {
    await engine.close();
  }
}

class ChatLoop {
  private readonly tty: boolean;
  private readonly style;
  private readonly renderer: TerminalRenderer;
  private readonly questions: PendingQuestions;
  /** Created with the first message, so opening and closing chat leaves no empty session behind. */
  private sessionId: string | null = null;
  private busy = false;
  private lastCtrlC = 0;
  private readonly queued: string[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly engine: CliEngine,
    private readonly io: CliIO,
  ) {
    this.tty = io.stdin.isTTY === true;
    this.style = styler(io.isTTY && !io.env.NO_COLOR);
    this.renderer = new TerminalRenderer({ write: io.out }, { write: io.out }, { color: io.isTTY && !io.env.NO_COLOR });
    this.questions = new PendingQuestions(engine.host, io.out);
  }

  async run(): Promise<number> {
    const rl = createInterface({ input: this.io.stdin, terminal: this.tty, ...(this.tty ? { output: process.stdout } : {}) });
    rl.on('line', (line) => this.onLine(line));
    rl.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    rl.on('SIGINT', () => this.onCtrlC());
    this.io.out(this.style.dim(`Hearth — ${this.engine.model.id}. /help for commands.\n`));
    for (;;) {
      if (this.tty) this.io.out(this.style.bold('› '));
      const line = await this.nextLine();
      if (line === null) break;
      const text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) {
        if (!this.slashCommand(text)) break;
        continue;
      }
      await this.turn(text);
    }
    rl.close();
    return 0;
  }

  private onLine(line: string): void {
    if (this.questions.answer(line)) return;
    const text = line.trim();
    if (this.busy && this.tty && this.sessionId !== null && text !== '') {
      // Commands are never steer text: /stop and /quit act now, the others run when the turn ends.
      if (text.startsWith('/')) {
        if (text === '/stop' || text === '/quit' || text === '/exit') this.engine.host.interrupt(this.sessionId);
        if (text !== '/stop') this.queued.push(text);
      } else this.engine.host.steer(this.sessionId, text);
      return;
    }
    this.queued.push(line);
    this.wake?.();
  }

  private onCtrlC(): void {
    const now = Date.now();
    if (now - this.lastCtrlC < 2000) process.exit(130);
    this.lastCtrlC = now;
    if (this.busy && this.sessionId !== null) this.engine.host.interrupt(this.sessionId);
    else this.io.out(this.style.dim('\n(press Ctrl+C again to exit)\n'));
  }

  private async nextLine(): Promise<string | null> {
    for (;;) {
      const line = this.queued.shift();
      if (line !== undefined) return line;
      if (this.closed) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  private async turn(text: string): Promise<void> {
    this.busy = true;
    this.sessionId ??= this.engine.host.startSession({ source: 'cli' });
    try {
      for await (const event of this.engine.host.send(this.sessionId, text)) {
        this.renderer.render(event);
        this.questions.observe(event);
      }
    } finally {
      this.busy = false;
    }
  }

  /** Returns false to quit. */
  private slashCommand(text: string): boolean {
    const [name] = text.split(/\s+/, 1);
    switch (name) {
      case '/quit':
      case '/exit':
        return false;
      case '/help':
        this.io.out(`${slashHelp}\n`);
        return true;
      case '/new':
        this.sessionId = null;
        this.io.out(this.style.dim('New session: it starts with your next message.\n'));
        return true;
      case '/model':
        this.io.out(`${this.engine.model.id}\n`);
        return true;
      case '/tools':
        this.io.out(`${this.engine.toolNames.join(', ')}\n`);
        return true;
      case '/usage': {
        const s = this.sessionId === null ? null : this.engine.store.getSession(this.sessionId);
        this.io.out(s ? `session ${s.id}: ${s.inputTokens} input tokens, ${s.outputTokens} output tokens, ${s.messageCount} messages\n` : 'No messages in this session yet.\n');
        return true;
      }
      case '/stop':
        this.io.out(this.style.dim('(nothing is running)\n'));
        return true;
      default:
        this.io.out(`Unknown command ${name}. /help lists them.\n`);
        return true;
    }
  }
}
