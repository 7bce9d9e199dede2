import { useChat, useSettings } from '../app/services.js';
import { useT } from '../i18n/i18n.js';

export function StatusBar() {
  const t = useT();
  const status = useSettings((s) => s.status);
  const chatModel = useChat((s) => s.model);
  const measured = useChat((s) => s.tokensPerSecond);
  const tps = status?.tokensPerSecond ?? measured;
  const used = status?.contextUsed ?? null;
  const size = status?.contextSize ?? null;
  const loading = typeof status?.loadProgress === 'number' ? status.loadProgress : null;
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span data-testid="status-model">{t('status.model', { model: chatModel ?? status?.model ?? '—' })}</span>
      {loading !== null && (
        <span data-testid="status-loading">
          {t('status.loading', { percent: Math.round(loading * 100) })} <progress max={1} value={loading} />
        </span>
      )}
      <span data-testid="status-device">{t('status.device', { device: t(`device.${status?.device ?? 'unknown'}`) })}</span>
      <span data-testid="status-tps">{t('status.tps', { tps: tps === null ? '—' : tps.toFixed(1) })}</span>
      <span data-testid="status-context">
        {used === null ? t('status.contextUnknown') : t('status.context', { used, size: size ?? '?', percent: size ? Math.round((used / size) * 100) : '?' })}
      </span>
    </footer>
  );
}
