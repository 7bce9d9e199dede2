/**
 * The approvals the engine is waiting on, as the tray shows them: a hidden window must not mean a question nobody
 * sees until it times out. Fed the same UiEvents every window gets; an answer from any surface, or a timeout,
 * takes the question off the tray.
 */
import type { UiEvent } from '../shared/contract.js';

export interface WaitingSummary {
  count: number;
  /** The oldest waiting command (what the user is asked first). */
  command: string;
}

const SHOWN_CHARS = 60;

export class WaitingApprovals {
  private readonly open = new Map<string, string>();

  /** True when what the tray shows changed. */
  handle(event: UiEvent): boolean {
    if (event.channel !== 'agent') return false;
    const e = event.event;
    if (e.type === 'approval_request' && !this.open.has(e.id)) {
      this.open.set(e.id, e.command);
      return true;
    }
    if (e.type === 'approval_resolved') return this.open.delete(e.id);
    return false;
  }

  summary(): WaitingSummary | null {
    const first = this.open.values().next();
    return first.done === true ? null : { count: this.open.size, command: first.value };
  }
}

export function shortCommand(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS - 1)}…` : line;
}

/** The tray icon's tooltip: says when Hearth is waiting for the user. */
export function trayToolTip(waiting: WaitingSummary | null): string {
  if (waiting === null) return 'Hearth';
  return waiting.count === 1 ? `Hearth — waiting for you: ${shortCommand(waiting.command)}` : `Hearth — ${waiting.count} approvals waiting for you`;
}
