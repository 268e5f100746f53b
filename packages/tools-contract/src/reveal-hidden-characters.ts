/**
 * Code points that change how a text looks without being seen themselves (architecture §3.9):
 * - `Cc` controls: C0 (`\x1b` starts terminal escape sequences, `\r` and `\b` move the cursor,
 *   `\n` starts a new line that can pass for a line of the card), DEL and C1 (`\x9b` is a
 *   one-byte CSI on many terminals, `\x85` a line break);
 * - `Cf` format characters: the bidirectional embeddings, overrides and isolates
 *   (U+202A–202E, U+2066–2069), marks (U+200E, U+200F, U+061C), zero-width space, joiners and the
 *   word joiner (U+200B–200D, U+2060–2064), U+FEFF, the soft hyphen, the tag characters
 *   (U+E0000–E007F, which hide ASCII text) and the interlinear annotation marks;
 * - `Zl`/`Zp` (U+2028, U+2029) and every space other than U+0020 (`Zs`: U+00A0, U+2000–200A,
 *   U+3000 …), which look like a space but are not one for a shell;
 * - lone surrogates, and the invisible fillers and variation selectors (U+115F, U+1160, U+3164,
 *   U+FFA0, U+FE00–FE0F, U+E0100–E01EF), which can carry hidden text behind a visible one.
 */
const hiddenCharacter =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

const shortEscapes: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every character that could make it look like something else shown as an escape
 * (architecture §3.9): `\n`, `\r`, `\t`; `\xHH` for the other C0, DEL and C1 controls (`\x1b`, `\x08`, `\x7f`, `\x9b`);
 * `\uHHHH` in the BMP (`\u202e`, `\u200b`); `\u{HHHHH}` above (`\u{e0041}`). Everything else —
 * letters of any script, emoji without selectors, backslashes — is kept as it is, so an ordinary
 * command reads as written. The result is one line, and each of its characters is what it looks
 * like: what a person approves is what runs. Use it on every model-written text (justification,
 * command, path, description) before a person reads it to decide.
 */
export function revealHiddenCharacters(text: string): string {
  return text.replace(hiddenCharacter, escapeCharacter);
}

function escapeCharacter(character: string): string {
  const short = shortEscapes[character];
  if (short !== undefined) return short;
  const codePoint = character.codePointAt(0) ?? 0;
  const hex = codePoint.toString(16);
  if (codePoint < 0xa0) return `\\x${hex.padStart(2, '0')}`;
  if (codePoint <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\u{${hex}}`;
}
