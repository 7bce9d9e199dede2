import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HostExit } from '../../src/core/local-model/local-process.js';
import { ModelHostProcess } from '../../src/core/local-model/local-process.js';
import type { HostEvent } from '../../src/shared/model-host-protocol.js';
import { builtHostModulePath, utilityHostChild, utilityHostSpawner, type ForkUtilityProcess, type UtilityProcessLike } from '../../src/main/model-host-process.js';

/**
 * What is and is not tested here: Electron's utilityProcess cannot run on this machine. The adapter's own
 * logic (queueing until 'spawn', one exit report with the stderr tail, kill) is driven through a fake with
 * utilityProcess's event API. Then the adapter runs a REAL model host process through the engine's
 * `ModelHostProcess`, with `child_process.fork` standing in for `utilityProcess.fork` (Node IPC under the
 * utilityProcess-shaped API): that proves the message semantics end to end, but not Electron's parentPort.
 */
class FakeUtilityProcess extends EventEmitter implements UtilityProcessLike {
  pid: number | undefined = undefined;
  readonly stderr = new PassThrough();
  readonly posted: unknown[] = [];
  killed = 0;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill(): boolean {
    this.killed++;
    return true;
  }
}

const nextExit = (child: ReturnType<typeof utilityHostChild>) => new Promise<HostExit>((r) => child.onExit(r));

describe('utilityProcess host adapter', () => {
  // Bug caught: the engine's first `load` lost because it was posted before the process spawned.
  it('queues messages until spawn, then sends them in order', () => {
    const proc = new FakeUtilityProcess();
    const child = utilityHostChild(proc);
    child.postMessage({ type: 'load', n: 1 });
    child.postMessage({ type: 'generate', n: 2 });
    expect(proc.posted).toEqual([]);
    proc.pid = 4242;
    proc.emit('spawn');
    expect(proc.posted).toEqual([{ type: 'load', n: 1 }, { type: 'generate', n: 2 }]);
    child.postMessage({ type: 'abort' });
    expect(proc.posted).toHaveLength(3);
    expect(child.pid).toBe(4242);
  });

  it('delivers messages from the host', () => {
    const proc = new FakeUtilityProcess();
    const child = utilityHostChild(proc);
    const got: unknown[] = [];
    child.onMessage((m) => got.push(m));
    proc.emit('message', { type: 'loaded' });
    expect(got).toEqual([{ type: 'loaded' }]);
  });

  // Bug caught: a crash report without llama.cpp's GGML_ASSERT line because 'exit' overtook stderr.
  it('reports exit once, with the stderr written before the stream ended', async () => {
    const proc = new FakeUtilityProcess();
    const child = utilityHostChild(proc);
    const exits: HostExit[] = [];
    child.onExit((e) => exits.push(e));
    proc.emit('spawn');
    proc.stderr.write('loading…\n');
    proc.emit('exit', 134);
    proc.emit('exit', 134);
    proc.stderr.write('GGML_ASSERT(n_dims <= 4) failed\n');
    proc.stderr.end();
    await new Promise((r) => setTimeout(r, 20));
    expect(exits).toHaveLength(1);
    expect(exits[0]).toMatchObject({ code: 134, signal: null });
    expect(exits[0]?.stderrTail).toContain('GGML_ASSERT');
    // Posting after exit is dropped, and kill after exit does nothing.
    child.postMessage({ type: 'load' });
    child.kill();
    expect(proc.posted).toEqual([]);
    expect(proc.killed).toBe(0);
  });

  it('does not wait forever for a stderr that never ends, and records a V8 fatal error', async () => {
    const proc = new FakeUtilityProcess();
    const child = utilityHostChild(proc);
    const exit = nextExit(child);
    proc.emit('error', 'FatalError', 'v8::ToLocalChecked', 'report');
    proc.emit('exit', 5);
    const report = await exit;
    expect(report.code).toBe(5);
    expect(report.stderrTail).toContain('FatalError at v8::ToLocalChecked');
  });

  it('the built host path is dist/model-host next to dist/main', () => {
    expect(builtHostModulePath('main', 'file:///opt/hearth/dist/main/model-host-process.js')).toBe('/opt/hearth/dist/model-host/main.js');
    expect(builtHostModulePath('embed-main', 'file:///opt/hearth/dist/main/model-host-process.js')).toBe('/opt/hearth/dist/model-host/embed-main.js');
  });
});

/** `child_process.fork` presented with utilityProcess's API: 'spawn', 'message', 'exit' (code), stderr. */
const forkAsUtility: ForkUtilityProcess = (modulePath, args) => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = fork(modulePath, args, { execArgv: ['--import', tsx], stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
  const proc = new EventEmitter() as EventEmitter & UtilityProcessLike;
  Object.defineProperty(proc, 'pid', { get: () => child.pid });
  Object.defineProperty(proc, 'stderr', { value: child.stderr });
  proc.postMessage = (message) => void child.send(message as object);
  proc.kill = () => child.kill('SIGTERM');
  child.on('spawn', () => proc.emit('spawn'));
  child.on('message', (m) => proc.emit('message', m));
  child.on('exit', (code, signal) => proc.emit('exit', code ?? (signal ? 128 : 0)));
  return proc;
};

describe('the real model host through the adapter', () => {
  // Bug caught: the adapter breaking the engine ↔ host message flow (HostProcess never sees replies).
  it('a junk message gets the host’s invalid_message reply, and shutdown ends the process', async () => {
    const hostSource = join(resolve(import.meta.dirname, '../..'), 'src/model-host/main.ts');
    const host = ModelHostProcess.start(utilityHostSpawner(forkAsUtility, 'main', hostSource));
    const reply = new Promise<HostEvent>((r) => host.subscribe(r));
    host.sendRaw({ type: 'no-such-message', requestId: 'r1' });
    expect(await reply).toMatchObject({ type: 'error', code: 'invalid_message' });
    expect(host.pid).toBeTypeOf('number');
    await host.stop(5000);
    expect(host.alive).toBe(false);
  });
});
