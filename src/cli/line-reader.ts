import { createInterface } from 'node:readline';
import { HearthError } from '../core/errors.js';

/** Sequential questions over stdin that work the same for a terminal and for piped answers. */
export class LineReader {
  private readonly lines: AsyncIterator<string>;
  private readonly close: () => void;

  constructor(input: NodeJS.ReadableStream, private readonly write: (text: string) => void) {
    const rl = createInterface({ input, terminal: false });
    this.lines = rl[Symbol.asyncIterator]();
    this.close = () => rl.close();
  }

  async ask(question: string, fallback?: string): Promise<string> {
    this.write(fallback ? `${question} [${fallback}] ` : `${question} `);
    const next = await this.lines.next();
    if (next.done) throw new HearthError('usage', 'Input ended before the question was answered.');
    const answer = next.value.trim();
    return answer === '' && fallback !== undefined ? fallback : answer;
  }

  dispose(): void {
    this.close();
  }
}
