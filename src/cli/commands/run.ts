import { HearthError, isHearthError } from '../../core/errors.js';
import type { AgentEvent } from '../../shared/events.js';
import { modelFlags, parseCommandArgs, readModelFlags } from '../args.js';
import { openCliEngine } from '../engine.js';
import { formatError } from '../format-error.js';
import { PendingQuestions } from '../interaction.js';
import type { CliIO } from '../io.js';
import { LineReader } from '../line-reader.js';
import { TerminalRenderer } from '../render.js';
import { renderMarkdown } from '../markdown.js';
import { onInterrupt } from '../signals.js';

export const runHelp = `Usage: hearth run "<prompt>" [--json] [model flags]
Runs one turn and prints the final answer on stdout (tool activity goes to stderr).
  --json   print {"session_id", "final", "messages", "usage"} instead
Approvals: with a terminal you are asked; without one, flagged commands are denied (use --yolo to allow them).`;

export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', argv, { ...modelFlags, json: { type: 'boolean' } });
  if (values.help) {
    io.out(`${runHelp}\n`);
    return 0;
  }
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new HearthError('usage', 'hearth run needs a prompt, e.g. hearth run "summarise README.md"');
  const json = values.json === true;

  const engine = await openCliEngine(io, readModelFlags(values));
  const renderer = new TerminalRenderer({ write: () => undefined }, { write: io.err }, { color: false, streamAnswer: false, showReasoning: false });
  const interactive = io.stdin.isTTY === true;
  const reader = interactive ? new LineReader(io.stdin, io.err) : undefined;
  const questions = new PendingQuestions(engine.sessions.host, io.err);
  const answerOpenQuestions = reader ? terminalAnswerer(reader, questions, io) : undefined;
  try {
    const sessionId = engine.sessions.host.startSession({ source: 'cli' });
    // Background reviews report on stderr, after the answer: they never hold it up.
    engine.sessions.host.onBackgroundEvent((_session, event) => renderer.render(event));
    const stopWatching = onInterrupt(() => engine.sessions.host.interrupt(sessionId));
    let end: Extract<AgentEvent, { type: 'turn_end' }> | undefined;
    try {
      for await (const event of engine.sessions.host.send(sessionId, prompt)) {
        renderer.render(event);
        if (event.type === 'turn_end') end = event;
        if (answerOpenQuestions) {
          // Also sees approval_resolved, so a question that timed out stops waiting for a line.
          questions.observe(event);
          if (event.type === 'approval_request' || event.type === 'clarify_request') answerOpenQuestions();
        } else if (event.type === 'approval_request' || event.type === 'clarify_request') {
          answerNonInteractively(event, engine.sessions.host, io);
        }
      }
    } finally {
      stopWatching();
    }
    if (!end) throw new HearthError('usage', 'the turn ended without a result (this is a bug: please report it)');

    if (json) {
      const session = engine.sessions.store.getSession(sessionId);
      io.out(`${JSON.stringify({
        session_id: sessionId,
        final: end.final,
        messages: engine.sessions.store.getMessages(sessionId),
        usage: { input_tokens: session?.inputTokens ?? 0, output_tokens: session?.outputTokens ?? 0 },
        ...(end.reason === 'stop' ? {} : { stopped: end.reason }),
        ...(end.error ? { error: end.error } : {}),
      })}\n`);
    } else if (end.final) {
      // On a terminal the answer's markdown is rendered; redirected (`> answer.txt`), it is kept as written.
      const shown = io.isTTY ? renderMarkdown(end.final, { width: Math.min(io.columns ?? 80, 100), color: !io.env.NO_COLOR }).replace(/\n+$/, '') : end.final;
      io.out(shown.endsWith('\n') ? shown : `${shown}\n`);
    }
    if (end.reason === 'error') return 1;
    if (end.reason === 'aborted') return 130;
    // The answer is out; let a background review finish saving before the process exits (Ctrl+C cancels it).
    const stopWaiting = onInterrupt(() => void engine.learning.loop.cancel(sessionId));
    try {
      await engine.sessions.host.learningIdle(sessionId);
    } finally {
      stopWaiting();
    }
    return 0;
  } finally {
    reader?.dispose();
    await engine.dispose();
  }
}

/** Reads answers while questions are open; one reader at a time, however many questions arrive. */
function terminalAnswerer(reader: LineReader, questions: PendingQuestions, io: CliIO): () => void {
  let reading = false;
  return () => {
    if (reading) return;
    reading = true;
    void (async () => {
      try {
        while (questions.hasOpen) questions.answer(await reader.ask(''));
      } catch (err) {
        // Input closed: what is still open fails closed when its timeout passes.
        if (!isHearthError(err, 'usage')) io.err(formatError(err));
      } finally {
        reading = false;
      }
    })();
  };
}

/** Nobody can answer: approvals fail closed, clarify questions get an explicit "no answer". */
function answerNonInteractively(event: Extract<AgentEvent, { type: 'approval_request' | 'clarify_request' }>, host: { answerApproval(id: string, d: 'deny'): void; answerClarify(id: string, text: string): void }, io: CliIO): void {
  if (event.type === 'approval_request') {
    io.err(`denied (no terminal to ask; rerun with --yolo or use \`hearth chat\`): ${event.command}\n`);
    host.answerApproval(event.id, 'deny');
  } else {
    host.answerClarify(event.id, 'The user is not available to answer (non-interactive run). Proceed with your best judgement and state your assumptions.');
  }
}
