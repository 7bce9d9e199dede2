/**
 * Composition root of the desktop app: wires Electron's real objects into the small modules next to this
 * file (each tested without Electron) and into the engine. No logic of its own beyond the order of start-up
 * and shutdown. Run it with `npm run build:electron && npx electron .` on a machine with the Electron binary.
 */
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, dialog, globalShortcut, ipcMain, Menu, nativeImage, Notification, powerMonitor, protocol, session, shell, Tray, utilityProcess } from 'electron';
import { dispatch, dispatchParsed } from '../core/app/dispatch.js';
import { openAppService } from '../core/app/open-app-service.js';
import { openEngine } from '../core/engine.js';
import { errorMessage } from '../core/errors.js';
import { DisposalStack } from '../core/lifecycle.js';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, ROUTES, type UiEvent } from '../shared/contract.js';
import { SHELL_INVOKE_CHANNEL, SHELL_ROUTES } from '../shared/shell-contract.js';
import { APP_SCHEME, QUICK_PROMPT_PAGE_URL } from './app-origin.js';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol.js';
import { ApprovalSurface, nativeApprovalDialog } from './approval-surface.js';
import { WaitingApprovals, trayToolTip } from './waiting-approvals.js';
import { CloseBehaviour, hideOnClose } from './close-behaviour.js';
import { createEventForwarder } from './event-forwarder.js';
import { createIpcRouter } from './ipc-router.js';
import { applyLaunchAtLogin, HIDDEN_START_ARG } from './login-item.js';
import { MainWindowController } from './main-window.js';
import { utilityHostSpawner } from './model-host-process.js';
import { guardNavigation, openExternalIfSafe } from './navigation-guard.js';
import { createBackgroundNotifier } from './notifications.js';
import { denyAllPermissions } from './permissions.js';
import { QuickPromptController } from './quick-prompt.js';
import { createShellDispatch } from './shell-routes.js';
import { QuickPromptShortcut } from './shortcuts.js';
import { claimSingleInstance } from './single-instance.js';
import { trayMenuTemplate, type TrayState } from './tray-menu.js';
import { mainWindowOptions, quickPromptWindowOptions } from './window-options.js';

const fromHere = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const paths = { preload: fromHere('../preload/preload.cjs'), renderer: fromHere('../renderer/'), trayIcon: fromHere('../../resources/tray-icon.png') };
const log = (message: string): void => console.error(`[hearth] ${message}`);

function notify(title: string, body: string, onClick?: () => void): void {
  log(`${title}: ${body}`);
  if (!Notification.isSupported()) return;
  const notification = new Notification({ title, body });
  if (onClick) notification.on('click', onClick);
  notification.show();
}

// Must happen before 'ready'.
protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES);
const closeBehaviour = new CloseBehaviour();
const windowInput = { preloadPath: paths.preload, devTools: !app.isPackaged };
const mainWindow = new MainWindowController((url) => {
  const window = new BrowserWindow(mainWindowOptions(windowInput));
  hideOnClose(window, closeBehaviour);
  window.once('ready-to-show', () => window.show());
  window.loadURL(url).catch((err: unknown) => log(`The main window could not load: ${errorMessage(err)}`));
  return window;
});
const quickPrompt = new QuickPromptController({
  createWindow: () => {
    const window = new BrowserWindow(quickPromptWindowOptions(windowInput));
    window.loadURL(QUICK_PROMPT_PAGE_URL).catch((err: unknown) => log(`The quick prompt could not load: ${errorMessage(err)}`));
    return window;
  },
  showMainOnSession: (sessionId) => mainWindow.showSession(sessionId),
});

/** What `start` opened, closed in reverse at quit (and at once when start-up fails half-way). */
let running: DisposalStack | null = null;

async function start(): Promise<void> {
  const stack = new DisposalStack();
  try {
    await startOn(stack);
  } catch (err) {
    await stack.dispose().catch((disposeErr: unknown) => log(`Closing after a failed start was not clean: ${errorMessage(disposeErr)}`));
    throw err;
  }
  running = stack;
  if (!process.argv.includes(HIDDEN_START_ARG)) mainWindow.show();
}

async function startOn(stack: DisposalStack): Promise<void> {
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: paths.renderer, onRefused: (url, reason) => log(`Refused ${url.slice(0, 200)}: ${reason}`) }));
  denyAllPermissions(session.defaultSession, log);
  const navigation = { openExternal: (url: string) => shell.openExternal(url), log };
  app.on('web-contents-created', (_event, contents) => guardNavigation(contents, navigation));

  // The model and embedding hosts run as utilityProcesses: with the RunAsNode fuse off, child_process.fork of the
  // app binary would not start Node.
  const engine = stack.use(
    await openEngine({
      env: process.env,
      workspace: homedir(),
      onWarning: log,
      hostSpawners: { model: utilityHostSpawner(utilityProcess.fork, 'main'), embed: utilityHostSpawner(utilityProcess.fork, 'embed-main') },
    }),
  );
  const service = openAppService(engine, { source: 'desktop', env: process.env });
  // Turns are interrupted and downloads paused before the engine closes.
  stack.use(service);
  const shortcut = stack.use(new QuickPromptShortcut(globalShortcut, () => quickPrompt.toggle(), (message) => notify('Hearth shortcut', message)));
  // A new shortcut takes effect at once, from settings or a hand edit of config.yaml: the old one is unregistered.
  stack.defer(
    engine.config.onChange((next, previous) => {
      if (next.ui.quick_prompt_shortcut !== previous.ui.quick_prompt_shortcut) shortcut.apply(next.ui.quick_prompt_shortcut);
    }),
  );
  const onInternalError = (err: unknown, route: string) => log(`Route ${route} failed: ${errorMessage(err)}`);
  // Main's own calls are parsed by dispatch; a window's calls by the router, which hands on the parsed value.
  const call = (route: string, input: unknown) => dispatch(service.handlers, route, input, { onInternalError });
  ipcMain.handle(IPC_INVOKE_CHANNEL, createIpcRouter({ routes: ROUTES, dispatch: (route, parsed) => dispatchParsed(service.handlers, route, parsed, { onInternalError }), log }));
  ipcMain.handle(
    SHELL_INVOKE_CHANNEL,
    createIpcRouter({
      routes: SHELL_ROUTES,
      dispatch: createShellDispatch({
        hideQuickPrompt: () => quickPrompt.hide(),
        continueInMain: (sessionId) => quickPrompt.continueInMain(sessionId),
        openExternal: (url) => openExternalIfSafe(url, navigation),
        writeClipboard: (text) => clipboard.writeText(text),
      }),
      log,
    }),
  );

  const watching = (): boolean => mainWindow.isAttentive() || quickPrompt.visible;
  const approvals = stack.use(new ApprovalSurface({
    isWindowAttentive: watching,
    showDialog: nativeApprovalDialog((options) => dialog.showMessageBox(options)),
    answer: (id, choice) => call('approvals.answer', { id, choice }),
    log,
  }));
  const notifyBackground = createBackgroundNotifier({ isUserWatching: watching, notify: (n) => notify(n.title, n.body, () => mainWindow.showSession(n.sessionId)) });
  const forward = createEventForwarder<UiEvent>(IPC_EVENT_CHANNEL, () => BrowserWindow.getAllWindows().map((w) => w.webContents));
  service.onEvent((event) => {
    forward(event);
    approvals.handle(event);
    notifyBackground(event);
  });

  // Gateway and scheduled jobs are not part of the engine yet: the tray shows them as not set up.
  const trayState: TrayState = { gateway: null, cron: null, quickPromptShortcut: null, waiting: null };
  const tray = new Tray(nativeImage.createFromPath(paths.trayIcon));
  tray.setToolTip(trayToolTip(null));
  const waiting = new WaitingApprovals();
  tray.on('click', () => mainWindow.show());
  const notAvailable = (what: string) => () => log(`${what} is not available in this build.`);
  const refreshTray = (): void => {
    trayState.quickPromptShortcut = shortcut.registered;
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate(trayState, {
          openMainWindow: () => mainWindow.show(),
          openQuickPrompt: () => quickPrompt.show(),
          setGatewayRunning: notAvailable('The gateway'),
          setCronRunning: notAvailable('Scheduled jobs'),
          quit: () => app.quit(),
        }),
      ),
    );
  };
  shortcut.apply(engine.config.current().ui.quick_prompt_shortcut);
  refreshTray();
  service.onEvent((event) => {
    if (waiting.handle(event)) {
      // A pending approval shows in the tray's tooltip and menu until some surface answers it or it times out.
      trayState.waiting = waiting.summary();
      tray.setToolTip(trayToolTip(trayState.waiting));
      refreshTray();
    } else if (event.channel === 'status') refreshTray();
  });

  const launchAtLogin = engine.config.current().ui.launch_at_login;
  if (launchAtLogin !== undefined) {
    const configHome = process.env.XDG_CONFIG_HOME ?? `${homedir()}/.config`;
    applyLaunchAtLogin(app, launchAtLogin, { platform: process.platform, executable: process.env.APPIMAGE ?? process.execPath, configHome });
  }
}

/** Quit: windows may close now; the engine closes before the process exits (turns interrupted, store closed). */
let stopping: Promise<void> | null = null;
async function stop(): Promise<void> {
  const stack = running;
  running = null;
  await stack?.dispose();
}

if (claimSingleInstance(app, () => mainWindow.show())) {
  app.on('before-quit', () => closeBehaviour.markQuitting('user'));
  powerMonitor.on('shutdown', () => {
    closeBehaviour.markQuitting('os-shutdown');
    app.quit();
  });
  // Closing every window leaves Hearth in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => mainWindow.show());
  app.on('will-quit', (event) => {
    if (!running) return;
    event.preventDefault();
    stopping ??= stop()
      .catch((err: unknown) => log(`Shutdown was not clean: ${errorMessage(err)}`))
      .finally(() => app.quit());
  });
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      dialog.showErrorBox('Hearth could not start', errorMessage(err));
      app.exit(1);
    });
}
