/**
 * Where an approval request is shown. With the main window in front of the user, the renderer's modal
 * handles it and main does nothing. Otherwise (window hidden in the tray, minimised or behind other
 * windows) a native dialog asks, and its answer goes through the same route the renderer uses
 * (`approvals.answer`), so the engine cannot tell the two apart. The dialog closes itself when the request
 * is answered elsewhere or expires; an expired request has already failed closed in the engine.
 */
import type { MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import type { UiEvent } from '../shared/contract.js';
import type { DispatchResult } from './ipc-router.js';

export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';

export interface ApprovalRequest {
  sessionId: string;
  id: string;
  command: string;
  reasons: string[];
  expiresAt: number;
  /** No checkpoint can undo it. */
  irreversible?: boolean;
  /** The folder snapshotted before it runs. */
  checkpoint?: string;
}

/** Asks the user; resolves null when the dialog was closed by the signal (answered elsewhere or expired). */
export type ApprovalDialog = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalChoice | null>;

/** Button order of the native dialog; Deny is the default and what Escape gives. */
export const APPROVAL_BUTTONS: readonly { choice: ApprovalChoice; label: string }[] = [
  { choice: 'once', label: 'Allow once' },
  { choice: 'session', label: 'Allow for this session' },
  { choice: 'always', label: 'Always allow' },
  { choice: 'deny', label: 'Deny' },
];
const DENY_INDEX = APPROVAL_BUTTONS.findIndex((b) => b.choice === 'deny');

export function approvalDialogOptions(request: ApprovalRequest, now: number): MessageBoxOptions {
  const secondsLeft = Math.max(0, Math.round((request.expiresAt - now) / 1000));
  return {
    type: 'warning',
    title: 'Hearth: run this command?',
    message: request.command.length > 2000 ? `${request.command.slice(0, 2000)}…` : request.command,
    detail: `Flagged because: ${request.reasons.join('; ')}.\n${undoText(request)}\nWithout an answer in ${secondsLeft} s it is denied.`,
    buttons: APPROVAL_BUTTONS.map((b) => b.label),
    defaultId: DENY_INDEX,
    cancelId: DENY_INDEX,
    noLink: true,
  };
}

/** The same promise about undo the in-window dialog and the terminal make: none a workspace snapshot cannot keep. */
function undoText(request: ApprovalRequest): string {
  if (request.irreversible === true) return 'This cannot be undone: no checkpoint covers it.';
  if (request.checkpoint !== undefined) return `A checkpoint of ${request.checkpoint} is taken first; /rollback undoes changes inside it.`;
  return 'No checkpoint is taken for this.';
}

/** Maps the dialog's button index to an answer; anything unexpected is a denial (fail closed). */
export function choiceFromResponse(response: number): ApprovalChoice {
  return APPROVAL_BUTTONS[response]?.choice ?? 'deny';
}

/** The dialog built on Electron's `dialog.showMessageBox` (which accepts an AbortSignal to close it). */
export function nativeApprovalDialog(
  showMessageBox: (options: MessageBoxOptions) => Promise<MessageBoxReturnValue>,
  now: () => number = Date.now,
): ApprovalDialog {
  return async (request, signal) => {
    const result = await showMessageBox({ ...approvalDialogOptions(request, now()), signal });
    return signal.aborted ? null : choiceFromResponse(result.response);
  };
}

export interface ApprovalSurfaceDeps {
  /** True when the renderer's modal will be seen (main window visible and focused). */
  isWindowAttentive(): boolean;
  showDialog: ApprovalDialog;
  /** `dispatch('approvals.answer', {id, choice})`. */
  answer(id: string, choice: ApprovalChoice): Promise<DispatchResult>;
  log(message: string): void;
  now?: () => number;
}

export class ApprovalSurface {
  private readonly open = new Map<string, { controller: AbortController; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly deps: ApprovalSurfaceDeps) {}

  /** Feed every UiEvent here. */
  handle(event: UiEvent): void {
    if (event.channel !== 'agent') return;
    const agentEvent = event.event;
    if (agentEvent.type === 'approval_resolved') this.close(agentEvent.id);
    if (agentEvent.type !== 'approval_request') return;
    if (this.deps.isWindowAttentive() || this.open.has(agentEvent.id)) return;
    const { id, command, reasons, expiresAt, irreversible, checkpoint } = agentEvent;
    this.ask({ sessionId: event.sessionId, id, command, reasons, expiresAt, ...(irreversible === undefined ? {} : { irreversible }), ...(checkpoint === undefined ? {} : { checkpoint }) });
  }

  /** Closes every open dialog (on quit). */
  dispose(): void {
    for (const id of [...this.open.keys()]) this.close(id);
  }

  private ask(request: ApprovalRequest): void {
    const now = this.deps.now ?? Date.now;
    const controller = new AbortController();
    const timer = setTimeout(() => this.close(request.id), Math.max(0, request.expiresAt - now()));
    this.open.set(request.id, { controller, timer });
    void this.deps
      .showDialog(request, controller.signal)
      .then(async (choice) => {
        if (choice === null || controller.signal.aborted) return;
        this.close(request.id);
        const result = await this.deps.answer(request.id, choice);
        if (!result.ok) this.deps.log(`The approval answer from the dialog was not taken: ${result.error.message}`);
      })
      .catch((err: unknown) => {
        // No answer means the engine denies at the deadline (fail closed); log why the dialog failed.
        this.close(request.id);
        this.deps.log(`The approval dialog failed: ${err instanceof Error ? err.message : String(err)}`);
      });
  }

  private close(id: string): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    clearTimeout(entry.timer);
    entry.controller.abort();
  }
}
