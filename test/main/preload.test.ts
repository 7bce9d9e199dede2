import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type UiEvent } from '../../src/shared/contract.js';
import { SHELL_EVENT_CHANNEL, SHELL_INVOKE_CHANNEL } from '../../src/shared/shell-contract.js';

/**
 * The preload exactly as it ships: built by scripts/build-preload.js, then evaluated the way a sandboxed
 * Electron renderer evaluates it — a fresh V8 context whose `require` knows only `electron` (a loaded
 * sibling file or package would throw here as it would there). `electron` is a small fake of
 * contextBridge/ipcRenderer, since the real binary cannot run on this machine.
 */
const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'hearth-preload-'));
const built = join(work, 'preload.cjs');

type Listener = (event: unknown, ...args: unknown[]) => void;

class FakeIpcRenderer {
  readonly invocations: unknown[][] = [];
  readonly listeners = new Map<string, Set<Listener>>();
  reply: (channel: string, args: unknown[]) => unknown = () => ({ ok: true, output: null });
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invocations.push([channel, ...args]);
    return this.reply(channel, args);
  }
  on(channel: string, listener: Listener): this {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)?.add(listener);
    return this;
  }
  removeListener(channel: string, listener: Listener): this {
    this.listeners.get(channel)?.delete(listener);
    return this;
  }
  /** What Electron does on a message from main: (IpcRendererEvent, ...args). */
  emit(channel: string, payload: unknown): void {
    const ipcEvent = { sender: this, senderId: 0, ports: [] };
    for (const l of this.listeners.get(channel) ?? []) l(ipcEvent, payload);
  }
}

function loadPreload() {
  const ipc = new FakeIpcRenderer();
  const exposed = new Map<string, unknown>();
  const contextBridge = { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) };
  const required: string[] = [];
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return { contextBridge, ipcRenderer: ipc };
    throw new Error(`module not found in a sandboxed preload: ${name}`);
  };
  const module = { exports: {} };
  runInNewContext(readFileSync(built, 'utf8'), { require: sandboxRequire, module, exports: module.exports }, { filename: 'preload.cjs' });
  const hearth = exposed.get('hearth') as {
    invoke(route: string, input: unknown): Promise<unknown>;
    invokeResult(route: string, input: unknown): Promise<unknown>;
    onEvent(listener: (...args: unknown[]) => void): () => void;
  };
  const shell = exposed.get('hearthShell') as { invoke(route: string, input: unknown): Promise<unknown>; onShellEvent(listener: (...args: unknown[]) => void): () => void };
  return { ipc, exposed, hearth, shell, required };
}

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build-preload.js'), built], { cwd: root });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('preload (built, in a sandbox-like context)', () => {
  // Bug caught: a preload importing a sibling module or zod, which a sandboxed renderer cannot load.
  it('requires nothing but electron and exposes exactly hearth and hearthShell', () => {
    const { exposed, required } = loadPreload();
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['hearth', 'hearthShell']);
  });

  // Bug caught: raw ipcRenderer (or its send/on) reachable from the page.
  it('never exposes ipcRenderer or any of its methods', () => {
    const { exposed, ipc } = loadPreload();
    for (const api of exposed.values()) {
      for (const [key, value] of Object.entries(api as object)) {
        expect(value, key).not.toBe(ipc);
        expect(value, key).not.toBe(ipc.invoke);
        expect(value, key).not.toBe(ipc.on);
      }
    }
    expect(Object.keys(exposed.get('hearth') as object).sort()).toEqual(['invoke', 'invokeResult', 'onEvent']);
    expect(Object.keys(exposed.get('hearthShell') as object).sort()).toEqual(['invoke', 'onShellEvent']);
  });

  it('invoke sends (route, input) on the contract channel and returns the output', async () => {
    const { hearth, ipc } = loadPreload();
    ipc.reply = () => ({ ok: true, output: { sessionId: 's1' } });
    await expect(hearth.invoke('chat.start', { title: 'x' })).resolves.toEqual({ sessionId: 's1' });
    expect(ipc.invocations).toEqual([[IPC_INVOKE_CHANNEL, 'chat.start', { title: 'x' }]]);
  });

  // Bug caught: an error reply resolving as if it were output, or losing its code.
  it('an error reply becomes a thrown Error with code, message and issues', async () => {
    const { hearth, ipc } = loadPreload();
    ipc.reply = () => ({ ok: false, error: { code: 'invalid_input', message: 'Invalid input for chat.send.', issues: [{ path: 'text', message: 'Required' }] } });
    const error = (await hearth.invoke('chat.send', {}).catch((e: unknown) => e)) as Error & { code: string; issues: unknown };
    // A real Error, from the preload's own realm (so `instanceof` here would be the wrong check).
    expect(Object.prototype.toString.call(error)).toBe('[object Error]');
    expect(error.name).toBe('HearthApiError');
    expect(error.message).toBe('Invalid input for chat.send.');
    expect(error.code).toBe('invalid_input');
    expect(error.issues).toEqual([{ path: 'text', message: 'Required' }]);
    // The plain reply survives contextBridge intact (an Error keeps only its message there).
    await expect(hearth.invokeResult('chat.send', {})).resolves.toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('a malformed reply is an internal error, not undefined output', async () => {
    const { hearth, ipc } = loadPreload();
    ipc.reply = () => 'surprise';
    await expect(hearth.invoke('app.status', {})).rejects.toMatchObject({ code: 'internal' });
  });

  // Bug caught: the IpcRendererEvent (whose `sender` is ipcRenderer itself) handed to page code.
  it('onEvent passes only the payload and unsubscribes', () => {
    const { hearth, ipc } = loadPreload();
    const received: unknown[][] = [];
    const off = hearth.onEvent((...args: unknown[]) => received.push(args));
    const event: UiEvent = { channel: 'agent', sessionId: 's1', event: { type: 'text_delta', delta: 'hi' } };
    ipc.emit(IPC_EVENT_CHANNEL, event);
    expect(received).toEqual([[event]]);
    off();
    ipc.emit(IPC_EVENT_CHANNEL, event);
    expect(received).toHaveLength(1);
    expect(ipc.listeners.get(IPC_EVENT_CHANNEL)?.size).toBe(0);
  });

  it('onEvent refuses a non-function listener', () => {
    const { hearth } = loadPreload();
    expect(() => hearth.onEvent('nope' as never)).toThrow(/function/);
  });

  it('the shell API uses the shell channels', async () => {
    const { shell, ipc } = loadPreload();
    ipc.reply = () => ({ ok: true, output: { ok: true } });
    await expect(shell.invoke('quickPrompt.hide', {})).resolves.toEqual({ ok: true });
    expect(ipc.invocations[0]?.[0]).toBe(SHELL_INVOKE_CHANNEL);
    const got: unknown[][] = [];
    shell.onShellEvent((...args: unknown[]) => got.push(args));
    ipc.emit(SHELL_EVENT_CHANNEL, { type: 'open_session', sessionId: 's2' });
    expect(got).toEqual([[{ type: 'open_session', sessionId: 's2' }]]);
  });

  // Bug caught: the channel names restated in the preload drifting from the contract's.
  it('its channel names are the contract channels', () => {
    const source = readFileSync(join(root, 'src/preload/preload.ts'), 'utf8');
    for (const channel of [IPC_INVOKE_CHANNEL, IPC_EVENT_CHANNEL, SHELL_INVOKE_CHANNEL, SHELL_EVENT_CHANNEL]) expect(source).toContain(`'${channel}'`);
    const { ipc, hearth, shell } = loadPreload();
    hearth.onEvent(() => undefined);
    shell.onShellEvent(() => undefined);
    expect([...ipc.listeners.keys()].sort()).toEqual([IPC_EVENT_CHANNEL, SHELL_EVENT_CHANNEL].sort());
  });
});

describe('preload build', () => {
  // Bug caught: someone adds a value import to the preload; the build must fail, not ship a broken window.
  it('refuses a preload that loads a local module', () => {
    const bad = join(work, 'bad-preload.ts');
    writeFileSync(bad, "import { contextBridge } from 'electron';\nimport { ROUTES } from '../shared/contract.js';\ncontextBridge.exposeInMainWorld('x', ROUTES);\n");
    const run = spawnSync(process.execPath, [join(root, 'scripts/build-preload.js'), join(work, 'bad.cjs'), bad], { cwd: root, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/cannot load \.\.\/shared\/contract\.js/);
  });
});
