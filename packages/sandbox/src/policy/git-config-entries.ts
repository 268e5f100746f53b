/** One `key = value` of a git configuration file, with its section as git names it. */
export interface GitConfigEntry {
  /** Lower case (`core`, `include`, `includeif`). */
  readonly section: string;
  /** Case kept (`gitdir:~/projects/`), or undefined for `[core]`. */
  readonly subsection: string | undefined;
  /** Lower case (`hookspath`, `path`). */
  readonly name: string;
  /** The value after quote and escape removal; `true` for a bare key (git's boolean shorthand). */
  readonly value: string;
}

const escapes: Readonly<Record<string, string>> = { n: '\n', t: '\t', b: '\b', '"': '"', '\\': '\\' };

/** A value as git reads it: quotes removed, escapes applied, comments and outer blanks dropped. */
function readValue(raw: string): string {
  let value = '';
  let quoted = false;
  let pendingSpace = '';
  for (let index = 0; index < raw.length; index += 1) {
    const character = raw[index] as string;
    if (character === '\\') {
      const next = raw[index + 1];
      index += 1;
      if (next !== undefined && escapes[next] !== undefined) {
        value += pendingSpace + escapes[next];
        pendingSpace = '';
      }
      continue;
    }
    if (character === '"') {
      quoted = !quoted;
      value += pendingSpace;
      pendingSpace = '';
      continue;
    }
    if (!quoted && (character === '#' || character === ';')) break;
    if (!quoted && (character === ' ' || character === '\t')) {
      if (value !== '') pendingSpace += character;
      continue;
    }
    value += pendingSpace + character;
    pendingSpace = '';
  }
  return value;
}

/**
 * The entries of a git configuration file (git-config(1) "CONFIGURATION FILE"): `[section]`,
 * `[section "subsection"]`, the old `[section.subsection]`, `name = value` with quotes, escapes,
 * comments and a trailing `\` continuing the line. Enough to find `core.hooksPath`, `include.path`
 * and `includeIf.*.path` (architecture §3.2); lines it does not understand are skipped, never thrown on.
 */
export function gitConfigEntries(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  const lines = text.replace(/\\\r?\n/g, '').split(/\r?\n/);
  let section: string | undefined;
  let subsection: string | undefined;
  for (const line of lines) {
    let rest = line.trimStart();
    if (rest.startsWith('[')) {
      const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\]|\\.)*)")?\s*\]/.exec(rest);
      if (header === null) {
        section = undefined;
        continue;
      }
      const name = header[1] as string;
      if (header[2] !== undefined) {
        section = name.toLowerCase();
        subsection = header[2].replace(/\\(.)/g, '$1');
      } else if (name.includes('.')) {
        section = name.slice(0, name.indexOf('.')).toLowerCase();
        subsection = name.slice(name.indexOf('.') + 1).toLowerCase();
      } else {
        section = name.toLowerCase();
        subsection = undefined;
      }
      rest = rest.slice(header[0].length).trimStart();
      if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
    }
    if (section === undefined) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(=(.*))?$/.exec(rest.trimEnd());
    if (entry === null) continue;
    entries.push({
      section,
      subsection,
      name: (entry[1] as string).toLowerCase(),
      value: entry[2] === undefined ? 'true' : readValue(entry[3] as string),
    });
  }
  return entries;
}
