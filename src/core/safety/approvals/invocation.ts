/**
 * One simple command as the rules see it, after the walker has expanded its words: what runs, with which
 * arguments, and what arrives on its stdin (data or code, depending on who reads it).
 */
export interface Invocation {
  /** Expanded fields; a part that cannot be known statically is UNKNOWN (scan.ts). */
  argv: string[];
  /** The command's source text, for the few rules that read it as written (a token placed in a URL). */
  source: string;
  stdin: Stdin | null;
  /** A word came out of a decoder (base64, hex, reversal). */
  decoded: boolean;
  /** A word came from the network (`$(curl …)`, `<(wget …)`). */
  downloaded: boolean;
  /** The command name itself came from an expansion or substitution. */
  nameComputed: boolean;
}

export type Stdin =
  /** A heredoc or here-string: its text. */
  | { kind: 'text'; text: string }
  /** The previous pipeline stage: its output when the detector could compute it, else null. */
  | { kind: 'pipe'; text: string | null; downloaded: boolean; decoded: boolean; upstream: string[] };

/** The base name a shell looks up: `/usr/bin/rm` is `rm`. */
export function commandName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
