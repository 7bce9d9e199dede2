import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { resolveHome } from '../../core/config/home.js';
import { openEngine } from '../../core/engine.js';
import { HearthError, errorMessage } from '../../core/errors.js';
import { ADAPTERS, configuredPlatforms, platformsWithoutAdapter } from '../../core/gateway/configured-adapters.js';
import { Gateway } from '../../core/gateway/gateway.js';
import { GatewayStore } from '../../core/gateway/gateway-store.js';
import { serviceUnit } from '../../core/gateway/service-unit.js';
import { readGatewayStatus, StatusWriter, type GatewayStatus } from '../../core/gateway/status-file.js';
import { acquireTokenLock, lockDirectory, type TokenLock } from '../../core/gateway/token-lock.js';
import type { AdapterState, PlatformAdapter } from '../../core/gateway/types.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { cliConfig } from '../services.js';

export const gatewayHelp = `Usage:
  hearth gateway                  run the chat platforms configured in config.yaml (gateway.*), cron and the API,
                                  in the foreground until SIGTERM or Ctrl+C
  hearth gateway status [--json]  each configured platform's state (connected, retrying, bad token, …)
  hearth gateway install [--json] write a systemd user unit (Linux) or a launchd agent (macOS) that runs it`;

export async function gatewayCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('gateway', argv, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(`${gatewayHelp}\n`);
    return 0;
  }
  const [action] = positionals;
  switch (action) {
    case undefined:
      return runGateway(io);
    case 'status':
      return status(io, values.json === true);
    case 'install':
      return install(io, values.json === true);
    default:
      throw new HearthError('usage', `Unknown gateway action "${action}".\n${gatewayHelp}`);
  }
}

function status(io: CliIO, json: boolean): number {
  const home = resolveHome(io.env);
  const settings = cliConfig(io).current();
  const report = readGatewayStatus(home, configuredPlatforms(settings.gateway));
  if (json) io.out(`${JSON.stringify(report)}\n`);
  else io.out(formatStatus(report));
  return 0;
}

function formatStatus(report: GatewayStatus): string {
  const head = report.running ? `Gateway running (pid ${report.pid ?? '?'}, since ${new Date(report.startedAt ?? 0).toISOString()})` : 'Gateway not running';
  const lines = report.adapters.map(({ platform, state }) => `  ${platform.padEnd(9)} ${describeState(state)}`);
  return [head + (report.adapters.length === 0 ? ': no platforms configured (gateway.* in config.yaml).' : ''), ...lines, ...(report.problem === undefined ? [] : [`warning: ${report.problem}`])].join('\n') + '\n';
}

function describeState(state: AdapterState): string {
  switch (state.state) {
    case 'connected':
      return `connected${state.account === undefined ? '' : ` as ${state.account}`} since ${new Date(state.since).toISOString()}`;
    case 'retrying':
      return `retrying (attempt ${state.attempt}, next at ${new Date(state.nextRetryAt).toISOString()}): ${state.reason}`;
    case 'bad_token':
      return `bad token: ${state.reason}`;
    case 'failed':
      return `failed: ${state.reason}`;
    default:
      return state.state;
  }
}

function install(io: CliIO, json: boolean): number {
  const home = resolveHome(io.env);
  const userHome = io.env.HOME?.trim() || homedir();
  // The unit runs this same CLI the same way it was started now (node, its loader flags, the entry script).
  const entry = process.argv[1];
  if (entry === undefined) throw new HearthError('usage', 'Cannot tell which script started hearth, so no unit can be written.');
  const unit = serviceUnit(process.platform, {
    node: process.execPath,
    entryArgs: [...process.execArgv, resolve(entry)],
    home,
    userHome,
    ...(io.env.XDG_CONFIG_HOME?.trim() ? { xdgConfigHome: io.env.XDG_CONFIG_HOME.trim() } : {}),
    ...(io.env.PATH === undefined ? {} : { path: io.env.PATH }),
  });
  mkdirSync(dirname(unit.path), { recursive: true });
  mkdirSync(join(home, 'logs'), { recursive: true });
  writeFileSync(unit.path, unit.content, { mode: 0o644 });
  if (json) io.out(`${JSON.stringify({ path: unit.path, enable: unit.enable })}\n`);
  else {
    io.out(
      `Wrote ${unit.path}\nPut the bot tokens' variables (those named by token_env in config.yaml) in ${join(home, 'gateway.env')} (chmod 600), or store them in the keychain.\nStart it with:\n  ${unit.enable}\n`,
    );
  }
  return 0;
}

/** Where chat-started work runs: `gateway.workspace` (relative to HEARTH_HOME), default `gateway-workspace` there. */
function gatewayWorkspace(home: string, configured: string | undefined): string {
  const folder = configured === undefined ? join(home, 'gateway-workspace') : isAbsolute(configured) ? configured : resolve(home, configured.replace(/^~(?=$|\/)/, homedir()));
  mkdirSync(folder, { recursive: true });
  return folder;
}

/**
 * `hearth gateway`: the engine, the configured adapters (each behind its bot-token lock), cron and the local API,
 * until SIGTERM or SIGINT; then a graceful stop in reverse order. State changes go to stderr and the status file.
 */
async function runGateway(io: CliIO): Promise<number> {
  const home = resolveHome(io.env);
  const log = (message: string): void => io.err(`gateway: ${message}\n`);
  const settings = cliConfig(io).current();
  const engine = await openEngine({ env: io.env, workspace: gatewayWorkspace(home, settings.gateway.workspace), onWarning: (m) => io.err(`warning: ${m}\n`) });
  const locks: TokenLock[] = [];
  const writer = new StatusWriter(home);
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const store = new GatewayStore(engine.sessions.store.db);
    const adapters: PlatformAdapter[] = [];
    for (const entry of ADAPTERS.filter((e) => e.configured(settings.gateway))) {
      // One platform that cannot start (a missing token, a bot another home runs) does not keep the others down.
      try {
        const built = entry.build(settings.gateway, io.env, Gateway.adapterContext(store, entry.platform, log));
        locks.push(acquireTokenLock({ directory: lockDirectory(io.env), platform: entry.platform, token: built.lockToken, home }));
        adapters.push(built.adapter);
      } catch (err) {
        writer.set(entry.platform, { state: 'failed', reason: errorMessage(err) });
        log(`${entry.platform}: not started: ${errorMessage(err)}`);
      }
    }
    for (const platform of platformsWithoutAdapter(settings.gateway)) log(`gateway.${platform} is configured, but this build has no ${platform} adapter yet: it is not started`);
    const gateway = new Gateway({
      engine,
      store,
      adapters,
      warn: log,
      onState: (platform, state) => {
        writer.set(platform, state);
        log(`${platform}: ${describeState(state)}`);
      },
    });
    writer.write();
    const stopped = waitForStopSignal();
    await gateway.start();
    stops.push(() => gateway.stop());
    // Cron and the local API are started here (issue 13, "Headless"): each pushes its stop function onto `stops`.
    // startCron(engine, …) / startApi(engine, …) are wired in by the composition once they exist.
    io.out(`Hearth gateway running (${adapters.length === 0 ? 'no chat platforms configured' : adapters.map((a) => a.platform).join(', ')}). Stop it with Ctrl+C or SIGTERM.\n`);
    // The heartbeat keeps the status file fresh and the process alive: with no platform connected, nothing else
    // would hold the event loop open and Node would exit at once.
    const heartbeat = setInterval(() => writer.write(), 30_000);
    stops.push(() => clearInterval(heartbeat));
    const signal = await stopped;
    log(`${signal}: stopping`);
    return 0;
  } finally {
    for (const stop of stops.reverse()) {
      await Promise.resolve()
        .then(stop)
        .catch((err: unknown) => log(`stopping failed: ${errorMessage(err)}`));
    }
    for (const lock of locks) lock.release();
    await engine.dispose();
    writer.write();
  }
}

function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolvePromise) => {
    const on = (signal: NodeJS.Signals) => (): void => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      resolvePromise(signal);
    };
    const onTerm = on('SIGTERM');
    const onInt = on('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  });
}
