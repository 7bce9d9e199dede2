/**
 * The tray menu as data: built from the current state, so what it shows ("Pause gateway" vs "Resume
 * gateway") is always the truth and the template can be checked without Electron. Main rebuilds the menu
 * (`Menu.buildFromTemplate`) whenever the state changes.
 */

import { shortCommand, type WaitingSummary } from './waiting-approvals.js';

/** A background service the tray can pause: null while it is not set up (the item says so, disabled). */
export type ServiceState = 'running' | 'paused' | null;

export interface TrayState {
  gateway: ServiceState;
  cron: ServiceState;
  quickPromptShortcut: string | null;
  /** Approvals waiting for the user (waiting-approvals.ts); null when none. */
  waiting?: WaitingSummary | null;
}

export interface TrayActions {
  openMainWindow(): void;
  openQuickPrompt(): void;
  setGatewayRunning(running: boolean): void;
  setCronRunning(running: boolean): void;
  quit(): void;
}

/** The subset of Electron's `MenuItemConstructorOptions` the tray uses. */
export interface TrayMenuItem {
  id?: string;
  label?: string;
  type?: 'normal' | 'separator';
  enabled?: boolean;
  accelerator?: string;
  /** Shown but not bound: a global shortcut is registered separately (shortcuts.ts). */
  registerAccelerator?: boolean;
  click?: () => void;
}

function serviceItem(id: string, name: string, state: ServiceState, setRunning: (running: boolean) => void): TrayMenuItem {
  if (state === null) return { id, label: `${name}: not set up`, enabled: false };
  const running = state === 'running';
  return {
    id,
    label: running ? `Pause ${name.toLowerCase()} (running)` : `Resume ${name.toLowerCase()} (paused)`,
    enabled: true,
    click: () => setRunning(!running),
  };
}

export function trayMenuTemplate(state: TrayState, actions: TrayActions): TrayMenuItem[] {
  const waiting = state.waiting ?? null;
  // First, so it is what the user sees: opening the window shows the dialog (a native one asks when it stays hidden).
  const approval: TrayMenuItem[] =
    waiting === null
      ? []
      : [
          {
            id: 'approval',
            label: waiting.count === 1 ? `Waiting for you: ${shortCommand(waiting.command)}` : `${waiting.count} approvals waiting for you`,
            click: () => actions.openMainWindow(),
          },
          { type: 'separator' },
        ];
  return [
    ...approval,
    { id: 'open', label: 'Open Hearth', click: () => actions.openMainWindow() },
    {
      id: 'quick-prompt',
      label: 'Quick prompt',
      ...(state.quickPromptShortcut ? { accelerator: state.quickPromptShortcut, registerAccelerator: false } : {}),
      click: () => actions.openQuickPrompt(),
    },
    { type: 'separator' },
    serviceItem('gateway', 'Gateway', state.gateway, (running) => actions.setGatewayRunning(running)),
    serviceItem('cron', 'Scheduled jobs', state.cron, (running) => actions.setCronRunning(running)),
    { type: 'separator' },
    { id: 'quit', label: 'Quit Hearth', click: () => actions.quit() },
  ];
}
