import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { openEngine } from '../src/core/engine.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { useTestDockerd } from './fixtures/docker-backend-harness.js';
import { dockerdMissingMessage, findDockerd, SANDBOX_TEST_IMAGE } from './fixtures/dockerd.js';

/**
 * `terminal.backend` reaches the terminal tool through the engine. Catches a backend that is configured but
 * never used (commands silently run on the host), an SSH config with holes that fails only at the first
 * command, and sandbox auto-approval that also skips approval outside the sandbox.
 */
const dockerdPath = findDockerd();
if (dockerdPath === null) console.warn(dockerdMissingMessage());

describe('terminal.backend: ssh', () => {
  it('a missing host or user stops the engine at start, naming the key', async () => {
    const env = freshHomeEnv();
    writeFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), 'version: 1\nterminal:\n  backend: ssh\n');
    const failure = await openEngine({ env, workspace: env.HEARTH_HOME as string }).catch((err: unknown) => err);
    expect(isHearthError(failure, 'config_invalid')).toBe(true);
    expect(String((failure as Error).message)).toMatch(/terminal\.ssh\.(host|user)/);
  });
});

describe.skipIf(dockerdPath === null)('terminal.backend: docker', () => {
  const dockerd = useTestDockerd(dockerdPath as string);
  let app: AppHarness | null = null;

  afterEach(async () => {
    await app?.close();
    app = null;
  });

  /** Each turn: run `command` in the terminal, then say done. */
  const runs = (command: string) => (_req: unknown, index: number) => (index % 2 === 0 ? { toolCalls: [{ name: 'terminal', arguments: { command } }] } : { text: 'done' });

  async function start(command: string, dockerConfig: string): Promise<AppHarness> {
    const harness = await startAppHarness(runs(command), {
      configExtra: `terminal:\n  backend: docker\n  docker:\n    image: ${SANDBOX_TEST_IMAGE}\n    memory_mb: 256\n    cpus: 1\n    pids_limit: 64\n${dockerConfig}`,
    });
    return harness;
  }

  async function toolResult(harness: AppHarness, text: string): Promise<string> {
    const from = harness.events.length;
    const { sessionId } = await harness.service.handlers['chat.start']({});
    await harness.service.handlers['chat.send']({ sessionId, text, attachments: [] });
    await expect.poll(() => harness.events.slice(from).some((e) => e.channel === 'agent' && e.event.type === 'turn_end'), { timeout: 30_000 }).toBe(true);
    const end = harness.events.slice(from).find((e) => e.channel === 'agent' && e.event.type === 'tool_end');
    return end?.channel === 'agent' && end.event.type === 'tool_end' ? end.event.content : '';
  }

  it('runs the terminal tool in the sandbox container, and removes it when the engine closes', async () => {
    process.env.DOCKER_HOST = `unix://${dockerd.daemon.socketPath}`;
    try {
      // auto_approve: `touch /etc/escape` is a flagged write (the detector reads touch's targets); the sandbox, not
      // the approval, must be what stops it here.
      app = await start('id -u; ls /; touch /etc/escape 2>&1', '    auto_approve: true\n');
      const result = await toolResult(app, 'who am i');
      expect(result).toMatch(/^65534$/m);
      expect(result).toMatch(/Read-only file system/);
      expect(existsSync('/etc/escape')).toBe(false);
      expect((await dockerd.daemon.docker.listContainers({ all: true, filters: { label: ['hearth.session'] } })).length).toBe(1);
      await app.close();
      app = null;
      expect((await dockerd.daemon.docker.listContainers({ all: true, filters: { label: ['hearth.session'] } })).length).toBe(0);
    } finally {
      delete process.env.DOCKER_HOST;
    }
  });

  it('with auto_approve, a dangerous command runs in the sandbox without asking', async () => {
    process.env.DOCKER_HOST = `unix://${dockerd.daemon.socketPath}`;
    try {
      app = await start('rm -rf /tmp/x; mkdir -p /tmp/x && echo made', '    auto_approve: true\n');
      const result = await toolResult(app, 'go');
      expect(result).toContain('made');
      expect(app.events.some((e) => e.channel === 'agent' && e.event.type === 'approval_request')).toBe(false);
    } finally {
      delete process.env.DOCKER_HOST;
    }
  });
});
