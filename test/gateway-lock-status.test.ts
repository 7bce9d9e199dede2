import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceUnit } from '../src/core/gateway/service-unit.js';
import { readGatewayStatus, StatusWriter, statusFilePath } from '../src/core/gateway/status-file.js';
import { acquireTokenLock } from '../src/core/gateway/token-lock.js';

/** One owner per bot token, the status file `hearth gateway status` reads, and the service unit `install` writes. */
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-gw-lock-'));
  dirs.push(dir);
  return dir;
}

/** A real process that stays alive, to hold a lock as another gateway would. */
async function otherProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return child as ChildProcess & { pid: number };
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

describe('bot token lock', () => {
  // Catches two homes polling one bot: each would steal the other's updates and answer from a different memory.
  it('refuses a token another live gateway holds, and takes over once that process is gone', async () => {
    const directory = tempDir();
    const other = await otherProcess();
    acquireTokenLock({ directory, platform: 'telegram', token: '123:SECRET', home: '/homes/a', pid: other.pid });
    expect(() => acquireTokenLock({ directory, platform: 'telegram', token: '123:SECRET', home: '/homes/b' })).toThrow(new RegExp(`already in use by another Hearth gateway \\(pid ${other.pid}, HEARTH_HOME /homes/a\\)`));
    // Another token, or the same token on another platform, is a different bot.
    acquireTokenLock({ directory, platform: 'telegram', token: '456:OTHER', home: '/homes/b' }).release();
    other.kill('SIGKILL');
    await exited(other);
    const lock = acquireTokenLock({ directory, platform: 'telegram', token: '123:SECRET', home: '/homes/b' });
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid, home: '/homes/b' });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  // Catches the token itself written to a world-readable temp folder.
  it('never puts the token in the file name or content', () => {
    const directory = tempDir();
    const lock = acquireTokenLock({ directory, platform: 'telegram', token: '999:VERYSECRETTOKEN', home: '/h' });
    expect(readdirSync(directory).join(' ')).not.toContain('VERYSECRET');
    expect(readFileSync(lock.path, 'utf8')).not.toContain('VERYSECRET');
    lock.release();
  });

  it('treats a damaged lock file as stale', () => {
    const directory = tempDir();
    const first = acquireTokenLock({ directory, platform: 'slack', token: 'xoxb-1', home: '/h' });
    writeFileSync(first.path, '{half');
    expect(() => acquireTokenLock({ directory, platform: 'slack', token: 'xoxb-1', home: '/h2', pid: process.pid + 100_000 })).not.toThrow();
  });
});

describe('gateway status file', () => {
  // Catches a status that says "connected" after the gateway died (the file outlives its writer).
  it('reports the writer\'s states while it lives, stopped once its pid is gone', async () => {
    const home = tempDir();
    expect(readGatewayStatus(home, ['telegram'])).toEqual({ running: false, pid: null, startedAt: null, adapters: [{ platform: 'telegram', state: { state: 'stopped' } }] });
    const writer = new StatusWriter(home);
    writer.set('telegram', { state: 'connected', since: 5, account: '@hearth_bot' });
    writer.set('slack', { state: 'bad_token', reason: 'invalid_auth' });
    expect(readGatewayStatus(home, ['telegram', 'signal'])).toMatchObject({
      running: true,
      pid: process.pid,
      adapters: [
        { platform: 'telegram', state: { state: 'connected', account: '@hearth_bot' } },
        { platform: 'signal', state: { state: 'stopped' } },
        { platform: 'slack', state: { state: 'bad_token', reason: 'invalid_auth' } },
      ],
    });
    const other = await otherProcess();
    const dead = new StatusWriter(home, other.pid);
    dead.set('telegram', { state: 'connected', since: 5 });
    expect(readGatewayStatus(home, ['telegram']).running).toBe(true);
    other.kill('SIGKILL');
    await exited(other);
    expect(readGatewayStatus(home, ['telegram'])).toMatchObject({ running: false, pid: other.pid, adapters: [{ platform: 'telegram', state: { state: 'stopped' } }] });
  });

  it('says when the file is not a status file instead of crashing', () => {
    const home = tempDir();
    writeFileSync(statusFilePath(home), '{"pid": "nope"}');
    expect(readGatewayStatus(home, []).problem).toMatch(/is not a gateway status file/);
  });
});

describe('service unit', () => {
  const input = { node: '/usr/bin/node', entryArgs: ['--import', 'file:///opt/hearth/tsx.mjs', '/opt/hearth app/entry.js'], home: '/home/u/.hearth', userHome: '/home/u', path: '/usr/bin:/bin' };

  // Catches a unit systemd cannot parse (unquoted spaces), one that leaks secrets, or one that never restarts.
  it('writes a systemd user unit under ~/.config/systemd/user (or XDG_CONFIG_HOME)', () => {
    const unit = serviceUnit('linux', input);
    expect(unit.path).toBe('/home/u/.config/systemd/user/hearth-gateway.service');
    expect(serviceUnit('linux', { ...input, xdgConfigHome: '/xdg' }).path).toBe('/xdg/systemd/user/hearth-gateway.service');
    const lines = unit.content.split('\n');
    expect(lines).toContain('ExecStart=/usr/bin/node --import file:///opt/hearth/tsx.mjs "/opt/hearth app/entry.js" gateway');
    expect(lines).toContain('Environment=HEARTH_HOME=/home/u/.hearth');
    expect(lines).toContain('EnvironmentFile=-/home/u/.hearth/gateway.env');
    expect(lines).toContain('Restart=on-failure');
    expect(lines).toContain('WantedBy=default.target');
    expect(unit.content).not.toMatch(/TOKEN|DB_KEY/);
    expect(unit.enable).toContain('systemctl --user enable --now hearth-gateway.service');
  });

  it('writes a launchd agent under ~/Library/LaunchAgents on macOS', () => {
    const unit = serviceUnit('darwin', input);
    expect(unit.path).toBe('/home/u/Library/LaunchAgents/dev.hearth.gateway.plist');
    expect(unit.content).toContain('<string>/opt/hearth app/entry.js</string>\n    <string>gateway</string>');
    expect(unit.content).toContain('<key>HEARTH_HOME</key>\n    <string>/home/u/.hearth</string>');
    expect(unit.content).toContain('<key>RunAtLoad</key>\n  <true/>');
  });

  it('refuses other systems with a message that says what to do', () => {
    expect(() => serviceUnit('win32', input)).toThrow(/system's own service manager/);
  });
});
