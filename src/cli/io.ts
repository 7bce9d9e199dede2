import { redactingLogger, redactorFromEnvironment } from '../core/safety/secrets/redact.js';

/** The process edges a command uses, passed in so commands run the same under tests and in a terminal. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** stdout is a terminal (colour, streaming) */
  isTTY: boolean;
  /** The terminal's width in columns, when stdout is one (answers are wrapped to it). */
  columns?: number;
}

export function processIO(): CliIO {
  // Errors and warnings can quote what a provider or a command said: known secrets and key formats go out redacted.
  const redactor = redactorFromEnvironment(process.env);
  return {
    out: (text) => process.stdout.write(text),
    err: redactingLogger(redactor, (text) => process.stderr.write(text)),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    isTTY: process.stdout.isTTY === true,
    ...(process.stdout.columns === undefined ? {} : { columns: process.stdout.columns }),
  };
}
