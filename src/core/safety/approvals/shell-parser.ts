import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';

/**
 * The approval detector's shell parser: tree-sitter-bash compiled to WebAssembly (decision 0009). The grammar
 * loads once, through top-level await, so that classifying a command stays synchronous for every caller.
 * One parser is reused; each tree is deleted as soon as the callback that reads it returns, because the
 * trees live in WebAssembly memory that the garbage collector does not see.
 */
export type ShellNode = Node;

const require = createRequire(import.meta.url);
await Parser.init();
const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
const parser = new Parser();
parser.setLanguage(bash);

/** Parses `text` as bash and hands the root node to `read`; the tree is freed when `read` returns or throws. */
export function withShellTree<T>(text: string, read: (root: ShellNode) => T): T {
  const tree = parser.parse(text);
  if (tree === null) throw new Error('tree-sitter returned no tree (the parser has no language set)');
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}
