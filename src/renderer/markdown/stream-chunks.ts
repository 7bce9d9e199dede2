/**
 * Splits markdown that is still streaming into chunks that, once closed, never change: each ends at a blank
 * line outside a code fence after at least `minChunk` characters. Only the last chunk is re-rendered per frame,
 * so the cost of a frame stays flat however long the answer grows. (Splitting can break constructs that span
 * blank lines, like loose lists; the finished message is rendered whole.)
 */
export function streamChunks(text: string, minChunk = 1500): string[] {
  const chunks: string[] = [];
  let start = 0;
  let inFence = false;
  let lineStart = 0;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && lineStart - start >= minChunk && newline !== -1) {
      chunks.push(text.slice(start, lineEnd + 1));
      start = lineEnd + 1;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  chunks.push(text.slice(start));
  return chunks;
}
