import { spawn } from 'node:child_process';

/** The platform's "open this URL" command; the URL is one argument, never parsed by a shell. */
function opener(url: string): { command: string; args: string[] } {
  if (process.platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the empty one.
  if (process.platform === 'win32') return { command: 'cmd', args: ['/d', '/s', '/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Opens the default browser; a failure (no opener installed, no display) goes to `onFailure` as one line. */
export function openBrowser(url: string, onFailure: (message: string) => void): void {
  const { command, args } = opener(url);
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  child.once('error', (err) => onFailure(`Could not open a browser (${command}: ${err.message}); open the address above yourself.`));
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) onFailure(`Could not open a browser (${command} exited with ${code}); open the address above yourself.`);
  });
  child.unref();
}
