import { useEffect, useState } from 'react';
import { useServices, useSettings } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { useT } from '../i18n/i18n.js';
import type { Language, Theme } from './settings-store.js';
import { ProvidersSection } from './ProvidersSection.js';
import { SafetySection } from './SafetySection.js';

const splitList = (text: string) => text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

export function SettingsView() {
  const t = useT();
  const { settings: store } = useServices();
  const settings = useSettings((s) => s.settings);
  const error = useSettings((s) => s.error);
  const [defaultModel, setDefaultModel] = useState('');
  const [fallbacks, setFallbacks] = useState('');
  const [allowlist, setAllowlist] = useState('');
  const [shortcut, setShortcut] = useState('');

  // The text fields follow the saved settings whenever those change (load, save, another window).
  useEffect(() => {
    if (!settings) return;
    setDefaultModel(settings.defaultModel);
    setFallbacks(settings.fallbacks.join('\n'));
    setAllowlist(settings.approvals.allowlist.join('\n'));
    setShortcut(settings.quickPromptShortcut);
  }, [settings]);

  if (!settings) return <section className="page" data-testid="settings-view"><ErrorText error={error} testId="settings-error" /></section>;
  const update = store.getState().update;
  const disabledTools = (name: string, enabled: boolean) =>
    settings.tools.filter((tool) => (tool.name === name ? !enabled : !tool.enabled)).map((tool) => tool.name);

  return (
    <section className="page" data-testid="settings-view">
      <header className="view-header">
        <h1>{t('nav.settings')}</h1>
      </header>
      <ErrorText error={error} testId="settings-error" />

      <div className="settings-section">
        <h2>{t('settings.appearance')}</h2>
        <label>
          {t('settings.theme')}
          <select data-testid="theme-select" value={settings.theme} onChange={(event) => void update({ theme: event.target.value as Theme })}>
            <option value="system">{t('settings.themeSystem')}</option>
            <option value="light">{t('settings.themeLight')}</option>
            <option value="dark">{t('settings.themeDark')}</option>
          </select>
        </label>
        <label>
          {t('settings.language')}
          <select data-testid="language-select" value={settings.language} onChange={(event) => void update({ language: event.target.value as Language })}>
            <option value="en">English</option>
            <option value="zh-CN">简体中文</option>
          </select>
        </label>
      </div>

      <ProvidersSection />

      <form
        className="settings-section"
        onSubmit={(event) => {
          event.preventDefault();
          void update({ defaultModel: defaultModel.trim(), fallbacks: splitList(fallbacks) });
        }}
      >
        <h2>{t('settings.models')}</h2>
        <label>
          {t('settings.defaultModel')}
          <input data-testid="default-model" value={defaultModel} onChange={(event) => setDefaultModel(event.target.value)} />
        </label>
        <label>
          {t('settings.fallbacks')}
          <textarea data-testid="fallback-models" rows={3} value={fallbacks} onChange={(event) => setFallbacks(event.target.value)} />
        </label>
        <button type="submit" className="primary" data-testid="models-save" disabled={!defaultModel.trim()}>
          {t('common.save')}
        </button>
      </form>

      <form
        className="settings-section"
        onSubmit={(event) => {
          event.preventDefault();
          void update({ allowlist: splitList(allowlist) });
        }}
      >
        <h2>{t('settings.approvals')}</h2>
        <label>
          {t('settings.approvalMode')}
          <select data-testid="approval-mode" value={settings.approvals.mode} onChange={(event) => void update({ approvalsMode: event.target.value as 'manual' | 'smart' | 'off' })}>
            <option value="manual">{t('settings.approvalManual')}</option>
            <option value="smart">{t('settings.approvalSmart')}</option>
            <option value="off">{t('settings.approvalOff')}</option>
          </select>
        </label>
        <p className="muted">{t('settings.approvalTimeout', { seconds: settings.approvals.timeoutSeconds })}</p>
        <label>
          {t('settings.allowlist')}
          <textarea data-testid="allowlist" rows={4} value={allowlist} onChange={(event) => setAllowlist(event.target.value)} />
        </label>
        <button type="submit" className="primary" data-testid="allowlist-save">
          {t('common.save')}
        </button>
      </form>

      <SafetySection />

      <div className="settings-section">
        <h2>{t('settings.tools')}</h2>
        <p className="muted">{t('settings.toolset', { toolset: settings.toolset })}</p>
        <ul className="tool-toggles">
          {settings.tools.map((tool) => (
            <li key={tool.name}>
              <label>
                <input
                  type="checkbox"
                  data-testid="tool-toggle"
                  data-tool={tool.name}
                  checked={tool.enabled}
                  onChange={(event) => void update({ disabledTools: disabledTools(tool.name, event.target.checked) })}
                />
                <code>{tool.name}</code>
              </label>
            </li>
          ))}
        </ul>
      </div>

      <form
        className="settings-section"
        onSubmit={(event) => {
          event.preventDefault();
          void update({ quickPromptShortcut: shortcut.trim() });
        }}
      >
        <h2>{t('settings.shortcuts')}</h2>
        <label>
          {t('settings.quickPrompt')}
          <input data-testid="shortcut-input" value={shortcut} onChange={(event) => setShortcut(event.target.value)} />
        </label>
        <button type="submit" className="primary" data-testid="shortcut-save" disabled={!shortcut.trim()}>
          {t('common.save')}
        </button>
      </form>
    </section>
  );
}
