import { createRequire } from 'node:module';
import type { ShellFile, ShellNode, ShellSyntax } from './shell-syntax-tree.js';

let loadedSyntax: ShellSyntax | undefined;

/**
 * mvdan/sh's GopherJS build is 1.5 MB of JavaScript: evaluating it would cost most of the package's
 * import time, so it is loaded on the first parse instead of at import. It is CommonJS, so `require`
 * loads it synchronously and `analyzeCommand` stays synchronous (it runs inside `inspect`, which
 * `prepare` calls synchronously).
 */
function syntax(): ShellSyntax {
  // The ambient declaration types nodes as plain objects; shell-syntax-tree.ts describes their fields.
  loadedSyntax ??= (createRequire(import.meta.url)('mvdan-sh') as (typeof import('mvdan-sh'))['default']).syntax as unknown as ShellSyntax;
  return loadedSyntax;
}

/** A parsed script, or the parser's message; user input never throws (§3.6). */
export type ParsedShellScript =
  | { readonly ok: true; readonly file: ShellFile; readonly source: Buffer }
  | { readonly ok: false; readonly message: string };

/** Parses bash source with mvdan/sh, the same grammar `/bin/bash -c` uses (§7.9). */
export function parseShellScript(source: string): ParsedShellScript {
  try {
    const file = syntax().NewParser().Parse(source, 'command');
    return { ok: true, file, source: Buffer.from(source, 'utf8') };
  } catch (error) {
    return { ok: false, message: describeParseError(error) };
  }
}

/** The Go type name of a node, e.g. `CallExpr`. */
export function shellNodeType(node: ShellNode): string {
  return syntax().NodeType(node);
}

/** Visits `node` and everything below it, in source order. */
export function walkShellNodes(node: ShellNode, visit: (node: ShellNode) => boolean): void {
  syntax().Walk(node, (child) => (child === null ? true : visit(child)));
}

/** The source text of a node; offsets are UTF-8 byte offsets. */
export function shellNodeText(node: ShellNode, source: Buffer): string {
  return source.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8');
}

function describeParseError(error: unknown): string {
  // GopherJS throws the Go error value, which has an Error() method but is not a JS Error.
  if (typeof error === 'object' && error !== null && 'Error' in error && typeof error.Error === 'function') {
    const text: unknown = error.Error();
    if (typeof text === 'string') return text.replace(/^command:/, '');
  }
  return error instanceof Error ? error.message : String(error);
}
