import * as fs from 'node:fs';
import { maximumGitFileBytes } from './git-files.js';
import type { GitScanStatistics } from './git-files.js';

/** One `key = value` of a git configuration file, named as `git config --list` prints it. */
export interface GitConfigEntry {
  /** The whole name as git prints it: section and name lower case, a quoted subsection as written (`includeif.gitdir:~/Work/.path`). */
  readonly key: string;
  /** Lower case (`core`, `include`, `includeif`); `''` for a key written before any section. */
  readonly section: string;
  /** Case kept for `[section "subsection"]`, lower case for the old `[section.subsection]`; undefined for `[core]`. */
  readonly subsection: string | undefined;
  /** Lower case (`hookspath`, `path`). */
  readonly name: string;
  /** The value after quote and escape removal; `true` for a key without `=` (git's boolean shorthand). */
  readonly value: string;
  /** False for a key without `=`: git has no value for it (it prints the key alone). */
  readonly valueGiven: boolean;
}

/**
 * A configuration file read as git reads it. `trusted: false` is a file git itself refuses ("bad
 * config line"), or one this reader will not vouch for (a NUL byte, names or values that are not
 * UTF-8, a file too large or not a regular file): nothing after the problem is known, so every
 * caller must give its most protective answer — never treat it as a file without entries.
 * `entries` then holds what came before the problem (what git had read when it stopped).
 */
export type GitConfigParse =
  | { readonly trusted: true; readonly entries: readonly GitConfigEntry[] }
  | { readonly trusted: false; readonly entries: readonly GitConfigEntry[]; readonly line: number; readonly reason: string };

/** Whether git follows this entry to another file: `include.path`, or `includeIf.<condition>.path` whatever the condition. */
export function isGitInclude(entry: GitConfigEntry): boolean {
  if (entry.name !== 'path') return false;
  return (entry.section === 'include' && entry.subsection === undefined) || (entry.section === 'includeif' && entry.subsection !== undefined);
}

/** The part of the reason text callers show: `line 3: an unknown escape`. */
export function describeUntrustedGitConfig(parse: GitConfigParse & { trusted: false }): string {
  return parse.line > 0 ? `line ${parse.line}: ${parse.reason}` : parse.reason;
}

// git's own character classes (git's ctype.c), which are ASCII-only and not the C locale's:
// `\v` and `\f` are no white space to git.
function isSpace(character: string): boolean {
  return character === ' ' || character === '\t' || character === '\n' || character === '\r';
}

function isAlpha(character: string): boolean {
  return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z');
}

function isKeyCharacter(character: string): boolean {
  return isAlpha(character) || (character >= '0' && character <= '9') || character === '-';
}

const byteOrderMark = '\xef\xbb\xbf';
const utf8 = new TextDecoder('utf-8', { fatal: true });

class BadConfigLine extends Error {}

/**
 * git's config parser (config.c: `git_parse_source`, `get_base_var`, `get_value`, `parse_value`),
 * one byte at a time over a binary string. `\r\n` reads as `\n`; the end of the text reads as a
 * final `\n` and sets `ended`.
 */
class ConfigSource {
  readonly #text: string;
  #position = 0;
  ended = false;

  constructor(text: string) {
    this.#text = text;
  }

  get position(): number {
    return this.#position;
  }

  next(): string {
    if (this.#position >= this.#text.length) {
      this.ended = true;
      return '\n';
    }
    const character = this.#text[this.#position] as string;
    this.#position += 1;
    if (character === '\r' && this.#text[this.#position] === '\n') {
      this.#position += 1;
      return '\n';
    }
    return character;
  }

  /** `[section]`, `[section.subsection]` or `[section "subsection"]` after the `[`; the name as git keeps it. */
  baseName(): string {
    let name = '';
    for (;;) {
      const character = this.next();
      if (this.ended) throw new BadConfigLine('a section header without its closing ]');
      if (character === ']') return name;
      if (isSpace(character)) return this.extendedBaseName(name, character);
      if (!isKeyCharacter(character) && character !== '.') throw new BadConfigLine('a section name with a character git does not allow');
      name += character.toLowerCase();
    }
  }

  extendedBaseName(name: string, first: string): string {
    let character = first;
    do {
      if (character === '\n') throw new BadConfigLine('a section header broken across lines');
      character = this.next();
    } while (isSpace(character));
    if (character !== '"') throw new BadConfigLine('white space in a section header not followed by a quoted subsection');
    let extended = `${name}.`;
    for (;;) {
      character = this.next();
      if (character === '\n') throw new BadConfigLine('a subsection without its closing quote');
      if (character === '"') break;
      if (character === '\\') {
        character = this.next();
        if (character === '\n') throw new BadConfigLine('a subsection without its closing quote');
      }
      extended += character;
    }
    if (this.next() !== ']') throw new BadConfigLine('a subsection not followed by ]');
    return extended;
  }

  /** The rest of a key whose first letter is read, then ` = value` or nothing; undefined for no value. */
  keyAndValue(key: string): { key: string; value: string | undefined } {
    let name = key;
    let character: string;
    for (;;) {
      character = this.next();
      if (this.ended || !isKeyCharacter(character)) break;
      name += character.toLowerCase();
    }
    while (character === ' ' || character === '\t') character = this.next();
    if (character === '\n') return { key: name, value: undefined };
    if (character !== '=') throw new BadConfigLine('a key name with a character git does not allow, or no = after it');
    return { key: name, value: this.value() };
  }

  value(): string {
    let quoted = false;
    let comment = false;
    let spaces = 0;
    let value = '';
    for (;;) {
      let character = this.next();
      if (character === '\n') {
        if (quoted) throw new BadConfigLine('a value without its closing quote');
        return value;
      }
      if (comment) continue;
      if (isSpace(character) && !quoted) {
        if (value !== '') spaces += 1;
        continue;
      }
      if (!quoted && (character === ';' || character === '#')) {
        comment = true;
        continue;
      }
      value += ' '.repeat(spaces);
      spaces = 0;
      if (character === '\\') {
        character = this.next();
        switch (character) {
          case '\n':
            continue;
          case 't':
            character = '\t';
            break;
          case 'b':
            character = '\b';
            break;
          case 'n':
            character = '\n';
            break;
          case '\\':
          case '"':
            break;
          default:
            throw new BadConfigLine('an unknown escape in a value (git knows \\n \\t \\b \\\\ \\")');
        }
        value += character;
        continue;
      }
      if (character === '"') {
        quoted = !quoted;
        continue;
      }
      value += character;
    }
  }
}

function decoded(binary: string): string {
  return utf8.decode(Buffer.from(binary, 'latin1'));
}

function entryOf(key: string, value: string | undefined): GitConfigEntry {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  return Object.freeze({
    key,
    section: first === -1 ? '' : key.slice(0, first),
    subsection: first === last ? undefined : key.slice(first + 1, last),
    name: key.slice(last + 1),
    value: value ?? 'true',
    valueGiven: value !== undefined,
  });
}

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < position; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

/**
 * The entries of a git configuration file as git reads them (git-config(1) "CONFIGURATION FILE";
 * config.c): `[section]`, `[section "subsection"]` with `\` escapes, the old `[section.subsection]`
 * (lower-cased), section and key names case-insensitive, a key without `=` meaning true, values
 * with quotes, the escapes `\n \t \b \\ \"`, a trailing `\` continuing the value on the next line,
 * `#`/`;` comments outside quotes, inner white space kept as single spaces per character and outer
 * white space dropped, a UTF-8 byte order mark at the start, `\r\n` line ends. Includes are
 * reported as the entries they are (`include.path`, `includeif.<condition>.path`, see
 * `isGitInclude`), never followed here: following them is the caller's business.
 *
 * Where git stops with "bad config line", so does this, with `trusted: false`. Stricter than git,
 * also untrusted: a NUL byte anywhere (git cuts a name or value short there) and a name or value
 * that is not UTF-8 (paths here are text).
 */
export function parseGitConfig(content: string | Uint8Array): GitConfigParse {
  const text = (typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength)).toString('latin1');
  const entries: GitConfigEntry[] = [];
  const nul = text.indexOf('\0');
  if (nul !== -1) return Object.freeze({ trusted: false, entries: Object.freeze(entries), line: lineAt(text, nul), reason: 'a NUL byte' });
  const source = new ConfigSource(text);
  let section = '';
  let comment = false;
  let byteOrderMarkRead = 0;
  try {
    for (;;) {
      const character = source.next();
      if (byteOrderMarkRead < byteOrderMark.length) {
        if (character === byteOrderMark[byteOrderMarkRead]) {
          byteOrderMarkRead += 1;
          continue;
        }
        if (byteOrderMarkRead !== 0) throw new BadConfigLine('a partial byte order mark');
        byteOrderMarkRead = byteOrderMark.length;
      }
      if (character === '\n') {
        if (source.ended) return Object.freeze({ trusted: true, entries: Object.freeze(entries) });
        comment = false;
        continue;
      }
      if (comment || isSpace(character)) continue;
      if (character === '#' || character === ';') {
        comment = true;
        continue;
      }
      if (character === '[') {
        const name = source.baseName();
        if (name === '') throw new BadConfigLine('an empty section name');
        section = `${name}.`;
        continue;
      }
      if (!isAlpha(character)) throw new BadConfigLine('a line that is no section, key or comment');
      const { key, value } = source.keyAndValue(section + character.toLowerCase());
      let entry: GitConfigEntry;
      try {
        entry = entryOf(decoded(key), value === undefined ? undefined : decoded(value));
      } catch {
        throw new BadConfigLine('a name or value that is not UTF-8');
      }
      entries.push(entry);
    }
  } catch (error) {
    if (!(error instanceof BadConfigLine)) throw error;
    const position = Math.max(0, Math.min(source.position, text.length) - 1);
    return Object.freeze({ trusted: false, entries: Object.freeze(entries), line: lineAt(text, position), reason: error.message });
  }
}

/**
 * A configuration file on the host, read as git reads it. Missing (no entry at that name) is a
 * file without entries, as for git; anything else that cannot be parsed whole — too large, not a
 * regular file (a folder, a FIFO), unreadable — is untrusted, like a file git refuses.
 */
export function readGitConfigFile(file: string, statistics?: GitScanStatistics, maximumBytes = maximumGitFileBytes): GitConfigParse {
  const untrusted = (reason: string): GitConfigParse => Object.freeze({ trusted: false, entries: Object.freeze([]), line: 0, reason });
  let descriptor: number;
  try {
    // Non-blocking, so that a FIFO put at the name cannot hang the reader; it is refused below.
    descriptor = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return Object.freeze({ trusted: true, entries: Object.freeze([]) });
    return untrusted(`it cannot be read (${code ?? 'error'})`);
  }
  try {
    const stats = fs.fstatSync(descriptor);
    if (!stats.isFile()) return untrusted('it is not a regular file');
    if (stats.size > maximumBytes) return untrusted(`it is larger than ${maximumBytes} bytes`);
    if (statistics !== undefined) statistics.readFiles += 1;
    const bytes = fs.readFileSync(descriptor);
    if (bytes.length > maximumBytes) return untrusted(`it is larger than ${maximumBytes} bytes`);
    return parseGitConfig(bytes);
  } catch (error) {
    return untrusted(`it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    fs.closeSync(descriptor);
  }
}
