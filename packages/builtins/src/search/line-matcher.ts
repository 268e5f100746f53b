import { ByteKernel } from './byte-kernel.js';
import { loadRe2, type Re2Regex } from './load-re2.js';
import { loadRustRegex, type RustRegex } from './load-rust-regex.js';

/**
 * What a worker needs to rebuild a `LineMatcher`: plain data, so it crosses `postMessage`.
 * Made by `compileSearchPattern`.
 */
export interface LineMatcherSpec {
  /** RE2 syntax (already translated from Rust syntax). */
  readonly source: string;
  /** The pattern is exactly "the line contains one of these" (no regex runs). */
  readonly exact: readonly string[] | undefined;
  /** Every match contains one of these (prefilter). */
  readonly required: readonly string[] | undefined;
  /**
   * Without `required`: every match contains one of these compared without ASCII case (lower
   * case; `requiredLiterals`). Used where the byte kernel searches, to test only the lines
   * holding one.
   */
  readonly caseless?: readonly string[] | undefined;
  /**
   * The pattern as written, when `source` only approximates it (a superset of the lines): each
   * line RE2 finds is then checked with Rust's engine (`translateSearchPattern`'s `needsRustCheck`).
   */
  readonly rust?: string | undefined;
}

/**
 * Called for each matching line, `[start, end)` in the region (`end` excludes the `\n`), in order.
 * Return `false` to stop the search of this region (files mode, the deadline, cancellation).
 */
export type MatchingLineVisitor = (start: number, end: number) => boolean;

const NEWLINE = 10;

/** How a region's bytes are searched: in JavaScript (`Buffer.indexOf`) or by the byte kernel. */
interface ByteSearch {
  /** First index of literal `which` at or after `from`, or -1. */
  find(which: number, from: number): number;
  lineStart(index: number): number;
  lineEnd(index: number): number;
}

function bufferSearch(region: Buffer, literals: readonly Buffer[]): ByteSearch {
  return {
    find: (which, from) => region.indexOf(literals[which]!, from),
    lineStart: (index) => (index === 0 ? 0 : region.lastIndexOf(NEWLINE, index - 1) + 1),
    lineEnd: (index) => {
      const end = region.indexOf(NEWLINE, index);
      return end < 0 ? region.length : end;
    },
  };
}

function kernelSearch(kernel: ByteKernel, region: Buffer, literals: readonly Buffer[], needles: readonly number[]): ByteSearch {
  return {
    find: (which, from) => kernel.find(region, from, needles[which]!, literals[which]!.length),
    lineStart: (index) => kernel.lineStart(region, index),
    lineEnd: (index) => kernel.lineEnd(region, index),
  };
}

/**
 * Finds the matching lines of a region of bytes (§7.6 speed): the whole region is searched at
 * once, and line boundaries are looked up only around a match. Three ways, fastest first:
 * literals only (`Buffer.indexOf`, no regex at all); a literal prefilter that skips everything
 * before the first possible match (a file without it costs one `indexOf`); RE2 over the region,
 * one call per matching line. A match that crosses a line end (a pattern construct the
 * translation could not fence) switches the rest of the region to line-by-line matching, which is
 * still linear.
 */
export class LineMatcher {
  readonly spec: LineMatcherSpec;
  readonly #global: Re2Regex;
  readonly #single: Re2Regex;
  readonly #exact: readonly Buffer[] | undefined;
  readonly #required: readonly Buffer[] | undefined;
  readonly #caseless: readonly Buffer[] | undefined;
  readonly #rust: RustRegex | undefined;

  private constructor(spec: LineMatcherSpec, global: Re2Regex, single: Re2Regex, rust: RustRegex | undefined) {
    this.spec = spec;
    this.#global = global;
    this.#single = single;
    this.#rust = rust;
    this.#exact = spec.exact?.map((text) => Buffer.from(text, 'utf8'));
    this.#required = spec.required?.map((text) => Buffer.from(text, 'utf8'));
    this.#caseless = spec.caseless?.map((text) => Buffer.from(text, 'utf8'));
  }

  /** Compiles `spec` with RE2 (and Rust's engine if needed); throws the engine's error for an invalid pattern. */
  static compile(spec: LineMatcherSpec): LineMatcher {
    const RE2 = loadRe2();
    const rust = spec.rust === undefined ? undefined : new (loadRustRegex())(spec.rust);
    return new LineMatcher(spec, new RE2(spec.source, 'gm'), new RE2(spec.source, 'm'), rust);
  }

  /** Visits the matching lines of `region`; `false` when the visitor stopped early. */
  search(region: Buffer, visit: MatchingLineVisitor): boolean {
    if (region.length === 0) return true;
    if (this.#caseless !== undefined && this.#required === undefined) {
      const kernel = ByteKernel.get();
      const needles = kernel !== undefined && kernel.holds(region) ? kernel.needles(this.#caseless, this.#caseless) : undefined;
      if (needles !== undefined) return this.#searchCaselessCandidates(kernel!, region, this.#caseless, needles, visit);
    }
    const literals = this.#exact ?? this.#required ?? NO_LITERALS;
    const bytes = this.#byteSearch(region, literals);
    if (this.#exact !== undefined) return searchLiterals(bytes, literals.length, region.length, visit);
    let start = 0;
    if (this.#required !== undefined) {
      const first = firstOccurrence(bytes, literals.length);
      if (first < 0) return true;
      start = bytes.lineStart(first);
    }
    return this.#searchRegex(region, bytes, start, visit);
  }

  /** The kernel's loops for bytes read into its memory (a search worker's files), else `Buffer`'s. */
  #byteSearch(region: Buffer, literals: readonly Buffer[]): ByteSearch {
    const kernel = ByteKernel.get();
    if (kernel !== undefined && kernel.holds(region)) {
      const needles = kernel.needles(literals, literals);
      if (needles !== undefined) return kernelSearch(kernel, region, literals, needles);
    }
    return bufferSearch(region, literals);
  }

  /** Whether one line (no `\n` in it) matches. */
  matchesLine(line: Buffer): boolean {
    return this.#single.test(line) && this.#confirmed(line, 0, line.length);
  }

  /** Rust's verdict on a line RE2 found, when RE2's source is only a superset. */
  #confirmed(region: Buffer, start: number, end: number): boolean {
    return this.#rust === undefined || this.#rust.isMatch(region.toString('utf8', start, end));
  }

  #searchRegex(region: Buffer, bytes: ByteSearch, from: number, visit: MatchingLineVisitor): boolean {
    const regex = this.#global;
    const endsWithNewline = region[region.length - 1] === NEWLINE;
    let position = from;
    while (position < region.length) {
      regex.lastIndex = position;
      const match = regex.exec(region);
      if (match === null) return true;
      const index = match.index;
      // An empty match after the final line end is on no line (ripgrep counts no line there).
      if (index >= region.length && endsWithNewline) return true;
      const start = bytes.lineStart(index);
      const end = bytes.lineEnd(index);
      if (index + match[0].length > end) return this.#searchLines(region, bytes, start, visit);
      if (this.#confirmed(region, start, end) && !visit(start, end)) return false;
      position = end + 1;
    }
    return true;
  }

  /**
   * Tests only the lines holding one of the caseless literals (found by the kernel), each on its
   * own: a case-insensitive pattern has no exact literal to skip by, and RE2 over every byte of
   * every file was most of such a search (search performance).
   */
  #searchCaselessCandidates(kernel: ByteKernel, region: Buffer, literals: readonly Buffer[], needles: readonly number[], visit: MatchingLineVisitor): boolean {
    const candidates: ByteSearch = {
      find: (which, from) => kernel.findCaseless(region, from, needles[which]!, literals[which]!.length),
      lineStart: (index) => kernel.lineStart(region, index),
      lineEnd: (index) => kernel.lineEnd(region, index),
    };
    return searchLiterals(candidates, literals.length, region.length, (start, end) => !(this.#single.test(region.subarray(start, end)) && this.#confirmed(region, start, end)) || visit(start, end));
  }

  #searchLines(region: Buffer, bytes: ByteSearch, from: number, visit: MatchingLineVisitor): boolean {
    let start = from;
    while (start < region.length) {
      const end = bytes.lineEnd(start);
      if (this.#single.test(region.subarray(start, end)) && this.#confirmed(region, start, end) && !visit(start, end)) return false;
      start = end + 1;
    }
    return true;
  }
}

const NO_LITERALS: readonly Buffer[] = [];

function firstOccurrence(bytes: ByteSearch, count: number): number {
  let first = -1;
  for (let which = 0; which < count; which += 1) {
    const index = bytes.find(which, 0);
    if (index >= 0 && (first < 0 || index < first)) first = index;
  }
  return first;
}

/** Lines that contain one of the `count` literals, by the next occurrence of each. */
function searchLiterals(bytes: ByteSearch, count: number, length: number, visit: MatchingLineVisitor): boolean {
  const next: number[] = [];
  for (let which = 0; which < count; which += 1) next.push(bytes.find(which, 0));
  for (;;) {
    let index = -1;
    for (const candidate of next) if (candidate >= 0 && (index < 0 || candidate < index)) index = candidate;
    if (index < 0) return true;
    const end = bytes.lineEnd(index);
    if (!visit(bytes.lineStart(index), end)) return false;
    const position = end + 1;
    if (position >= length) return true;
    for (let which = 0; which < count; which += 1) {
      const candidate = next[which]!;
      if (candidate >= 0 && candidate < position) next[which] = bytes.find(which, position);
    }
  }
}
