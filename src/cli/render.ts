import type { AgentEvent } from '../shared/events.js';
import { MarkdownStream } from './markdown.js';
import { countOf } from '../shared/plural.js';

/** Minimal ANSI styling; off when the stream is not a terminal or NO_COLOR is set. */
export function styler(enabled: boolean) {
  const wrap = (code: string) => (text: string) => (enabled ? `\x1b[${code}m${text}\x1b[0m` : text);
  return { dim: wrap('2'), bold: wrap('1'), red: wrap('31'), yellow: wrap('33'), cyan: wrap('36'), green: wrap('32') };
}

export interface RenderTarget {
  write(text: string): void;
}

/**
 * Renders the agent's event stream to a terminal. In `hearth run` the answer goes to stdout and everything
 * else (tool activity, notices) to stderr, so `hearth run "…" > answer.txt` captures only the answer.
 */
export class TerminalRenderer {
  private readonly style: ReturnType<typeof styler>;
  private inReasoning = false;
  private atLineStart = true;

  constructor(
    private readonly answer: RenderTarget,
    private readonly activity: RenderTarget,
    /** `markdown`: render the answer's markdown for a terminal this wide (raw markdown when absent: pipes, files). */
    options: { color: boolean; showReasoning?: boolean; streamAnswer?: boolean; markdown?: { width: number; color?: boolean; live?: { columns: number } } },
  ) {
    this.style = styler(options.color);
    this.showReasoning = options.showReasoning ?? true;
    this.streamAnswer = options.streamAnswer ?? true;
    this.markdown = options.markdown === undefined ? null : new MarkdownStream(options.markdown);
  }

  private readonly showReasoning: boolean;
  private readonly streamAnswer: boolean;
  private readonly markdown: MarkdownStream | null;

  render(event: AgentEvent): void {
    const s = this.style;
    // Whatever the answer said before a tool call, a notice or the end is printed before it.
    if (event.type !== 'text_delta' && event.type !== 'reasoning_delta' && event.type !== 'usage' && event.type !== 'status') this.flushMarkdown();
    switch (event.type) {
      case 'text_delta':
        this.endReasoning();
        if (this.streamAnswer) this.writeAnswer(event.delta);
        return;
      case 'reasoning_delta':
        if (!this.showReasoning) return;
        if (!this.inReasoning) {
          this.activity.write(s.dim('thinking: '));
          this.inReasoning = true;
        }
        this.activity.write(s.dim(event.delta));
        return;
      case 'tool_start':
        this.endReasoning();
        this.breakLine();
        this.activity.write(s.cyan(`⚙ ${event.name}`) + s.dim(` ${summariseArgs(event.args)}`) + '\n');
        return;
      case 'tool_progress':
        this.activity.write(s.dim(indent(event.text)));
        return;
      case 'tool_end': {
        const status = event.outcome?.status ?? (event.isError ? 'failed' : 'done');
        const mark = status === 'done' ? s.green('✓') : status === 'cancelled' ? s.yellow('✗') : s.red('✗');
        // Said in words, not only by the mark: a denial is not a failure of the tool, and not a success.
        const label = status === 'done' ? '' : ` ${(status === 'cancelled' ? s.yellow : s.red)(OUTCOME_WORDS[status])}`;
        const note = event.outcome?.note === undefined ? '' : ` [approval: ${event.outcome.note}]`;
        const preview = event.content.split('\n', 1)[0]?.slice(0, 120) ?? '';
        this.activity.write(`${mark} ${event.name}${label}${s.dim(`${note} (${Math.round(event.durationMs)} ms) ${preview}`)}\n`);
        return;
      }
      case 'model_fallback':
        this.breakLine();
        this.activity.write(s.yellow(`↪ ${event.from} failed (${event.reason}); using ${event.to}\n`));
        return;
      case 'notice':
        this.breakLine();
        this.activity.write((event.level === 'error' ? s.red : event.level === 'warning' ? s.yellow : s.dim)(`${event.message}\n`));
        return;
      case 'learning':
        this.breakLine();
        this.activity.write(s.green(`✦ ${event.message}`) + (event.undo ? s.dim(`  (undo: hearth memory undo ${event.undo.memoryChange})`) : '') + '\n');
        return;
      case 'review':
        this.breakLine();
        if (event.state === 'started') this.activity.write(s.dim(`(reviewing the session in the background: ${event.reason})\n`));
        else if (event.state === 'failed') this.activity.write(s.yellow(`(background review failed: ${event.reason})\n`));
        else this.activity.write(s.dim(`(background review ${event.state}: ${event.reason})\n`));
        return;
      case 'compressed':
        this.breakLine();
        this.activity.write(
          s.dim(`(context compressed: ${countOf(event.summarizedMessages, 'message', 'messages')} summarised, ${countOf(event.prunedToolOutputs, 'tool output', 'tool outputs')} shortened, ${event.tokensBefore} → ${event.tokensAfter} tokens; continuing in session ${event.sessionId})\n`),
        );
        return;
      case 'steer_applied':
        this.activity.write(s.dim(`(steer delivered: ${event.text})\n`));
        return;
      case 'turn_end':
        this.endReasoning();
        if (this.streamAnswer) this.breakLine();
        if (event.reason === 'aborted') this.activity.write(s.yellow('(interrupted)\n'));
        if (event.reason === 'budget') this.activity.write(s.yellow('(iteration budget reached)\n'));
        if (event.error) this.activity.write(s.red(`error [${event.error.code}]: ${event.error.message}\n`));
        return;
      case 'approval_request':
      case 'clarify_request':
        // Answered by the interactive prompt (see interaction.ts); just make sure we start on a fresh line.
        this.endReasoning();
        this.breakLine();
        return;
      case 'approval_resolved':
        // Answered here needs no echo; a timeout or a withdrawal must be said, or the prompt just goes quiet.
        if (!event.approved && event.reason !== 'deny') {
          this.breakLine();
          this.activity.write(s.yellow(`(not approved: ${event.reason === 'timeout' ? 'nobody answered in time, so it was denied' : event.reason})\n`));
        }
        return;
      case 'session':
      case 'status':
      case 'usage':
        return;
    }
  }

  private writeAnswer(text: string): void {
    if (text === '') return;
    const shown = this.markdown === null ? text : this.markdown.push(text);
    if (shown === '') return;
    this.answer.write(shown);
    this.atLineStart = shown.endsWith('\n');
  }

  private flushMarkdown(): void {
    if (this.markdown === null) return;
    const rest = this.markdown.end();
    if (rest === '') return;
    this.answer.write(rest);
    this.atLineStart = rest.endsWith('\n');
  }

  private breakLine(): void {
    if (!this.atLineStart) {
      this.answer.write('\n');
      this.atLineStart = true;
    }
  }

  private endReasoning(): void {
    if (this.inReasoning) {
      this.activity.write('\n');
      this.inReasoning = false;
    }
  }
}

const OUTCOME_WORDS = { failed: 'failed', denied: 'denied', timed_out: 'timed out (denied)', cancelled: 'cancelled' } as const;

function summariseArgs(args: unknown): string {
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}
