import { useNav } from '../app/services.js';
import { VIEWS } from '../app/nav-store.js';
import { useT } from '../i18n/i18n.js';

export function NavBar({ disabled }: { disabled: boolean }) {
  const t = useT();
  const view = useNav((s) => s.view);
  const go = useNav((s) => s.go);
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      <div className="brand">Hearth</div>
      {VIEWS.map((name) => (
        <button
          key={name}
          type="button"
          className={`nav-tab${view === name ? ' active' : ''}`}
          data-testid={`nav-${name}`}
          aria-current={view === name ? 'page' : undefined}
          disabled={disabled}
          onClick={() => go(name)}
        >
          {t(`nav.${name}`)}
        </button>
      ))}
    </nav>
  );
}
