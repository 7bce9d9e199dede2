import type { PathContext } from './paths.js';

/** What the detector carries while it reads one command line. */
export interface Scan {
  /** Reasons found so far (a set: each is reported once, approvals are remembered per reason). */
  found: Set<string>;
  /** Variables assigned earlier on the line (`X=rm; $X -rf ~`). */
  vars: Map<string, string>;
  /** Workspace, home and the current directory, which `cd` on the line moves. */
  paths: PathContext;
  /** Base names of files a download on this line wrote (`curl -o x.sh …; sh x.sh`). */
  downloads: Set<string>;
  /** Classifies nested text (`bash -c`, `eval`, decoded stdin) into the same scan, one level deeper. */
  recurse(text: string, depth: number): void;
}
