import type { ApprovalDecision } from '../core/safety/approvals/broker.js';
import type { AgentEvent, ApprovalRequestEvent } from '../shared/events.js';

/**
 * Answers the questions a running turn asks the user (approvals, clarify) from lines the terminal
 * delivers. While a question is open the next line answers it; otherwise lines go to `onIdleLine`.
 */
/** How the prompt names what it asks about. */
const APPROVAL_SUBJECTS = { command: '', file_write: 'write the file ', self_modification: 'change Hearth itself: ', message: 'send a message to ' } as const;

export interface QuestionAnswerer {
  /** False when the question is no longer open (it timed out or was withdrawn first). */
  answerApproval(id: string, decision: ApprovalDecision): boolean;
  answerClarify(id: string, text: string): boolean;
}

type OpenQuestion =
  | { kind: 'approval'; id: string }
  | { kind: 'clarify'; id: string; choices: string[] };

export class PendingQuestions {
  private readonly open: OpenQuestion[] = [];

  constructor(
    private readonly host: QuestionAnswerer,
    private readonly write: (text: string) => void,
  ) {}

  get hasOpen(): boolean {
    return this.open.length > 0;
  }

  /** Called for every event; opens a question for approval/clarify requests and prints the prompt. */
  observe(event: AgentEvent): void {
    if (event.type === 'approval_request') {
      this.open.push({ kind: 'approval', id: event.id });
      const seconds = Math.max(0, Math.round((event.expiresAt - Date.now()) / 1000));
      this.write(
        `\n⚠ Approval needed: ${APPROVAL_SUBJECTS[event.kind ?? 'command']}${event.command}\n  why: ${event.reasons.join('; ')}\n  ${undoLine(event)}\n` +
          `  [o]nce  [s]ession  [a]lways  [d]eny  (denied automatically in ${seconds}s) > `,
      );
    } else if (event.type === 'clarify_request') {
      this.open.push({ kind: 'clarify', id: event.id, choices: event.choices });
      const choices = event.choices.map((c, i) => `  ${i + 1}. ${c}\n`).join('');
      this.write(`\n? ${event.question}\n${choices}  answer${event.choices.length ? ' (number or text)' : ''} > `);
    } else if (event.type === 'approval_resolved') {
      // Timed out or answered elsewhere: stop waiting for a line for it.
      const index = this.open.findIndex((q) => q.kind === 'approval' && q.id === event.id);
      if (index >= 0) this.open.splice(index, 1);
    }
  }

  /** Returns true when the line answered an open question. */
  answer(line: string): boolean {
    const question = this.open[0];
    if (!question) return false;
    const text = line.trim();
    if (question.kind === 'approval') {
      const decision = parseDecision(text);
      if (!decision) {
        this.write('  please answer o, s, a or d > ');
        return true;
      }
      this.open.shift();
      // The engine holds the question: an answer that arrives after it closed is refused, and the user is told.
      if (!this.host.answerApproval(question.id, decision)) this.write('  (too late: that approval is no longer open, so it was not applied)\n');
      return true;
    }
    this.open.shift();
    const index = Number.parseInt(text, 10);
    const chosen = String(index) === text ? question.choices[index - 1] : undefined;
    if (!this.host.answerClarify(question.id, chosen ?? text)) this.write('  (too late: that question is no longer open)\n');
    return true;
  }
}

/** What undo there is, said before the user answers: never a rollback promise a workspace snapshot cannot keep. */
export function undoLine(event: ApprovalRequestEvent): string {
  if (event.irreversible === true) return 'This cannot be undone: no checkpoint covers it.';
  if (event.checkpoint !== undefined) return `A checkpoint of ${event.checkpoint} is taken first; /rollback undoes changes inside it.`;
  return 'No checkpoint is taken for this.';
}

export function parseDecision(text: string): ApprovalDecision | null {
  switch (text.toLowerCase()) {
    case 'o': case 'once': case 'y': case 'yes': return 'once';
    case 's': case 'session': return 'session';
    case 'a': case 'always': return 'always';
    case 'd': case 'deny': case 'n': case 'no': return 'deny';
    default: return null;
  }
}
