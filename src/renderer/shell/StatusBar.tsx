import { useChat, useSettings } from '../app/services.js';
import { useT } from '../i18n/i18n.js';

/**
 * What the next message goes to and how the last response went. The engine's status is the source: the chat's
 * own measurements are used only until the first status arrives (so a changed default model, a failed turn or a
 * model file that does not exist yet never leaves an old value on screen).
 */
export function StatusBar() {
  const t = useT();
  const status = useSettings((s) => s.status);
  const chatModel = useChat((s) => s.model);
  const measured = useChat((s) => s.tokensPerSecond);
  const tps = status ? status.tokensPerSecond : measured;
  const used = status?.contextUsed ?? null;
  const size = status?.contextSize ?? null;
  const loading = typeof status?.loadProgress === 'number' ? status.loadProgress : null;
  // First run: the configured model is a file that is not there; its path would read as if it were in use.
  const model = status?.needsSetup ? t('status.noModel') : (status?.model ?? chatModel ?? '—');
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span data-testid="status-model">{t('status.model', { model })}</span>
      {loading !== null && (
        <span data-testid="status-loading">
          {t('status.loading', { percent: Math.round(loading * 100) })} <progress max={1} value={loading} />
        </span>
      )}
      <span data-testid="status-device">{t('status.device', { device: t(`device.${status?.device ?? 'unknown'}`) })}</span>
      <span data-testid="status-tps">{t('status.tps', { tps: tps === null ? '—' : tps.toFixed(1) })}</span>
      <span data-testid="status-context">
        {used === null
          ? t('status.contextUnknown')
          : size
            ? t('status.context', { used, size, percent: Math.round((used / size) * 100) })
            : t('status.contextNoWindow', { used })}
      </span>
    </footer>
  );
}
