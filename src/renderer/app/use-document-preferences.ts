import { useEffect } from 'react';
import { useSettings } from './services.js';

/**
 * Theme and language live on <html>: `data-theme` picks the CSS variables (absent = follow the system's
 * prefers-color-scheme), `lang` lets the browser pick CJK fonts and line breaking.
 */
export function useDocumentPreferences(): void {
  const theme = useSettings((s) => s.theme);
  const language = useSettings((s) => s.language);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
}
