/**
 * Glob patterns (`*.ts`, `src/**\/*.test.ts`, `*.{js,ts}`) as regular expressions, for the Node
 * fallback of `search_files` (ripgrep does its own). `*` and `?` stay inside one path segment; `**`
 * crosses segments.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let inBraces = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        source += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else source += '[^/]*';
    } else if (c === '?') source += '[^/]';
    else if (c === '{') {
      inBraces += 1;
      source += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces -= 1;
      source += ')';
    } else if (c === ',' && inBraces > 0) source += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) source += '\\[';
      else {
        source += `[${glob.slice(i + 1, end).replace(/^!/, '^').replaceAll('\\', '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function hasGlobSyntax(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/** A glob without `/` matches a file's name anywhere (`*.ts`); with `/` it matches the path from the search root. */
export function globMatches(glob: RegExp, globHasSlash: boolean, relativePath: string): boolean {
  return glob.test(globHasSlash ? relativePath : relativePath.slice(relativePath.lastIndexOf('/') + 1));
}

/** The filename test for target "files": a glob, or a case-insensitive part of the name. */
export function nameFilter(pattern: string): (relativePath: string) => boolean {
  if (hasGlobSyntax(pattern)) {
    const glob = globToRegExp(pattern);
    return (p) => globMatches(glob, pattern.includes('/'), p);
  }
  const wanted = pattern.toLowerCase();
  return (p) => p.slice(p.lastIndexOf('/') + 1).toLowerCase().includes(wanted);
}

