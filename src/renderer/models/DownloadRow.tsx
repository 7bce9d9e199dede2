import type { z } from 'zod';
import type { DownloadView } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { formatBytes, formatDuration } from '../common/format.js';
import { useT } from '../i18n/i18n.js';

/** One download: progress, speed, time left, and the controls that make sense in its state. */
export function DownloadRow({ download }: { download: z.infer<typeof DownloadView> }) {
  const t = useT();
  const { models } = useServices();
  const control = (action: 'pause' | 'resume' | 'cancel') => void models.getState().control(action, download.id);
  const active = download.state === 'downloading' || download.state === 'queued';
  const total = download.totalBytes;
  return (
    <li className="download card" data-testid="download" data-download-id={download.id} data-state={download.state}>
      <div className="download-head">
        <strong>{download.file}</strong>
        <span className={`badge state-${download.state}`} data-testid="download-state">
          {t(`download.${download.state}`)}
        </span>
      </div>
      <progress data-testid="download-progress" max={total ?? undefined} value={total === null ? undefined : download.receivedBytes} />
      <div className="muted" data-testid="download-speed">
        {total === null ? formatBytes(download.receivedBytes) : `${formatBytes(download.receivedBytes)} / ${formatBytes(total)}`}
        {download.state === 'downloading' && (
          <>
            {' · '}
            {t('download.speed', { speed: formatBytes(download.bytesPerSecond) })}
            {download.etaSeconds !== null && ` · ${t('download.eta', { time: formatDuration(download.etaSeconds) })}`}
          </>
        )}
      </div>
      {download.notice && (
        <div className="notice notice-warning" data-testid="download-notice">
          {download.notice}
        </div>
      )}
      {download.error && (
        <div className="error" role="alert" data-testid="download-error">
          {download.error}
        </div>
      )}
      <div className="row-actions">
        {active && (
          <button type="button" data-testid="download-pause" onClick={() => control('pause')}>
            {t('download.pause')}
          </button>
        )}
        {(download.state === 'paused' || download.state === 'failed') && (
          <button type="button" className="primary" data-testid="download-resume" onClick={() => control('resume')}>
            {/* A failed download may have nothing left to resume from (a checksum failure deletes the file): it is tried again. */}
            {download.state === 'failed' ? t('download.retry') : t('download.resume')}
          </button>
        )}
        {(active || download.state === 'paused') && (
          <button type="button" className="danger" data-testid="download-cancel" onClick={() => control('cancel')}>
            {t('common.cancel')}
          </button>
        )}
      </div>
    </li>
  );
}
