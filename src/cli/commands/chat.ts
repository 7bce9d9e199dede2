import { createInterface } from 'node:readline';
import { modelFlags, parseCommandArgs, readModelFlags } from '../args.js';
import { openCliEngine, type CliEngine } from '../engine.js';
import { PendingQuestions } from '../interaction.js';
import type { CliIO } from '../io.js';
import { TerminalRenderer, styler } from '../render.js';
import { EXIT_NOTICE, INTERRUPT_NOTICE } from '../signals.js';
import { renderSkillContent } from '../../core/skills/catalog.js';
import { projectWithCheckpoints } from '../../core/checkpoints/project-root.js';
import { formatError } from '../format-error.js';
import { CheckpointSession, openCheckpointStore, rollbackSlashCommand } from './checkpoints.js';
import { countOf } from '../../shared/plural.js';

const slashHelp = `Commands:
  /help            this list
  /new             start a new session (what is worth keeping is saved first)
  /compress [focus]  summarise the older part of the conversation now
  /skills          list the skills Hearth knows
  /<skill-name> [request]  run a skill: its instructions go to the agent with your request
  /model           show the model in use
  /tools           list the tools the agent can call
  /usage           tokens used in this session
  /rollback [N]    list checkpoints, or put the files back as they were at checkpoint N (asks first)
  /rollback diff N what changed since checkpoint N
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
    await engine.dispose();
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
    const color = io.isTTY && !io.env.NO_COLOR;
    // On a terminal the answer's markdown is rendered (emphasis, lists, highlighted code, wrapped; NO_COLOR keeps
    // the layout without styling); piped, it stays raw.
    const markdown = { width: Math.min(io.columns ?? 80, 100), color, live: { columns: io.columns ?? 80 } };
    this.renderer = new TerminalRenderer({ write: io.out }, { write: io.out }, { color, ...(io.isTTY ? { markdown } : {}) });
    this.questions = new PendingQuestions(engine.sessions.host, io.out);
    // Background reviews report here between and during turns ("✦ Skill 'x' created").
    engine.sessions.host.onBackgroundEvent((_session, event) => this.renderer.render(event));
  }

  async run(): Promise<number> {
    const rl = createInterface({ input: this.io.stdin, terminal: this.tty, ...(this.tty ? { output: process.stdout } : {}) });
    rl.on('line', (line) => this.onLine(line));
    rl.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    rl.on('SIGINT', () => this.onCtrlC());
    this.io.out(this.style.dim(`Hearth — ${this.engine.models.chat.id}. /help for commands.\n`));
    for (;;) {
      if (this.tty) this.io.out(this.style.bold('› '));
      const line = await this.nextLine();
      if (line === null) break;
      const text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) {
        const outcome = await this.slashCommand(text);
        if (outcome === 'quit') break;
        if (typeof outcome === 'object') await this.turn(outcome.send);
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
        if (text === '/stop' || text === '/quit' || text === '/exit') this.engine.sessions.host.interrupt(this.sessionId);
        if (text !== '/stop') this.queued.push(text);
      } else this.engine.sessions.host.steer(this.sessionId, text);
      return;
    }
    this.queued.push(line);
    this.wake?.();
  }

  private onCtrlC(): void {
    const now = Date.now();
    if (now - this.lastCtrlC < 2000) process.exit(130);
    this.lastCtrlC = now;
    // Said every time, so a user who pressed it to stop a turn knows a second press would end the whole session.
    if (this.busy && this.sessionId !== null) {
      this.engine.sessions.host.interrupt(this.sessionId);
      this.io.out(this.style.dim(`\n${INTERRUPT_NOTICE}\n`));
    } else this.io.out(this.style.dim(`\n${EXIT_NOTICE}\n`));
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
    this.sessionId ??= this.engine.sessions.host.startSession({ source: 'cli' });
    try {
      for await (const event of this.engine.sessions.host.send(this.sessionId, text)) {
        this.renderer.render(event);
        this.questions.observe(event);
      }
    } finally {
      this.busy = false;
    }
  }

  /** 'quit' ends chat; `{send}` becomes the next message (a skill activation). */
  private async slashCommand(text: string): Promise<'quit' | 'done' | { send: string }> {
    const handled = await this.learningCommand(text);
    if (handled !== null) return handled;
    return this.basicCommand(text) ? 'done' : 'quit';
  }

  /** /new, /compress, /rollback, /skills and /<skill-name>; null when `text` is none of them. */
  private async learningCommand(text: string): Promise<'done' | { send: string } | null> {
    const [name = '', ...rest] = text.split(/\s+/);
    const argument = rest.join(' ').trim();
    const { sessions: { host }, learning } = this.engine;
    switch (name) {
      case '/new':
        if (this.sessionId !== null) await host.endSession(this.sessionId);
        this.sessionId = null;
        this.io.out(this.style.dim('New session: it starts with your next message.\n'));
        return 'done';
      case '/compress': {
        if (this.sessionId === null) {
          this.io.out('Nothing to compress yet.\n');
          return 'done';
        }
        const { events } = await host.compress(this.sessionId, argument === '' ? {} : { focus: argument });
        for (const event of events) this.renderer.render(event);
        return 'done';
      }
      case '/rollback': {
        const { home, config } = this.engine;
        const session = new CheckpointSession(openCheckpointStore(home, config.current().checkpoints), projectWithCheckpoints(home, this.io.cwd));
        const out = (line: string): void => this.io.out(line);
        // A wrong number or a store that cannot be read is reported; chat goes on.
        await rollbackSlashCommand(session, argument, out, async () => {
          out('Roll back? [y/N] ');
          return /^y(es)?$/i.test((await this.nextLine())?.trim() ?? '');
        }).catch((err: unknown) => out(formatError(err)));
        return 'done';
      }
      case '/skills': {
        const skills = learning.skills.library().skills;
        this.io.out(skills.length ? skills.map((s) => `/${s.name}  ${this.style.dim(s.description.slice(0, 90))}`).join('\n') + '\n' : 'No skills yet.\n');
        return 'done';
      }
      default: {
        const skill = learning.skills.find(name.slice(1));
        if (skill === undefined) return null;
        // User activation: the skill's instructions go in as a user message (never the system prompt), with the request.
        learning.skills.usage.recordUse(skill.name);
        const request = argument === '' ? 'Follow this skill now.' : argument;
        return { send: `${renderSkillContent(skill)}\n\n${request}` };
      }
    }
  }

  /** Returns false to quit. */
  private basicCommand(text: string): boolean {
    const [name] = text.split(/\s+/, 1);
    switch (name) {
      case '/quit':
      case '/exit':
        return false;
      case '/help':
        this.io.out(`${slashHelp}\n`);
        return true;
      case '/model':
        this.io.out(`${this.engine.models.chat.id}\n`);
        return true;
      case '/tools':
        this.io.out(`${this.engine.toolNames.join(', ')}\n`);
        return true;
      case '/usage': {
        const s = this.sessionId === null ? null : this.engine.sessions.store.getSession(this.sessionId);
        this.io.out(s ? `session ${s.id}: ${countOf(s.inputTokens, 'input token', 'input tokens')}, ${countOf(s.outputTokens, 'output token', 'output tokens')}, ${countOf(s.messageCount, 'message', 'messages')}\n` : 'No messages in this session yet.\n');
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
