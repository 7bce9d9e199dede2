import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../src/core/safety/secrets/redact.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

const OPENAI = 'sk-proj-Tq3vX9mB2nL7kP4wR8sY1zC6dF0gH5jA';
const KNOWN = 'custom-provider-secret-77';

interface RawRow {
  role: string;
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  reasoning: string | null;
}

let temp: TempStore | undefined;
afterEach(() => temp?.cleanup());

function openRedactingStore() {
  temp = createTempStore('hearth-redact-store-');
  const store = temp.open();
  const redactor = new Redactor();
  redactor.addSecret(KNOWN, 'env:CUSTOM_API_KEY');
  store.setRedactor((text) => redactor.redact(text));
  return store;
}

function rawRows(store: ReturnType<TempStore['open']>): RawRow[] {
  return store.db.prepare<[], RawRow>('SELECT role, content, tool_calls, tool_call_id, tool_name, reasoning FROM messages ORDER BY id').all();
}

describe('session store with a redactor', () => {
  // Catches: transcripts on disk holding the keys a user pasted or a tool printed.
  it('writes content, reasoning and tool call arguments redacted, and leaves ids, roles and names alone', () => {
    const store = openRedactingStore();
    const session = store.createSession({ source: 'cli', model: 'test' });
    store.appendMessages(session.id, [
      { role: 'user', content: `my key is ${OPENAI}` },
      {
        role: 'assistant',
        content: 'I will test it.',
        reasoning: `the user gave ${OPENAI}`,
        toolCalls: [{ id: 'call_sk-proj-id', name: 'terminal', arguments: JSON.stringify({ command: `curl -H "Authorization: Bearer ${KNOWN}" x\n${OPENAI}` }) }],
      },
      { role: 'tool', content: `echo: ${KNOWN}`, toolCallId: 'call_sk-proj-id', toolName: 'terminal' },
    ]);
    const rows = rawRows(store);
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(OPENAI);
    expect(everything).not.toContain(KNOWN);
    expect(rows[0]?.content).toBe('my key is [REDACTED:openai-key]');
    expect(rows[1]?.reasoning).toBe('the user gave [REDACTED:openai-key]');
    // The arguments stay valid JSON, with the key after an escaped newline caught too.
    const calls = JSON.parse(rows[1]?.tool_calls ?? 'null') as { id: string; name: string; arguments: string }[];
    expect(calls[0]?.id).toBe('call_sk-proj-id');
    expect(JSON.parse(calls[0]?.arguments ?? '')).toEqual({ command: 'curl -H "Authorization: Bearer [REDACTED:env:CUSTOM_API_KEY]" x\n[REDACTED:openai-key]' });
    expect(rows[2]).toMatchObject({ role: 'tool', content: 'echo: [REDACTED:env:CUSTOM_API_KEY]', tool_call_id: 'call_sk-proj-id', tool_name: 'terminal' });
  });

  // Catches: the full-text index built from the unredacted text (search would find and show the key).
  it('keeps the key out of search', () => {
    const store = openRedactingStore();
    const session = store.createSession({ source: 'cli', model: 'test' });
    store.appendMessage(session.id, { role: 'user', content: `deploy with ${KNOWN} please` });
    expect(store.search('deploy').map((hit) => hit.snippet).join(' ')).not.toContain(KNOWN);
    expect(store.search('77')).toEqual([]);
  });

  // Catches: arguments rewritten (re-serialised) when there was nothing to redact; and the control: no redactor, no change.
  it('stores untouched what has no secret, and everything as given without a redactor', () => {
    const store = openRedactingStore();
    const session = store.createSession({ source: 'cli', model: 'test' });
    const args = '{ "command" :  "ls -la" }';
    store.appendMessage(session.id, { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'terminal', arguments: args }] });
    store.setRedactor(null);
    store.appendMessage(session.id, { role: 'user', content: `raw ${OPENAI}` });
    const rows = rawRows(store);
    expect(JSON.parse(rows[0]?.tool_calls ?? 'null')).toEqual([{ id: 'c1', name: 'terminal', arguments: args }]);
    expect(rows[1]?.content).toBe(`raw ${OPENAI}`);
  });
});
