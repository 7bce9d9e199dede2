import { describe, expect, it } from 'vitest';
import { formatDate, translate, translateRecorded, type MessageKey } from '../../src/renderer/i18n/i18n.js';

/** Issue 12: dates and the engine's recorded words (approval decisions, origins) showed in English/US whatever the language. */
describe('dates and recorded words in the app language', () => {
  const at = Date.UTC(2026, 11, 3, 14, 5);

  it('formats dates by the app language, not the browser locale', () => {
    expect(formatDate('zh-CN', at)).toMatch(/2026年12月3日/);
    expect(formatDate('en', at)).toMatch(/Dec 3, 2026|3 Dec 2026/);
  });

  it('translates known approval decisions and origins, and keeps an unknown one as recorded', () => {
    const zh = (key: MessageKey) => translate('zh-CN', key);
    expect(translateRecorded(zh, 'decision', 'once')).toBe('允许一次');
    expect(translateRecorded(zh, 'decision', 'timeout')).toBe('超时（已拒绝）');
    expect(translateRecorded(zh, 'origin', 'cron')).toBe('定时任务');
    expect(translateRecorded(zh, 'decision', 'prompt_failed: no tty')).toBe('prompt_failed: no tty');
  });
});
