import { useEffect, useState } from 'react';
import { useServices, useModels, useSettings } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { formatBytes } from '../common/format.js';
import { useT } from '../i18n/i18n.js';
import { curatedDescription } from './curated-description.js';
import { DownloadRow } from './DownloadRow.js';

/**
 * The model manager: the curated default, any `hf:` URI / URL / local path, a fit estimate for this machine
 * before anything is downloaded, live downloads, and the files on disk to switch to.
 */
export function ModelsView({ onUsed }: { onUsed?: () => void }) {
  const t = useT();
  const { models, settings } = useServices();
  const files = useModels((s) => s.files);
  const curated = useModels((s) => s.curated);
  const downloads = useModels((s) => s.downloads);
  const fit = useModels((s) => s.fit);
  const error = useModels((s) => s.error);
  const status = useSettings((s) => s.status);
  const language = useSettings((s) => s.language);
  const [source, setSource] = useState('');
  const [sha256, setSha256] = useState('');

  useEffect(() => void models.getState().load(), [models]);

  const use = async (path: string) => {
    if (await models.getState().use(path)) {
      await settings.getState().load();
      onUsed?.();
    }
  };
  const trimmed = source.trim();
  const checksum = sha256.trim().toLowerCase();

  return (
    <section className="page" data-testid="models-view">
      <header className="view-header">
        <h1>{t('nav.models')}</h1>
        {status && (
          <span className="muted" data-testid="models-device">
            {t('models.current', { model: status.model || '—', device: t(`device.${status.device}`) })}
          </span>
        )}
      </header>
      <ErrorText error={error} testId="models-error" />

      <h2>{t('models.curated')}</h2>
      <ul className="curated">
        {curated.map((m) => (
          <li key={m.id} className="card" data-testid="curated-model" data-model-id={m.id}>
            <strong>{m.label}</strong> <span className="muted">{formatBytes(m.sizeBytes)}</span>
            <p className="muted" data-testid="curated-description">
              {curatedDescription(m, language)}
            </p>
            <div className="row-actions">
              <button type="button" data-testid="curated-fit" onClick={() => void models.getState().estimateFit(m.source, m.sizeBytes)}>
                {t('models.checkFit')}
              </button>
              <button type="button" className="primary" data-testid="curated-download" onClick={() => void models.getState().download(m.source, m.sha256 ?? undefined)}>
                {t('models.download')}
              </button>
            </div>
          </li>
        ))}
      </ul>

      <h2>{t('models.other')}</h2>
      <form
        className="model-source-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed) void models.getState().download(trimmed, checksum || undefined);
        }}
      >
        <input data-testid="model-source" value={source} placeholder={t('models.sourcePlaceholder')} onChange={(event) => setSource(event.target.value)} aria-label={t('models.source')} />
        <input data-testid="model-sha256" value={sha256} placeholder={t('models.sha256')} onChange={(event) => setSha256(event.target.value)} aria-label={t('models.sha256')} />
        <button type="button" data-testid="model-fit" disabled={!trimmed} onClick={() => void models.getState().estimateFit(trimmed)}>
          {t('models.checkFit')}
        </button>
        <button type="submit" className="primary" data-testid="model-download" disabled={!trimmed}>
          {t('models.download')}
        </button>
      </form>
      {fit && (
        <div className={`fit card ${fit.estimate.fits ? 'ok' : 'warn'}`} data-testid="model-fit-result" data-fits={String(fit.estimate.fits)} data-placement={fit.estimate.placement}>
          <strong>{fit.estimate.fits ? t('models.fits') : t('models.noFit')}</strong> · {t(`placement.${fit.estimate.placement}`)} ·{' '}
          {t('models.fitNumbers', { required: formatBytes(fit.estimate.requiredBytes), available: formatBytes(fit.estimate.availableBytes) })}
          <div className="muted">{fit.estimate.detail}</div>
        </div>
      )}

      {Object.keys(downloads).length > 0 && <h2>{t('models.downloads')}</h2>}
      <ul className="downloads" data-testid="downloads">
        {Object.values(downloads).map((d) => (
          <DownloadRow key={d.id} download={d} />
        ))}
      </ul>

      <h2>{t('models.files')}</h2>
      <ul className="model-files">
        {files.length === 0 && <li className="muted">{t('models.noFiles')}</li>}
        {files.map((f) => (
          <li key={f.path} className="card" data-testid="model-file" data-path={f.path}>
            <strong>{f.name}</strong> <span className="muted">{formatBytes(f.sizeBytes)}</span>
            <button type="button" className="primary" data-testid="model-use" onClick={() => void use(f.path)}>
              {t('models.use')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
