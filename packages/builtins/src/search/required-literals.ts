import type { PatternNode } from './pattern-node.js';

/** What the literal analysis learned about a pattern. */
export interface LiteralAnalysis {
  /**
   * When not `undefined`: the pattern matches a line exactly when the line contains one of these
   * strings (a plain literal, or an alternation of them), so no regex has to run at all.
   */
  readonly exact: readonly string[] | undefined;
  /**
   * When not `undefined`: every match contains one of these strings, so a file (or the part of
   * it before the first occurrence) without any of them has no match (the prefilter).
   */
  readonly required: readonly string[] | undefined;
  /**
   * When `required` is `undefined` and this is not: every match contains one of these strings
   * compared without ASCII case (they are in lower case), the prefilter of a case-insensitive
   * pattern such as `(?i)[a-z]+error`.
   */
  readonly caseless: readonly string[] | undefined;
}

/** Sets larger than this are not worth a pass over the file each. */
const MAX_SET_SIZE = 16;

interface Facts {
  /** The finite set of strings the node matches, when it is one (empty string included). */
  readonly language: readonly string[] | undefined;
  /** Strings one of which every match contains, when known (never containing ""). */
  readonly required: readonly string[] | undefined;
}

const UNKNOWN: Facts = { language: undefined, required: undefined };

/**
 * Literal facts of a pattern (§7.6 speed: "find a literal prefilter from the pattern"): the exact
 * literal set when the pattern is nothing but literals, else the best set of literals every match
 * must contain. Conservative: a case-insensitive character, a class or anything unusual makes a
 * part unknown, never wrong.
 */
export function requiredLiterals(tree: PatternNode): LiteralAnalysis {
  const facts = analyze(tree, false);
  const language = facts.language;
  const exact =
    language !== undefined && language.length > 0 && language.length <= MAX_SET_SIZE && language.every((text) => text !== '' && !text.includes('\n'))
      ? language
      : undefined;
  const caseless = facts.required === undefined ? analyze(tree, true).required?.filter((text) => !text.includes('\n')) : undefined;
  return { exact, required: facts.required, caseless: caseless !== undefined && caseless.length > 0 ? caseless : undefined };
}

/**
 * A character's facts. `caseless`: as strings compared without ASCII case — an ASCII character
 * stands for its lower case (whatever its flag: a superset is a valid prefilter); a
 * case-insensitive `k` or `s` is unknown (Unicode case folding adds the Kelvin sign and the long
 * s, which are not ASCII), and so is a case-insensitive letter outside ASCII.
 */
function analyzeChar(text: string, caseInsensitive: boolean, caseless: boolean): Facts {
  const hasCase = text.toLowerCase() !== text.toUpperCase();
  if (!caseless) return caseInsensitive && hasCase ? UNKNOWN : { language: [text], required: [text] };
  const ascii = text.length === 1 && text.charCodeAt(0) < 0x80;
  if (ascii) {
    const lower = text.toLowerCase();
    return caseInsensitive && (lower === 'k' || lower === 's') ? UNKNOWN : { language: [lower], required: [lower] };
  }
  return caseInsensitive && hasCase ? UNKNOWN : { language: [text], required: [text] };
}

function analyze(node: PatternNode, caseless: boolean): Facts {
  switch (node.kind) {
    case 'char':
      return analyzeChar(node.text, node.caseInsensitive, caseless);
    case 'class':
    case 'assertion':
      // An assertion matches "" only under a condition: not a finite language of its own.
      return UNKNOWN;
    case 'repeat':
      return analyzeRepeat(node.node, node.min, node.max, caseless);
    case 'group': {
      const alternatives = node.alternatives.map((sequence) => analyzeSequence(sequence, caseless));
      const language = union(alternatives.map((facts) => facts.language));
      const required = union(alternatives.map((facts) => best([facts.required, nonEmpty(facts.language)])));
      return { language, required };
    }
  }
}

function analyzeRepeat(child: PatternNode, min: number, max: number | undefined, caseless: boolean): Facts {
  const facts = analyze(child, caseless);
  let language: readonly string[] | undefined;
  if (facts.language !== undefined) {
    if (min === 0 && max === 1) language = union([facts.language, ['']]);
    else if (max !== undefined && min === max && min <= 4) language = power(facts.language, min);
  }
  return { language, required: min >= 1 ? best([facts.required, nonEmpty(facts.language)]) : undefined };
}

function analyzeSequence(sequence: readonly PatternNode[], caseless: boolean): Facts {
  const parts = sequence.map((part) => analyze(part, caseless));
  const candidates: (readonly string[] | undefined)[] = [];
  let run: readonly string[] | undefined = [''];
  let whole: readonly string[] | undefined = [''];
  for (const part of parts) {
    candidates.push(part.required);
    whole = whole === undefined || part.language === undefined ? undefined : product(whole, part.language);
    if (part.language === undefined) {
      candidates.push(nonEmpty(run));
      run = [''];
      continue;
    }
    const extended: readonly string[] | undefined = run === undefined ? undefined : product(run, part.language);
    if (extended === undefined) {
      candidates.push(nonEmpty(run));
      run = part.language;
    } else {
      run = extended;
    }
  }
  candidates.push(nonEmpty(run));
  return { language: whole, required: best(candidates) };
}

/** The cross product of two sets, or `undefined` when it would be too large. */
function product(left: readonly string[], right: readonly string[]): readonly string[] | undefined {
  if (left.length * right.length > MAX_SET_SIZE) return undefined;
  const result = new Set<string>();
  for (const a of left) for (const b of right) result.add(a + b);
  return [...result];
}

function power(set: readonly string[], times: number): readonly string[] | undefined {
  let result: readonly string[] | undefined = [''];
  for (let index = 0; index < times && result !== undefined; index += 1) result = product(result, set);
  return result;
}

function union(sets: readonly (readonly string[] | undefined)[]): readonly string[] | undefined {
  const result = new Set<string>();
  for (const set of sets) {
    if (set === undefined) return undefined;
    for (const text of set) result.add(text);
  }
  return result.size <= MAX_SET_SIZE ? [...result] : undefined;
}

/** A set usable as a requirement: known, and without the empty string (which every line contains). */
function nonEmpty(set: readonly string[] | undefined): readonly string[] | undefined {
  return set !== undefined && set.length > 0 && !set.includes('') ? set : undefined;
}

/** A requirement without members that contain another member (a line with "ab" has "a"). */
function minimal(set: readonly string[]): readonly string[] {
  return set.filter((text, index) => !set.some((other, otherIndex) => otherIndex !== index && other !== text && text.includes(other)));
}

/** The most selective set: the longest shortest member, then the fewest members. */
function best(candidates: readonly (readonly string[] | undefined)[]): readonly string[] | undefined {
  let chosen: readonly string[] | undefined;
  let chosenScore = 0;
  for (const found of candidates) {
    if (found === undefined || found.length === 0 || found.includes('')) continue;
    const candidate = minimal(found);
    const score = Math.min(...candidate.map((text) => Buffer.byteLength(text, 'utf8'))) * 64 - candidate.length;
    if (chosen === undefined || score > chosenScore) {
      chosen = candidate;
      chosenScore = score;
    }
  }
  return chosen;
}
