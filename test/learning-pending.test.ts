import { afterEach, describe, expect, it } from 'vitest';
import { PendingWrites } from '../src/core/learning/pending-writes.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

let temp: TempStore;
afterEach(() => temp.cleanup());

describe('staged learning writes', () => {
  it('stages, lists, approves (applying the same payload) and survives a reopen of the encrypted store', async () => {
    temp = createTempStore();
    const first = new PendingWrites(temp.open().db);
    const staged = first.stage({ kind: 'memory', sessionId: null, payload: { action: 'add', target: 'user', content: 'Prefers tabs' }, summary: 'memory add (user): Prefers tabs' });
    const reopened = new PendingWrites(temp.open().db);
    expect(reopened.list()).toEqual([staged]);
    const applied: unknown[] = [];
    await reopened.approve(staged.id, (write) => void applied.push(write.payload));
    expect(applied).toEqual([{ action: 'add', target: 'user', content: 'Prefers tabs' }]);
    expect(reopened.list()).toEqual([]);
  });

  it('a write whose apply fails stays staged (the error reaches the caller, nothing is lost)', async () => {
    temp = createTempStore();
    const pending = new PendingWrites(temp.open().db);
    const staged = pending.stage({ kind: 'skill', sessionId: 's1', payload: { action: 'create', name: 'x' }, summary: 'skill create x' });
    await expect(pending.approve(staged.id, () => Promise.reject(new Error('memory is full')))).rejects.toThrow('memory is full');
    expect(pending.list().map((w) => w.id)).toEqual([staged.id]);
  });

  it('approving or rejecting an unknown id is a usage error naming the command that lists them', () => {
    temp = createTempStore();
    const pending = new PendingWrites(temp.open().db);
    expect(() => pending.reject(42)).toThrow(/No staged write with id 42.*hearth pending list/);
  });
});
