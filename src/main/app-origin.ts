/**
 * The one origin the renderer runs in: `app://hearth`. Everything trusted (IPC senders, navigation
 * targets, served files) is checked against it, so it is defined once.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'hearth';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The main window's page, and the quick-prompt window's (the same bundle, another view). */
export const MAIN_PAGE_URL = `${APP_ORIGIN}/index.html`;
export const QUICK_PROMPT_PAGE_URL = `${APP_ORIGIN}/index.html?view=quick-prompt`;

/**
 * Whether a URL belongs to the app origin. Compared field by field rather than with `URL.origin`,
 * because WHATWG URL reports the origin of a non-special scheme such as `app:` as the string "null",
 * which would make every custom-scheme URL look alike. Credentials or a port are never part of ours.
 */
export function isAppUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL at all, so certainly not ours.
    return false;
  }
  return url.protocol === `${APP_SCHEME}:` && url.hostname === APP_HOST && url.port === '' && url.username === '' && url.password === '';
}
