import type { PatternNode } from './pattern-node.js';

/** A pattern rewritten for RE2, with its structure for the literal analysis. */
export interface TranslatedPattern {
  readonly ok: true;
  /** RE2 syntax; compile it multi-line (`^`/`$` at line ends). */
  readonly source: string;
  readonly tree: PatternNode;
  /**
   * RE2 cannot say it exactly (Unicode `\b`/`\B`, or `\W`/`\S` inside a class): `source` then
   * matches a superset of the lines, and each line it finds is checked with Rust's own engine.
   */
  readonly needsRustCheck: boolean;
}

/** Why a pattern cannot be used, in words the model can act on. */
export interface RefusedPattern {
  readonly ok: false;
  readonly message: string;
}

interface Flags {
  readonly caseInsensitive: boolean;
  readonly unicode: boolean;
  readonly verbose: boolean;
}

/** What the pattern syntax allows, appended to every refusal (§7.6 "Rust regex 语法"). */
export const PATTERN_SYNTAX_HINT =
  'grep patterns use Rust regex syntax (the RE2 family): literals, ., [classes], [[:alpha:]], \\d \\w \\s \\b, \\p{L}, ( | ), * + ? {n,m}, ^ $, and the flags (?i) (?m) (?s) (?x) (?U); it has no lookaround and no backreferences, and every pattern runs in linear time.';

// Rust's Unicode classes in RE2 terms: RE2's own \d \w \s are ASCII-only (§7.6 asks for Rust semantics).
const UNICODE_DIGIT = '\\p{Nd}';
const UNICODE_WORD = '\\p{L}\\p{M}\\p{Nd}\\p{Pc}\\x{200C}\\x{200D}';
const UNICODE_SPACE = '\\t\\n\\x{0B}\\f\\r \\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}';

// Long general-category names Rust accepts and RE2 does not.
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  letter: 'L', casedletter: 'L', lowercaseletter: 'Ll', uppercaseletter: 'Lu', titlecaseletter: 'Lt',
  modifierletter: 'Lm', otherletter: 'Lo', mark: 'M', combiningmark: 'M', nonspacingmark: 'Mn',
  spacingmark: 'Mc', enclosingmark: 'Me', number: 'N', decimalnumber: 'Nd', digit: 'Nd', letternumber: 'Nl',
  othernumber: 'No', punctuation: 'P', connectorpunctuation: 'Pc', dashpunctuation: 'Pd',
  openpunctuation: 'Ps', closepunctuation: 'Pe', initialpunctuation: 'Pi', finalpunctuation: 'Pf',
  otherpunctuation: 'Po', symbol: 'S', mathsymbol: 'Sm', currencysymbol: 'Sc', modifiersymbol: 'Sk',
  othersymbol: 'So', separator: 'Z', spaceseparator: 'Zs', lineseparator: 'Zl', paragraphseparator: 'Zp',
  other: 'C', control: 'Cc', format: 'Cf', surrogate: 'Cs', privateuse: 'Co', unassigned: 'Cn',
};

class PatternRefusal extends Error {}

function refuse(message: string): never {
  throw new PatternRefusal(message);
}

function isHexDigits(text: string): boolean {
  return text.length > 0 && /^[0-9A-Fa-f]+$/.test(text);
}

function isWhitespace(character: string): boolean {
  return /^\s$/u.test(character);
}

/**
 * Rewrites a grep pattern written in Rust regex syntax (§7.6) into RE2 syntax and records its
 * structure. Rust constructs RE2 lacks are translated (`\u{…}`, Unicode `\d \w \s`, long
 * category names, `(?x)` verbose mode, nested classes) or refused with a message that says what
 * the syntax allows (lookaround, backreferences, class set operations). Matching is per line, so
 * the rewrite also keeps the pattern from crossing a line end: `(?s)` is dropped (a line holds no
 * `\n`), negated classes exclude `\n`, and a literal `\n` is refused.
 */
export function translateSearchPattern(pattern: string): TranslatedPattern | RefusedPattern {
  try {
    const translator = new PatternTranslator(pattern);
    return translator.translate();
  } catch (error) {
    if (error instanceof PatternRefusal) return { ok: false, message: error.message };
    throw error;
  }
}

class PatternTranslator {
  readonly #pattern: string;
  #index = 0;
  #needsRustCheck = false;
  /** Inside a negated class (nested ones are flattened into it). */
  #inNegatedClass = false;

  constructor(pattern: string) {
    this.#pattern = pattern;
  }

  translate(): TranslatedPattern {
    const flags: Flags = { caseInsensitive: false, unicode: true, verbose: false };
    const { source, node } = this.#alternation(flags, 0);
    if (this.#index < this.#pattern.length) refuse(`unopened group: the ")" at offset ${this.#index} closes nothing. Escape it as \\) to match a parenthesis.`);
    return { ok: true, source, tree: node, needsRustCheck: this.#needsRustCheck };
  }

  #peek(offset = 0): string {
    return this.#pattern.charAt(this.#index + offset);
  }

  #startsWith(text: string): boolean {
    return this.#pattern.startsWith(text, this.#index);
  }

  /** The next code point (a whole surrogate pair), consumed. */
  #take(): string {
    const codePoint = this.#pattern.codePointAt(this.#index);
    if (codePoint === undefined) return '';
    const character = String.fromCodePoint(codePoint);
    this.#index += character.length;
    return character;
  }

  /** In verbose mode: whitespace and `#` comments up to the end of the line mean nothing. */
  #skipVerbose(flags: Flags): void {
    if (!flags.verbose) return;
    while (this.#index < this.#pattern.length) {
      const character = this.#peek();
      if (character === '#') {
        while (this.#index < this.#pattern.length && this.#peek() !== '\n') this.#index += 1;
      } else if (isWhitespace(character)) {
        this.#index += 1;
      } else {
        return;
      }
    }
  }

  /** Alternatives up to the `)` that closes the current group (not consumed) or the end. */
  #alternation(outer: Flags, depth: number): { source: string; node: PatternNode } {
    let flags = outer;
    const alternatives: PatternNode[][] = [[]];
    let source = '';
    for (;;) {
      this.#skipVerbose(flags);
      if (this.#index >= this.#pattern.length) break;
      const character = this.#peek();
      if (character === ')') {
        if (depth === 0) refuse(`unopened group: the ")" at offset ${this.#index} closes nothing. Escape it as \\) to match a parenthesis.`);
        break;
      }
      const sequence = alternatives[alternatives.length - 1]!;
      if (character === '|') {
        this.#index += 1;
        source += '|';
        alternatives.push([]);
        continue;
      }
      if (character === '*' || character === '+' || character === '?' || character === '{') {
        const repetition = this.#repetition();
        if (repetition !== undefined) {
          source += repetition.source;
          const last = sequence.pop();
          if (last !== undefined) sequence.push({ kind: 'repeat', node: last, min: repetition.min, max: repetition.max });
          continue;
        }
        // A `{` that starts no repetition is a literal brace, as in RE2 and Rust.
        this.#index += 1;
        source += '\\{';
        sequence.push({ kind: 'char', text: '{', caseInsensitive: flags.caseInsensitive });
        continue;
      }
      if (character === '(') {
        const group = this.#group(flags, depth);
        source += group.source;
        if (group.flags !== undefined) flags = group.flags;
        if (group.node !== undefined) sequence.push(group.node);
        continue;
      }
      if (character === '[') {
        source += this.#class(flags);
        sequence.push({ kind: 'class' });
        continue;
      }
      if (character === '\\') {
        const escape = this.#escape(flags);
        source += escape.source;
        sequence.push(escape.node);
        continue;
      }
      if (character === '\n') {
        // ripgrep refuses it too ("the literal '\n' is not allowed in a regex"): no line holds one.
        refuse(`it holds a line break (at offset ${this.#index}), which can never match: grep matches one line at a time, and a line does not contain its line end. Search for one line of it at a time, or join the parts with .* if they are on one line.`);
      }
      const taken = this.#take();
      if (taken === '.') {
        source += '.';
        sequence.push({ kind: 'class' });
      } else if (taken === '^' || taken === '$') {
        source += taken;
        sequence.push({ kind: 'assertion' });
      } else {
        source += taken;
        sequence.push({ kind: 'char', text: taken, caseInsensitive: flags.caseInsensitive });
      }
    }
    return { source, node: { kind: 'group', alternatives } };
  }

  /** `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each optionally lazy; `undefined` for a `{` that is a literal. */
  #repetition(): { source: string; min: number; max: number | undefined } | undefined {
    const character = this.#peek();
    let min: number;
    let max: number | undefined;
    let source: string;
    if (character === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.#pattern.slice(this.#index));
      if (match === null) return undefined;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? undefined : Number(match[3]);
      source = match[0];
      this.#index += match[0].length;
    } else {
      this.#index += 1;
      source = character;
      min = character === '+' ? 1 : 0;
      max = character === '?' ? 1 : undefined;
    }
    if (this.#peek() === '?') {
      this.#index += 1;
      source += '?';
    }
    return { source, min, max };
  }

  /** `(`…`)`: a capture, a named capture, a non-capturing or flag group, or a flag directive. */
  #group(flags: Flags, depth: number): { source: string; node?: PatternNode; flags?: Flags } {
    const start = this.#index;
    this.#index += 1;
    let open = '(';
    let inner = flags;
    if (this.#peek() === '?') {
      if (this.#startsWith('?=') || this.#startsWith('?!')) {
        refuse(`lookahead ("(${this.#pattern.slice(this.#index, this.#index + 2)}…)" at offset ${start}) is not supported. ${PATTERN_SYNTAX_HINT} Match the following text itself instead.`);
      }
      if (this.#startsWith('?<=') || this.#startsWith('?<!')) {
        refuse(`lookbehind ("(${this.#pattern.slice(this.#index, this.#index + 3)}…)" at offset ${start}) is not supported. ${PATTERN_SYNTAX_HINT} Match the preceding text itself instead.`);
      }
      if (this.#startsWith('?P=') || this.#startsWith('?P>') || this.#startsWith('?&')) {
        refuse(`backreferences and subroutine calls ("(${this.#pattern.slice(this.#index, this.#index + 3)}…)" at offset ${start}) are not supported. ${PATTERN_SYNTAX_HINT}`);
      }
      const named = /^\?P?<([A-Za-z_][A-Za-z0-9_.[\]]*)>/.exec(this.#pattern.slice(this.#index));
      if (named !== null) {
        open = `(?P<${named[1]!}>`;
        this.#index += named[0].length;
      } else {
        const flagText = /^\?([A-Za-z-]*)([:)])/.exec(this.#pattern.slice(this.#index));
        if (flagText === null) refuse(`unknown group syntax "${this.#pattern.slice(start, start + 4)}" at offset ${start}. ${PATTERN_SYNTAX_HINT}`);
        const { flags: next, source: kept } = this.#flags(flagText[1]!, flags, start);
        this.#index += flagText[0].length;
        if (flagText[2] === ')') {
          // `(?flags)`: applies to the rest of the enclosing group.
          return { source: kept === '' ? '' : `(?${kept})`, flags: next };
        }
        open = kept === '' ? '(?:' : `(?${kept}:`;
        inner = next;
      }
    }
    const body = this.#alternation(inner, depth + 1);
    if (this.#peek() !== ')') refuse(`unclosed group: the "(" at offset ${start} has no ")". Escape it as \\( to match a parenthesis.`);
    this.#index += 1;
    return { source: `${open}${body.source})`, node: body.node };
  }

  /**
   * Flag letters of `(?…)`: `i` and `U` are kept for RE2; `m` and `s` are dropped because
   * matching is per line anyway (`^`/`$` always match at line ends, and no line holds a `\n`);
   * `u` and `x` change how this translator reads the rest; `R` (CRLF mode) changes nothing here.
   */
  #flags(letters: string, flags: Flags, offset: number): { flags: Flags; source: string } {
    let negate = false;
    let caseInsensitive = flags.caseInsensitive;
    let unicode = flags.unicode;
    let verbose = flags.verbose;
    let kept = '';
    let keptNegated = '';
    for (const letter of letters) {
      switch (letter) {
        case '-':
          if (negate) refuse(`repeated "-" in the flags at offset ${offset}. ${PATTERN_SYNTAX_HINT}`);
          negate = true;
          break;
        case 'i':
          caseInsensitive = !negate;
          if (negate) keptNegated += 'i';
          else kept += 'i';
          break;
        case 'U':
          if (negate) keptNegated += 'U';
          else kept += 'U';
          break;
        case 'u':
          unicode = !negate;
          break;
        case 'x':
          verbose = !negate;
          break;
        case 'm':
        case 's':
        case 'R':
          break;
        default:
          refuse(`unknown flag "${letter}" at offset ${offset}; the flags are i, m, s, U, u, x and R. ${PATTERN_SYNTAX_HINT}`);
      }
    }
    const source = keptNegated === '' ? kept : `${kept}-${keptNegated}`;
    return { flags: { caseInsensitive, unicode, verbose }, source };
  }

  /** An escape outside a class. */
  #escape(flags: Flags): { source: string; node: PatternNode } {
    const start = this.#index;
    this.#index += 1;
    if (this.#index >= this.#pattern.length) refuse(`the pattern ends with a lone "\\". Write \\\\ to match a backslash.`);
    const letter = this.#take();
    switch (letter) {
      case 'd':
        return { source: flags.unicode ? UNICODE_DIGIT : '\\d', node: { kind: 'class' } };
      case 'D':
        return { source: flags.unicode ? `[^${UNICODE_DIGIT}\\n]` : '[^\\d\\n]', node: { kind: 'class' } };
      case 'w':
        return { source: flags.unicode ? `[${UNICODE_WORD}]` : '\\w', node: { kind: 'class' } };
      case 'W':
        return { source: flags.unicode ? `[^${UNICODE_WORD}\\n]` : '[^\\w\\n]', node: { kind: 'class' } };
      case 's':
        // Whitespace other than the line end (a line holds none).
        return { source: flags.unicode ? `[${UNICODE_SPACE.replace('\\n', '')}]` : '[\\t\\x{0B}\\f\\r ]', node: { kind: 'class' } };
      case 'S':
        return { source: flags.unicode ? `[^${UNICODE_SPACE}]` : '\\S', node: { kind: 'class' } };
      case 'b':
        if (this.#peek() === '{') refuse(`"\\b{…}" at offset ${start} is not supported; use \\b. ${PATTERN_SYNTAX_HINT}`);
        return this.#wordBoundary('\\b', flags);
      case 'B':
        return this.#wordBoundary('\\B', flags);
      case 'A':
      case 'z':
        return { source: `\\${letter}`, node: { kind: 'assertion' } };
      case '<':
      case '>':
        refuse(`"\\${letter}" at offset ${start} is not supported; use \\b for a word boundary. ${PATTERN_SYNTAX_HINT}`);
        break;
      case 'p':
      case 'P':
        return this.#property(letter === 'P', start, false);
      case 'n':
        refuse(`"\\n" at offset ${start} can never match: grep matches one line at a time, and a line does not contain its line end. Search for a part of one line instead.`);
        break;
      case 'k':
        refuse(`backreferences ("\\k" at offset ${start}) are not supported. ${PATTERN_SYNTAX_HINT}`);
        break;
      case 'x':
      case 'u':
      case 'U': {
        const text = this.#codePointEscape(letter, start);
        return { source: `\\x{${text.codePointAt(0)!.toString(16).toUpperCase()}}`, node: { kind: 'char', text, caseInsensitive: flags.caseInsensitive } };
      }
      case 't':
        return { source: '\\t', node: { kind: 'char', text: '\t', caseInsensitive: false } };
      case 'r':
        return { source: '\\r', node: { kind: 'char', text: '\r', caseInsensitive: false } };
      case 'f':
        return { source: '\\f', node: { kind: 'char', text: '\f', caseInsensitive: false } };
      case 'v':
        return { source: '\\v', node: { kind: 'char', text: '\v', caseInsensitive: false } };
      case 'a':
        return { source: '\\a', node: { kind: 'char', text: '\x07', caseInsensitive: false } };
      default:
        break;
    }
    if (/^[1-9]$/.test(letter)) refuse(`backreferences ("\\${letter}" at offset ${start}) are not supported. ${PATTERN_SYNTAX_HINT}`);
    if (/^[\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E ]$/.test(letter)) {
      return { source: letter === ' ' ? ' ' : `\\${letter}`, node: { kind: 'char', text: letter, caseInsensitive: flags.caseInsensitive } };
    }
    refuse(`unknown escape "\\${letter}" at offset ${start}. ${PATTERN_SYNTAX_HINT}`);
  }

  /**
   * RE2's `\b` and `\B` know only ASCII word characters; Rust's are Unicode-aware unless `(?-u)`
   * (`１２３foo` has no boundary before `foo`). In Unicode mode the assertion is left out of the
   * RE2 source (a superset: an assertion only removes matches) and the line is checked by Rust.
   */
  #wordBoundary(assertion: string, flags: Flags): { source: string; node: PatternNode } {
    if (!flags.unicode) return { source: assertion, node: { kind: 'assertion' } };
    this.#needsRustCheck = true;
    return { source: '(?:)', node: { kind: 'assertion' } };
  }

  /** `\xHH`, `\x{…}`, `\uHHHH`, `\u{…}`, `\UHHHHHHHH`, `\U{…}`: the character it names. */
  #codePointEscape(letter: string, start: number): string {
    let digits: string;
    if (this.#peek() === '{') {
      const end = this.#pattern.indexOf('}', this.#index);
      if (end < 0) refuse(`unclosed "\\${letter}{" at offset ${start}. ${PATTERN_SYNTAX_HINT}`);
      digits = this.#pattern.slice(this.#index + 1, end);
      this.#index = end + 1;
    } else {
      const width = letter === 'x' ? 2 : letter === 'u' ? 4 : 8;
      digits = this.#pattern.slice(this.#index, this.#index + width);
      if (digits.length !== width || !isHexDigits(digits)) refuse(`"\\${letter}" at offset ${start} needs ${width} hex digits or braces, like \\${letter}{41}. ${PATTERN_SYNTAX_HINT}`);
      this.#index += width;
    }
    const value = isHexDigits(digits) ? Number.parseInt(digits, 16) : Number.NaN;
    if (!Number.isInteger(value) || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
      refuse(`"\\${letter}" at offset ${start} does not name a Unicode scalar value. ${PATTERN_SYNTAX_HINT}`);
    }
    if (value === 0x0a) refuse(`"\\${letter}" at offset ${start} is a line end, which can never match: grep matches one line at a time.`);
    return String.fromCodePoint(value);
  }

  /** `\pL`, `\p{…}`, `\PL`, `\P{…}`; long category names become RE2's short ones. */
  #property(negated: boolean, start: number, inClass: boolean): { source: string; node: PatternNode } {
    let name: string;
    if (this.#peek() === '{') {
      const end = this.#pattern.indexOf('}', this.#index);
      if (end < 0) refuse(`unclosed "\\p{" at offset ${start}. ${PATTERN_SYNTAX_HINT}`);
      name = this.#pattern.slice(this.#index + 1, end);
      this.#index = end + 1;
    } else {
      name = this.#take();
      if (name === '') refuse(`"\\p" at offset ${start} needs a class name, like \\p{L}. ${PATTERN_SYNTAX_HINT}`);
    }
    let value = name.trim();
    if (value.startsWith('^')) {
      negated = !negated;
      value = value.slice(1);
    }
    const assignment = /^(?:gc|general_?category|sc|script|scx|script_?extensions)\s*[=:]\s*(.+)$/i.exec(value);
    if (assignment !== null) value = assignment[1]!;
    const alias = CATEGORY_ALIASES[value.toLowerCase().replace(/[\s_-]/g, '')];
    if (alias !== undefined) value = alias;
    const property = `\\p{${value}}`;
    if (!negated) return { source: property, node: { kind: 'class' } };
    if (inClass) return { source: `\\P{${value}}`, node: { kind: 'class' } };
    return { source: `[^${property}\\n]`, node: { kind: 'class' } };
  }

  /**
   * A bracketed class. Rust nests classes (`[a[bc]]`, a union) and has set operations; RE2 has
   * neither, so a nested non-negated class is flattened and the rest is refused. A negated class
   * also excludes `\n`, so no match crosses a line end.
   */
  #class(flags: Flags): string {
    const start = this.#index;
    this.#inNegatedClass = this.#pattern.charAt(start + 1) === '^';
    const { negated, items } = this.#classBody(flags, start);
    this.#inNegatedClass = false;
    return negated ? `[^${items}\\n]` : `[${items}]`;
  }

  #classBody(flags: Flags, start: number): { negated: boolean; items: string } {
    this.#index += 1; // [
    let negated = false;
    if (this.#peek() === '^') {
      negated = true;
      this.#index += 1;
    }
    let items = '';
    let first = true;
    for (;;) {
      if (this.#index >= this.#pattern.length) refuse(`unclosed character class: the "[" at offset ${start} has no "]". Escape it as \\[ to match a bracket.`);
      if (flags.verbose && isWhitespace(this.#peek())) {
        this.#index += 1;
        continue;
      }
      const character = this.#peek();
      if (character === ']' && !first) {
        this.#index += 1;
        break;
      }
      first = false;
      if (character === ']') {
        this.#index += 1;
        items += '\\]';
        continue;
      }
      if (this.#startsWith('&&') || this.#startsWith('--') || this.#startsWith('~~')) {
        refuse(`class set operations ("${this.#pattern.slice(this.#index, this.#index + 2)}" at offset ${this.#index}) are not supported; list the characters you want, or escape a literal as \\${character}. ${PATTERN_SYNTAX_HINT}`);
      }
      if (character === '[') {
        const posix = /^\[:\^?[a-z]+:\]/.exec(this.#pattern.slice(this.#index));
        if (posix !== null) {
          items += posix[0];
          this.#index += posix[0].length;
          continue;
        }
        const nestedStart = this.#index;
        const nested = this.#classBody(flags, nestedStart);
        if (nested.negated) refuse(`a negated class inside a class (at offset ${nestedStart}) is not supported; write the outer class without it. ${PATTERN_SYNTAX_HINT}`);
        items += nested.items;
        continue;
      }
      if (character === '\\') {
        items += this.#classEscape(flags);
        continue;
      }
      const taken = this.#take();
      items += taken === '^' || taken === '[' ? `\\${taken}` : taken;
    }
    return { negated, items };
  }

  /** An escape inside a class, as class items. */
  #classEscape(flags: Flags): string {
    const start = this.#index;
    this.#index += 1;
    if (this.#index >= this.#pattern.length) refuse(`the pattern ends with a lone "\\". Write \\\\ to match a backslash.`);
    const letter = this.#take();
    switch (letter) {
      case 'd':
        return flags.unicode ? UNICODE_DIGIT : '\\d';
      case 'w':
        return flags.unicode ? UNICODE_WORD : '\\w';
      case 's':
        return flags.unicode ? UNICODE_SPACE : '\\s';
      case 'D':
        return flags.unicode ? '\\P{Nd}' : '\\D';
      case 'W':
      case 'S':
        if (!flags.unicode) return `\\${letter}`;
        // RE2 has no Unicode \W or \S item for a class. Its ASCII one is a superset of Rust's in a
        // class and, left out, the negated class is a superset: Rust checks each line found.
        this.#needsRustCheck = true;
        return this.#inNegatedClass ? '' : `\\${letter}`;
      case 'p':
      case 'P':
        return this.#property(letter === 'P', start, true).source;
      case 'x':
      case 'u':
      case 'U': {
        const text = this.#codePointEscapeInClass(letter, start);
        return `\\x{${text.toString(16).toUpperCase()}}`;
      }
      case 'n':
      case 't':
      case 'r':
      case 'f':
      case 'v':
      case 'a':
        return `\\${letter}`;
      default:
        break;
    }
    if (/^[\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E ]$/.test(letter)) return letter === ' ' ? ' ' : `\\${letter}`;
    refuse(`unknown escape "\\${letter}" in a class at offset ${start}. ${PATTERN_SYNTAX_HINT}`);
  }

  /** Like `#codePointEscape`, but a `\n` is fine inside a class (it can just never match). */
  #codePointEscapeInClass(letter: string, start: number): number {
    const before = this.#index;
    try {
      return this.#codePointEscape(letter, start).codePointAt(0)!;
    } catch (error) {
      if (error instanceof PatternRefusal && /line end/.test(error.message)) {
        // Re-read the digits: the escape named U+000A.
        this.#index = before;
        if (this.#peek() === '{') this.#index = this.#pattern.indexOf('}', this.#index) + 1;
        else this.#index += letter === 'x' ? 2 : letter === 'u' ? 4 : 8;
        return 0x0a;
      }
      throw error;
    }
  }
}
