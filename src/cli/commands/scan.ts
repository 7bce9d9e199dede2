import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { HearthError, errorMessage } from '../../core/errors.js';
import { languageNames } from '../../core/safety/injection/lexicons/index.js';
import { scanForInjection, type InjectionFinding, type ModelOpinion, type ScanVerdict } from '../../core/safety/injection/scan.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';

export const scanHelp = `Usage:
  hearth scan <file|-> [--json]        scan a file (or stdin) for prompt injection: exit 0 clean, 1 suspicious, 2 unreadable
  hearth scan --stdin-lines [--json]   scan each input line as its own text; one result per line

Reads intent, not phrases: orders to drop the agent's instructions (in ${languageNames().length} languages: ${languageNames().join(', ')}),
system-prompt extraction, persona jailbreaks, orders to switch off approvals or to exfiltrate secrets,
persistence, memory poisoning, spoofed system/assistant/tool turns, hidden markup and invisible or bidi
Unicode; text hidden as base64, hex, ROT13, reversed or escaped text is decoded and read again. A small
learned model built with Hearth gives a second opinion ("model" in the report says whether it ran).
Needs no database key and no chat model.`;

/**
 * The report `hearth scan --json` prints; `verdict` is "suspicious" for any finding, high or medium, and
 * `level` is the scanner's own verdict (clean, suspicious or blocked: what a memory write or skill install
 * would do). `model` says what the learned model scored, or why it could not run (rules only).
 */
export interface ScanReport {
  verdict: 'clean' | 'suspicious';
  level: ScanVerdict;
  findings: Array<{ kind: string; rule: string; severity: string; message: string; index?: number; excerpt?: string; lang?: string; decoded?: string; hiddenIn?: string }>;
  model: ModelOpinion;
  /** Rule findings the learned model overruled (it scored the text clearly benign): listed, not counted. */
  overruled?: ScanReport['findings'];
}

export async function scanCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('scan', argv, { json: { type: 'boolean' }, 'stdin-lines': { type: 'boolean' } });
  if (values.help) {
    io.out(`${scanHelp}\n`);
    return 0;
  }
  const json = values.json === true;
  if (values['stdin-lines'] === true) {
    if (positionals.length > 0) throw new HearthError('usage', 'hearth scan --stdin-lines reads standard input; it takes no file argument.');
    return scanLines(io, json);
  }
  const [target, extra] = positionals;
  if (target === undefined || extra !== undefined) throw new HearthError('usage', `hearth scan needs exactly one file, or - for standard input.\n${scanHelp}`);

  const input = target === '-' ? { name: 'stdin', text: await readAll(io.stdin) } : readInput(io, target);
  if (input === null) return 2;
  const report = scanText(input.text);
  if (json) io.out(`${JSON.stringify(report)}\n`);
  else io.out(readable(input.name, report));
  return report.verdict === 'clean' ? 0 : 1;
}

export function scanText(text: string): ScanReport {
  const result = scanForInjection(text, { source: 'scan' });
  const model: ModelOpinion = result.model ?? { state: 'unavailable', reason: 'the scanner did not report the learned model' };
  const overruled = result.overruled === undefined ? {} : { overruled: result.overruled.map(toReported) };
  return { verdict: result.findings.length === 0 ? 'clean' : 'suspicious', level: result.verdict, findings: result.findings.map(toReported), model, ...overruled };
}

function toReported(finding: InjectionFinding): ScanReport['findings'][number] {
  return {
    kind: finding.category,
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    ...(finding.index === undefined ? {} : { index: finding.index }),
    excerpt: finding.excerpt,
    ...(finding.lang === undefined ? {} : { lang: finding.lang }),
    ...(finding.decoded === undefined ? {} : { decoded: finding.decoded }),
    ...(finding.hiddenIn === undefined ? {} : { hiddenIn: finding.hiddenIn }),
  };
}

async function scanLines(io: CliIO, json: boolean): Promise<number> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  let suspicious = false;
  let number = 0;
  for await (const line of lines) {
    number++;
    const report = scanText(line);
    suspicious ||= report.verdict === 'suspicious';
    if (json) io.out(`${JSON.stringify({ line: number, ...report })}\n`);
    else io.out(readable(`line ${number}`, report));
  }
  return suspicious ? 1 : 0;
}

/** The file's text, or null after saying why it cannot be read (exit 2: the scan did not happen). */
function readInput(io: CliIO, target: string): { name: string; text: string } | null {
  const path = resolve(io.cwd, target);
  try {
    return { name: target, text: readFileSync(path, 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : errorMessage(err);
    io.err(`hearth scan: cannot read ${path}: ${why}. Nothing was scanned.\n`);
    return null;
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function readable(name: string, report: ScanReport): string {
  const degraded = report.model.state === 'unavailable' ? `  note: rules only, ${report.model.reason}\n` : '';
  if (report.verdict === 'clean') {
    const overruled = report.overruled === undefined ? '' : `  note: the learned model overruled ${report.overruled.map((f) => f.rule).join(', ')} (it scores the text clearly benign)\n`;
    return `clean: ${name}\n${overruled}${degraded}`;
  }
  const lines = report.findings.map((f) => {
    const where = f.index === undefined ? '' : ` at ${f.index}`;
    return `  ${f.severity.padEnd(6)} ${f.kind} (${f.rule})${where}: ${f.message}\n         “${f.excerpt ?? ''}”`;
  });
  return `suspicious: ${name} (${report.findings.length} finding${report.findings.length === 1 ? '' : 's'})\n${lines.join('\n')}\n${degraded}`;
}
