// §7.3 tolerant matching, last level: the typographic characters a model writes as plain ASCII
// (or the other way round). Every entry maps one UTF-16 unit to one, so offsets in the plain text
// are offsets in the original; that is why `…` (one character for three) is not on the list.
const PLAIN: ReadonlyMap<string, string> = new Map([
  // Single quotes, apostrophes and primes.
  ...['\u2018', '\u2019', '\u201A', '\u201B', '\u2032'].map((quote): [string, string] => [quote, "'"]),
  // Double quotes and double primes.
  ...['\u201C', '\u201D', '\u201E', '\u201F', '\u2033'].map((quote): [string, string] => [quote, '"']),
  // Hyphens, dashes and the minus sign.
  ...['\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212'].map((dash): [string, string] => [dash, '-']),
  // No-break, fixed-width and ideographic spaces.
  ...['\u00A0', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000'].map(
    (space): [string, string] => [space, ' '],
  ),
]);

const TYPOGRAPHIC = new RegExp(`[${[...PLAIN.keys()].join('')}]`, 'gu');

/** `text` with typographic quotes, dashes and spaces replaced by `'`, `"`, `-` and a space; same length. */
export function plainTypography(text: string): string {
  return text.replace(TYPOGRAPHIC, (character) => PLAIN.get(character) ?? character);
}

/** Whether `text` holds any character `plainTypography` changes. */
export function hasTypography(text: string): boolean {
  TYPOGRAPHIC.lastIndex = 0;
  return TYPOGRAPHIC.test(text);
}
