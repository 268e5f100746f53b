/** ANSI colours for a terminal, or none (colour on a TTY, plain text when piped). */
export interface Colors {
  readonly enabled: boolean;
  added(text: string): string;
  removed(text: string): string;
  hunk(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

/**
 * Whether to colour what goes to `stream`, by the conventions users set: `FORCE_COLOR` (any value but
 * `0` or `false`) forces colour, `NO_COLOR` (any non-empty value, no-color.org) turns it off, and
 * otherwise colour only on a terminal that is not `TERM=dumb`.
 */
export function colorsFor(stream: { readonly isTTY?: boolean }, environment: NodeJS.ProcessEnv): Colors {
  const force = environment['FORCE_COLOR'];
  const enabled =
    force !== undefined && force !== '0' && force !== 'false'
      ? true
      : (environment['NO_COLOR'] ?? '') !== ''
        ? false
        : stream.isTTY === true && environment['TERM'] !== 'dumb';
  const paint = (code: string) => (text: string) => (enabled ? `\x1b[${code}m${text}\x1b[0m` : text);
  return { enabled, added: paint('32'), removed: paint('31'), hunk: paint('36'), bold: paint('1'), dim: paint('2') };
}

/** A unified diff with its lines coloured: headers bold, hunk headers cyan, `+` green, `-` red. */
export function colorDiff(diff: string, colors: Colors): string {
  if (!colors.enabled) return diff;
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('--- ') || line.startsWith('+++ ')) return colors.bold(line);
      if (line.startsWith('@@')) return colors.hunk(line);
      if (line.startsWith('+')) return colors.added(line);
      if (line.startsWith('-')) return colors.removed(line);
      return line;
    })
    .join('\n');
}
