// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { describeNotice } from '../../src/renderer/chat/NoticeLine.js';
import { translate } from '../../src/renderer/i18n/i18n.js';

/** Catches approval notices that show the engine's raw reason ("Command denied (deny).") instead of a sentence. */
describe('approval notices', () => {
  const en = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('en', key, params);
  const resolved = (approved: boolean, reason: string) => describeNotice({ type: 'approval_resolved', id: 'a1', approved, reason }, en);

  it('says what the user chose', () => {
    expect(resolved(false, 'deny')).toEqual({ level: 'warning', text: 'Command denied.' });
    expect(resolved(true, 'once').text).toBe('Command allowed once.');
    expect(resolved(true, 'session').text).toBe('Command allowed for this session.');
    expect(resolved(true, 'always').text).toContain('allowlist');
  });

  it('keeps the engine’s words when the question was withdrawn (timeout, interrupt)', () => {
    expect(resolved(false, 'no answer within 60 s').text).toBe('Command denied (no answer within 60 s).');
  });
});
