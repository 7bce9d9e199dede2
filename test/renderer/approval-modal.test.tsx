// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import { ApprovalModal } from '../../src/renderer/chat/ApprovalModal.js';
import { eventually, startContractServer, type ContractServer } from './fixtures/contract-server.js';

/** The approval modal, wired to the real transport and a contract server standing in for the engine. */
let server: ContractServer;
let api: WebSocketHearthApi;
let services: Services;

async function setUp() {
  server = await startContractServer({ 'approvals.answer': async () => ({ accepted: true }) });
  api = webSocketApi(server.location);
  services = createServices(api);
  services.chat.setState({ sessionId: 's1', phase: 'streaming' });
  render(
    <ServicesProvider services={services}>
      <ApprovalModal />
    </ServicesProvider>,
  );
  await eventually(() => expect(api.connectionState()).toBe('open'));
}

function requestApproval(id: string, expiresInMs: number, undo: { irreversible?: boolean; checkpoint?: string } = {}) {
  server.emit({
    channel: 'agent',
    sessionId: 's1',
    event: { type: 'approval_request', id, command: `rm -rf /tmp/${id}`, reasons: ['recursive delete', 'outside the workspace'], expiresAt: Date.now() + expiresInMs, ...undo },
  });
}

afterEach(async () => {
  cleanup();
  services.dispose();
  api.close();
  await server.close();
});

describe('ApprovalModal', () => {
  it('shows the command and why it was flagged, and each button answers with its choice', async () => {
    // Catches a button wired to the wrong choice ("always" sent as "once" is a silent privilege grant).
    await setUp();
    for (const choice of ['once', 'session', 'always', 'deny'] as const) {
      requestApproval(`a-${choice}`, 60_000);
      const modal = await screen.findByTestId('approval-modal');
      expect(modal.dataset.approvalId).toBe(`a-${choice}`);
      expect(screen.getByTestId('approval-command').textContent).toBe(`rm -rf /tmp/a-${choice}`);
      expect(screen.getByTestId('approval-reasons').textContent).toContain('outside the workspace');
      expect(services.chat.getState().phase).toBe('waiting-for-user');
      fireEvent.click(screen.getByTestId(`approval-${choice}`));
      await eventually(() => expect(screen.queryByTestId('approval-modal')).toBeNull());
    }
    expect(server.calls.map((c) => c.input)).toEqual([
      { id: 'a-once', choice: 'once' },
      { id: 'a-session', choice: 'session' },
      { id: 'a-always', choice: 'always' },
      { id: 'a-deny', choice: 'deny' },
    ]);
  });

  it('counts down to expiresAt and then fails closed: "denied (timed out)" and no way to approve', async () => {
    // Catches a modal that still offers "Allow" after the engine has denied, or counts up past zero.
    await setUp();
    requestApproval('slow', 1_500);
    expect((await screen.findByTestId('approval-countdown')).textContent).toMatch(/2 s/);
    expect((await screen.findByTestId('approval-timed-out', {}, { timeout: 4_000 })).textContent).toBe('Denied (timed out).');
    for (const choice of ['once', 'session', 'always', 'deny']) expect(screen.queryByTestId(`approval-${choice}`)).toBeNull();
    fireEvent.click(screen.getByTestId('approval-dismiss'));
    expect(screen.queryByTestId('approval-modal')).toBeNull();
    expect(server.calls).toEqual([]);
  });

  it('says what undo there is: "cannot be undone", the folder a checkpoint is taken of, or that none is', async () => {
    // Catches the dialog promising a rollback for what no workspace snapshot covers (a delete outside it), or
    // dropping the irreversible flag on its way from the engine.
    await setUp();
    const cases = [
      [{ irreversible: true }, 'none', 'This cannot be undone'],
      [{ checkpoint: '/home/me/project' }, 'checkpoint', 'A checkpoint of /home/me/project is taken first'],
      [{}, 'unknown', 'No checkpoint is taken'],
    ] as const;
    for (const [undo, kind, text] of cases) {
      requestApproval(`u-${kind}`, 60_000, undo);
      const line = await screen.findByTestId('approval-undo');
      expect(line.dataset.undo).toBe(kind);
      expect(line.textContent).toContain(text);
      fireEvent.click(screen.getByTestId('approval-deny'));
      await eventually(() => expect(screen.queryByTestId('approval-modal')).toBeNull());
    }
  });

  it('a timed-out request, kept to say so, does not hide a newer one that can still be answered', async () => {
    // Catches the "Denied (timed out)" notice of an old request sitting in front of a live question until that too
    // timed out unseen.
    await setUp();
    requestApproval('old', 60_000);
    await screen.findByTestId('approval-modal');
    server.emit({ channel: 'agent', sessionId: 's1', event: { type: 'approval_resolved', id: 'old', approved: false, reason: 'timeout' } });
    await screen.findByTestId('approval-timed-out');
    requestApproval('new', 60_000);
    await eventually(() => expect(screen.getByTestId('approval-modal').dataset.approvalId).toBe('new'));
    expect(screen.getByTestId('approval-once')).toBeTruthy();
    fireEvent.click(screen.getByTestId('approval-deny'));
    await eventually(() => expect(screen.getByTestId('approval-modal').dataset.approvalId).toBe('old'));
    expect(screen.getByTestId('approval-timed-out').textContent).toBe('Denied (timed out).');
  });
});
