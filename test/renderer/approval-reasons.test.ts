import { describe, expect, it } from 'vitest';
import { REASONS } from '../../src/core/safety/approvals/reasons.js';
import { approvalReason, TRANSLATED_REASONS } from '../../src/renderer/i18n/approval-reasons.js';

/** Issue 12: the approval dialog gave its reasons in English in the Chinese interface. */
describe('approval reasons in Chinese', () => {
  // Catches a reason added to the detector without a translation (it would show in English).
  it('every detector reason has a translation, and nothing else does', () => {
    expect([...TRANSLATED_REASONS].sort()).toEqual(Object.values(REASONS).sort());
  });

  it('translates in zh-CN, keeps English in en, and shows an unknown reason as sent', () => {
    expect(approvalReason('zh-CN', REASONS.recursiveDelete)).toBe('递归删除');
    expect(approvalReason('en', REASONS.recursiveDelete)).toBe(REASONS.recursiveDelete);
    expect(approvalReason('zh-CN', 'a reason from a newer engine')).toBe('a reason from a newer engine');
  });
});
