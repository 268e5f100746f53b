/** One cell of an nbformat 4 notebook, as far as read shows it. */
export interface NotebookCell {
  readonly kind: 'code' | 'markdown' | 'raw';
  readonly source: string;
  readonly outputs: readonly NotebookOutput[];
}

/** One output of a code cell (nbformat 4 `output_type`s). */
export type NotebookOutput =
  | { readonly kind: 'stream'; readonly name: string; readonly text: string }
  | { readonly kind: 'execute_result' | 'display_data'; readonly data: Readonly<Record<string, string>> }
  | { readonly kind: 'error'; readonly ename: string; readonly evalue: string; readonly traceback: readonly string[] };

export type NotebookParse = { readonly ok: true; readonly cells: readonly NotebookCell[] } | { readonly ok: false; readonly problem: string };

/**
 * Checks the parts of nbformat 4 that read relies on — `nbformat: 4`, a `cells` array, each cell's
 * `cell_type` and `source`, each output's `output_type` and fields — and turns multi-line strings
 * (a string or an array of strings) into strings. Unknown fields are ignored, as Jupyter does.
 */
export function parseNotebook(json: unknown): NotebookParse {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail('its top level is not a JSON object');
  const { nbformat, cells } = json as Record<string, unknown>;
  if (nbformat !== 4) return fail(`it is not nbformat 4 (its nbformat is ${JSON.stringify(nbformat) ?? 'missing'})`);
  if (!Array.isArray(cells)) return fail('it has no "cells" array');
  const parsed: NotebookCell[] = [];
  for (const [index, cell] of cells.entries()) {
    const where = `cell ${index + 1}`;
    if (typeof cell !== 'object' || cell === null) return fail(`${where} is not an object`);
    const { cell_type: kind, source, outputs } = cell as Record<string, unknown>;
    if (kind !== 'code' && kind !== 'markdown' && kind !== 'raw') return fail(`${where} has cell_type ${JSON.stringify(kind) ?? 'missing'}, not code, markdown or raw`);
    const text = multiline(source);
    if (text === undefined) return fail(`${where} has a source that is not a string or an array of strings`);
    if (kind !== 'code') {
      parsed.push({ kind, source: text, outputs: [] });
      continue;
    }
    if (outputs !== undefined && !Array.isArray(outputs)) return fail(`${where} has outputs that are not an array`);
    const checked: NotebookOutput[] = [];
    for (const [number, output] of (outputs ?? []).entries()) {
      const result = parseOutput(output);
      if (typeof result === 'string') return fail(`output ${number + 1} of ${where} ${result}`);
      checked.push(result);
    }
    parsed.push({ kind, source: text, outputs: checked });
  }
  return { ok: true, cells: parsed };
}

function parseOutput(output: unknown): NotebookOutput | string {
  if (typeof output !== 'object' || output === null) return 'is not an object';
  const fields = output as Record<string, unknown>;
  switch (fields['output_type']) {
    case 'stream': {
      const text = multiline(fields['text']);
      if (text === undefined) return 'is a stream without text';
      return { kind: 'stream', name: typeof fields['name'] === 'string' ? fields['name'] : 'stdout', text };
    }
    case 'execute_result':
    case 'display_data': {
      const data = fields['data'];
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'has no "data" object';
      const values: Record<string, string> = {};
      for (const [type, value] of Object.entries(data)) {
        const text = multiline(value);
        // JSON outputs (application/json) are objects: show them as JSON text.
        values[type] = text ?? JSON.stringify(value);
      }
      return { kind: fields['output_type'], data: values };
    }
    case 'error': {
      const traceback = fields['traceback'];
      if (!Array.isArray(traceback) || !traceback.every((line) => typeof line === 'string')) return 'is an error without a traceback array';
      return { kind: 'error', ename: String(fields['ename'] ?? 'Error'), evalue: String(fields['evalue'] ?? ''), traceback };
    }
    default:
      return `has output_type ${JSON.stringify(fields['output_type']) ?? 'missing'}, not stream, execute_result, display_data or error`;
  }
}

/** nbformat's multi-line string: a string, or an array of strings to concatenate. */
function multiline(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join('');
  return undefined;
}

function fail(problem: string): NotebookParse {
  return { ok: false, problem };
}
