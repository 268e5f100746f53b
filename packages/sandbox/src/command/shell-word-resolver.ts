import * as path from 'node:path';
import { PathPatternMarker } from './path-pattern-marker.js';
import { shellNodeType } from './parse-shell-script.js';
import type {
  ShellCallExpr,
  ShellCmdSubst,
  ShellDblQuoted,
  ShellLit,
  ShellNode,
  ShellParamExp,
  ShellProcSubst,
  ShellSglQuoted,
  ShellStmt,
  ShellWord,
} from './shell-syntax-tree.js';

/** One shell word after quote removal, brace expansion and field splitting, as far as known statically. */
export interface ResolvedWord {
  /** The argument the program receives, when no part of it depends on run time. */
  readonly value: string | undefined;
  /** The value with `PathPatternMarker`s for globs and run-time parts, for judging path targets. */
  readonly pattern: string;
  /** The value as shell source, run-time parts as a variable, for re-parsing `bash -c`/`eval` strings. */
  readonly script: string;
  /** The `$(…)` and `<(…)` inside the word, whose output becomes (part of) it. */
  readonly substitutions: readonly ShellSubstitution[];
}

/** A command or process substitution inside a word. */
export interface ShellSubstitution {
  readonly kind: 'command' | 'process';
  readonly statements: readonly ShellStmt[];
}

/** A placeholder variable that stands for an unknown value when a string is re-parsed as a script. */
export const unknownValueScript = '${__openwork_unknown__}';

type WordPiece =
  | { readonly kind: 'text'; readonly text: string; readonly quoted: boolean; readonly splittable: boolean }
  | { readonly kind: 'unknown'; readonly substitution?: ShellSubstitution }
  | { readonly kind: 'home' }
  | { readonly kind: 'working-directory' }
  | { readonly kind: 'field-break' };

// Bounds keep a hostile `{a,b}{c,d}…` from exploding; beyond them a word counts as unknown.
const maximumVariants = 32;
const maximumSubstitutionDepth = 4;

/**
 * Resolves words the way bash would expand them, using what the script itself assigned earlier
 * (`X=/; rm -rf $X`), `echo`/`printf` in `$(…)`, and the analysis context for `~`, `$HOME`, `$PWD`.
 * Anything else dynamic stays unknown (§3.6: quotes, `$(…)` and variables must not hide a command).
 */
export class ShellWordResolver {
  readonly #variables: Map<string, readonly string[] | null>;
  readonly #homeDirectory: string | undefined;
  /**
   * Where the script is at this point, as a path pattern: absolute when known, else starting with
   * a `PathPatternMarker` (`workingDirectory` where bash started, `home`, `unknown` after `cd "$X"`).
   */
  #directory: string;

  constructor(options: {
    homeDirectory: string | undefined;
    workingDirectory: string | undefined;
    variables?: ReadonlyMap<string, readonly string[] | null>;
  }) {
    this.#homeDirectory = options.homeDirectory;
    this.#directory = options.workingDirectory ?? PathPatternMarker.workingDirectory;
    this.#variables = new Map(options.variables ?? []);
  }

  /** A resolver for a nested shell (`bash -c`), which inherits what is known so far. */
  child(): ShellWordResolver {
    return new ShellWordResolver({
      homeDirectory: this.#homeDirectory,
      workingDirectory: this.#directory,
      variables: this.#variables,
    });
  }

  /** The directory the script is in at this point (see `#directory`), for judging relative paths. */
  get directory(): string {
    return this.#directory;
  }

  /**
   * Follows `cd` (§3.6: `cd .. && rm -rf project` deletes the workspace root, `cd sub && rm -rf .`
   * does not): no argument is home, `-` and anything dynamic make the directory unknown.
   */
  changeDirectory(target: ResolvedWord | undefined): void {
    if (target === undefined) {
      this.#directory = this.#homeDirectory ?? PathPatternMarker.home;
      return;
    }
    const pattern = target.pattern;
    if (target.value === '-' || pattern === '' || /[\u0000\u0001\u0004]/.test(pattern)) {
      this.#directory = PathPatternMarker.unknown;
      return;
    }
    const joined = pattern.startsWith('/') || pattern.startsWith(PathPatternMarker.home) ? pattern : `${this.#directory}/${pattern}`;
    this.#directory = joined.startsWith('/') ? path.posix.normalize(joined).replace(/(?<=.)\/$/, '') : joined;
  }

  /** Back to a directory returned by `directory` (the end of a subshell that ran `cd`). */
  restoreDirectory(directory: string): void {
    this.#directory = directory;
  }

  /** Records `NAME=value`; `values` null means the value is only known at run time. */
  assign(name: string, values: readonly string[] | null): void {
    this.#variables.set(name, values);
  }

  /** The fields a command argument expands to. */
  resolveArgument(word: ShellWord): ResolvedWord[] {
    return this.#resolve(word, true, 0);
  }

  /** The value of an assignment (`X=value`): no field splitting, no brace expansion of the whole. */
  resolveAssignedValue(word: ShellWord | null): string | undefined {
    if (word === null) return '';
    const fields = this.#resolve(word, false, 0);
    return fields.length === 1 ? fields[0]?.value : undefined;
  }

  #resolve(word: ShellWord, splitFields: boolean, depth: number): ResolvedWord[] {
    let variants: WordPiece[][] = [[]];
    for (const part of word.Parts) {
      const options = this.#partPieces(part, depth);
      const next: WordPiece[][] = [];
      for (const variant of variants) {
        for (const option of options) next.push([...variant, ...option]);
      }
      variants = next.length > maximumVariants ? [[{ kind: 'unknown' }]] : next;
    }
    const fields: ResolvedWord[] = [];
    for (const variant of variants) {
      for (const field of splitFields ? splitIntoFields(variant) : [variant]) {
        fields.push(this.#toResolvedWord(expandLeadingTilde(field)));
      }
    }
    return fields;
  }

  /** The alternatives one word part expands to (several only for an unquoted `{a,b}`). */
  #partPieces(part: ShellNode, depth: number): WordPiece[][] {
    switch (shellNodeType(part)) {
      case 'Lit':
        return expandBraces((part as ShellLit).Value).map(unquotedLiteralPieces);
      case 'SglQuoted': {
        const quoted = part as ShellSglQuoted;
        const text = quoted.Dollar ? decodeAnsiCQuoting(quoted.Value) : quoted.Value;
        return [[{ kind: 'text', text, quoted: true, splittable: false }]];
      }
      case 'DblQuoted': {
        const pieces: WordPiece[] = [];
        for (const inner of (part as ShellDblQuoted).Parts) {
          if (shellNodeType(inner) === 'Lit') {
            const text = (inner as ShellLit).Value.replace(/\\([$`"\\\n])/g, (_, escaped: string) =>
              escaped === '\n' ? '' : escaped,
            );
            pieces.push({ kind: 'text', text, quoted: true, splittable: false });
          } else {
            pieces.push(...this.#expansionPieces(inner, true, depth));
          }
        }
        return [pieces];
      }
      default:
        return [this.#expansionPieces(part, false, depth)];
    }
  }

  #expansionPieces(part: ShellNode, quoted: boolean, depth: number): WordPiece[] {
    const type = shellNodeType(part);
    if (type === 'ParamExp') return this.#parameterPieces(part as ShellParamExp, quoted);
    if (type === 'CmdSubst') {
      const statements = (part as ShellCmdSubst).Stmts;
      const output = this.#staticOutput(statements, depth);
      if (output !== undefined) return [{ kind: 'text', text: output, quoted, splittable: !quoted }];
      return [{ kind: 'unknown', substitution: { kind: 'command', statements } }];
    }
    if (type === 'ProcSubst') {
      return [{ kind: 'unknown', substitution: { kind: 'process', statements: (part as ShellProcSubst).Stmts } }];
    }
    // Arithmetic, process substitution, extended globs and other command substitutions.
    return [{ kind: 'unknown' }];
  }

  #parameterPieces(expansion: ShellParamExp, quoted: boolean): WordPiece[] {
    const name = expansion.Param?.Value;
    const plain =
      name !== undefined &&
      !expansion.Excl &&
      !expansion.Length &&
      !expansion.Width &&
      expansion.Index === null &&
      expansion.Slice === null &&
      expansion.Repl === null &&
      expansion.Exp === null;
    if (!plain) return [{ kind: 'unknown' }];
    const assigned = this.#variables.get(name);
    if (assigned === null) return [{ kind: 'unknown' }];
    if (assigned !== undefined) {
      const pieces: WordPiece[] = [];
      assigned.forEach((text, index) => {
        if (index > 0) pieces.push({ kind: 'field-break' });
        pieces.push({ kind: 'text', text, quoted, splittable: !quoted });
      });
      return pieces;
    }
    if (name === 'HOME') return [{ kind: 'home' }];
    if (name === 'PWD') {
      if (this.#directory.startsWith('/')) return [{ kind: 'text', text: this.#directory, quoted, splittable: !quoted }];
      return this.#directory === PathPatternMarker.workingDirectory ? [{ kind: 'working-directory' }] : [{ kind: 'unknown' }];
    }
    return [{ kind: 'unknown' }];
  }

  /** The output of `$(echo …)` / `$(printf …)` with static arguments, the common obfuscations. */
  #staticOutput(statements: readonly ShellStmt[], depth: number): string | undefined {
    const statement = statements[0];
    if (statements.length !== 1 || statement === undefined || depth >= maximumSubstitutionDepth) return undefined;
    if (statement.Redirs.length > 0 || statement.Cmd === null || shellNodeType(statement.Cmd) !== 'CallExpr') {
      return undefined;
    }
    const call = statement.Cmd as ShellCallExpr;
    const values: string[] = [];
    for (const argument of call.Args) {
      for (const field of this.#resolve(argument, true, depth + 1)) {
        if (field.value === undefined) return undefined;
        values.push(field.value);
      }
    }
    const [program, ...rest] = values;
    if (program === 'echo') {
      // `$(…)` drops trailing newlines, so `-n` changes nothing; `-e` escapes would need interpreting.
      while (rest[0] !== undefined && /^-[neE]+$/.test(rest[0])) {
        if (rest[0].includes('e')) return undefined;
        rest.shift();
      }
      return rest.join(' ');
    }
    if (program === 'printf' && rest.length === 1 && rest[0] !== undefined && !/[%\\]/.test(rest[0])) {
      return rest[0];
    }
    return undefined;
  }

  #toResolvedWord(pieces: readonly WordPiece[]): ResolvedWord {
    let value: string | undefined = '';
    let pattern = '';
    let script = '';
    const substitutions: ShellSubstitution[] = [];
    for (const piece of pieces) {
      switch (piece.kind) {
        case 'text':
          value = value === undefined ? undefined : value + piece.text;
          pattern += piece.quoted ? piece.text : globPattern(piece.text);
          script += piece.text;
          break;
        case 'home':
          if (this.#homeDirectory === undefined) {
            value = undefined;
            pattern += PathPatternMarker.home;
          } else {
            value = value === undefined ? undefined : value + this.#homeDirectory;
            pattern += this.#homeDirectory;
          }
          script += '$HOME';
          break;
        case 'working-directory':
          value = undefined;
          pattern += PathPatternMarker.workingDirectory;
          script += '$PWD';
          break;
        case 'unknown':
          value = undefined;
          pattern += PathPatternMarker.unknown;
          script += unknownValueScript;
          if (piece.substitution !== undefined) substitutions.push(piece.substitution);
          break;
        case 'field-break':
          break;
      }
    }
    return { value, pattern, script, substitutions };
  }
}

/** Pieces of an unquoted literal: a backslash quotes the next character, backslash-newline vanishes. */
function unquotedLiteralPieces(raw: string): WordPiece[] {
  const pieces: WordPiece[] = [];
  let unquoted = '';
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index];
    if (character === '\\' && index + 1 < raw.length) {
      if (unquoted !== '') pieces.push({ kind: 'text', text: unquoted, quoted: false, splittable: false });
      unquoted = '';
      const escaped = raw[++index];
      if (escaped !== '\n' && escaped !== undefined) {
        pieces.push({ kind: 'text', text: escaped, quoted: true, splittable: false });
      }
    } else {
      unquoted += character;
    }
  }
  if (unquoted !== '') pieces.push({ kind: 'text', text: unquoted, quoted: false, splittable: false });
  return pieces;
}

/** Splits at field breaks and at whitespace produced by unquoted expansions (bash word splitting). */
function splitIntoFields(pieces: readonly WordPiece[]): WordPiece[][] {
  const fields: WordPiece[][] = [];
  let current: WordPiece[] = [];
  let started = false;
  const finish = (): void => {
    if (started) fields.push(current);
    current = [];
    started = false;
  };
  for (const piece of pieces) {
    if (piece.kind === 'field-break') {
      finish();
    } else if (piece.kind === 'text' && piece.splittable) {
      const chunks = piece.text.split(/[ \t\n]+/);
      chunks.forEach((chunk, index) => {
        if (index > 0) finish();
        if (chunk !== '') {
          current.push({ ...piece, text: chunk });
          started = true;
        }
      });
    } else {
      current.push(piece);
      started = true;
    }
  }
  finish();
  return fields;
}

/** `~` and `~/…` at the start of an unquoted word are the home directory; `~name` is that user's. */
function expandLeadingTilde(pieces: WordPiece[]): WordPiece[] {
  const first = pieces[0];
  if (first?.kind !== 'text' || first.quoted || !first.text.startsWith('~')) return pieces;
  const match = /^~([^/]*)(.*)$/s.exec(first.text);
  const user = match?.[1] ?? '';
  const rest: WordPiece[] = match?.[2] ? [{ ...first, text: match[2] }] : [];
  // A user name may continue in a quoted part (`~'root'` is not expanded by bash); keep it simple.
  if (user === '') return [{ kind: 'home' }, ...rest, ...pieces.slice(1)];
  if (!/^[A-Za-z0-9_.-]+$/.test(user)) return pieces;
  const home = user === 'root' ? '/root' : `/home/${user}`;
  return [{ kind: 'text', text: home, quoted: true, splittable: false }, ...rest, ...pieces.slice(1)];
}

/** Unquoted glob characters become markers; brackets only when they close. */
function globPattern(text: string): string {
  return text
    .replace(/\[(?:!|\^)?\]?[^\]]*\]/g, PathPatternMarker.oneCharacter)
    .replaceAll('*', PathPatternMarker.anyText)
    .replaceAll('?', PathPatternMarker.oneCharacter);
}

/** Bash brace expansion of one literal (`{a,b}`, nested); `{1..3}` and unbalanced braces stay as they are. */
function expandBraces(text: string): string[] {
  if (text.includes('\\')) return [text];
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '{') {
      if (depth === 0) {
        open = index;
        commas.length = 0;
      }
      depth++;
    } else if (character === ',' && depth === 1) {
      commas.push(index);
    } else if (character === '}' && depth > 0) {
      depth--;
      if (depth === 0 && commas.length > 0) {
        const prefix = text.slice(0, open);
        const suffix = text.slice(index + 1);
        const bounds = [open, ...commas, index];
        const results: string[] = [];
        for (let item = 0; item + 1 < bounds.length; item++) {
          const alternative = text.slice((bounds[item] ?? 0) + 1, bounds[item + 1]);
          for (const expanded of expandBraces(prefix + alternative + suffix)) {
            results.push(expanded);
            if (results.length > maximumVariants) return [text];
          }
        }
        return results;
      }
    }
  }
  return [text];
}

/** `$'…'` quoting: `$'\x72\x6d'` is `rm`. */
function decodeAnsiCQuoting(raw: string): string {
  const simple: Record<string, string> = {
    a: '\u0007', b: '\b', e: '\u001b', E: '\u001b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
    '\\': '\\', "'": "'", '"': '"', '?': '?',
  };
  return raw.replace(
    /\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (whole, escape: string) => {
      const kind = escape[0] ?? '';
      if (kind === 'x' || kind === 'u' || kind === 'U') {
        const codePoint = Number.parseInt(escape.slice(1), 16);
        return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
      }
      if (/[0-7]/.test(kind)) return String.fromCodePoint(Number.parseInt(escape, 8));
      if (kind === 'c') return String.fromCharCode((escape.charCodeAt(1) ?? 0) & 0x1f);
      return simple[kind] ?? whole;
    },
  );
}
