import { describe, expect, it } from 'vitest';
import { GatewaySection } from '../src/core/config/schema-gateway.js';
import { closeCodeState } from '../src/core/gateway/platforms/discord-close-codes.js';
import { ChannelCursors } from '../src/core/gateway/platforms/discord-cursor.js';
import { actionRows } from '../src/core/gateway/platforms/discord-outgoing.js';

describe('discord adapter pieces', () => {
  it('moves a channel cursor only past messages the gateway finished, in arrival order', () => {
    const map = new Map<string, string>();
    const cursors = new ChannelCursors({ get: (k) => map.get(k), set: (k, v) => void map.set(k, v) });
    const first = cursors.begin('10', '100');
    const second = cursors.begin('10', '101');
    second(); // finished first, but 100 is still being handled: a crash now must refetch 100
    expect(cursors.last('10')).toBeUndefined();
    first();
    expect(cursors.last('10')).toBe('101');
    cursors.advance('10', '99'); // never backwards
    expect(cursors.last('10')).toBe('101');
    expect(cursors.channels()).toEqual(['10']);
  });

  it('rows buttons by five and refuses what Discord would refuse', () => {
    const rows = actionRows(Array.from({ length: 7 }, (_, i) => ({ id: `a${i}`, label: `A${i}` })));
    expect(rows.map((r) => r.components.length)).toEqual([5, 2]);
    expect(() => actionRows(Array.from({ length: 26 }, (_, i) => ({ id: `a${i}`, label: 'x' })))).toThrow(/at most 25 buttons/);
    expect(() => actionRows([{ id: 'x'.repeat(101), label: 'x' }])).toThrow(/1 to 100 characters/);
  });

  it('says what to do about the close codes discord.js gives up on', () => {
    expect(closeCodeState(4004, 'reset it')).toEqual({ state: 'bad_token', reason: 'reset it' });
    expect(closeCodeState(4014, '')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/Message Content Intent/) });
  });

  it('takes Discord user ids only as quoted strings (a bare YAML number loses digits)', () => {
    expect(GatewaySection.parse({ discord: { allowed_users: ['80351110224678912'] } }).discord?.allowed_users).toEqual(['80351110224678912']);
    const bare = GatewaySection.safeParse({ discord: { allowed_users: [80351110224678912] } });
    expect(bare.success).toBe(false);
    expect(bare.error?.issues[0]?.message).toMatch(/in quotes/);
  });
});
