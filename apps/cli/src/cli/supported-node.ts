/**
 * The Node check that runs before anything else of `openwork` loads: on a Node outside the
 * package's `engines.node`, a native addon built for another Node can crash the process without a
 * word (a segmentation fault), so the CLI refuses first, in one line that says what to do.
 *
 * Only this file's light code runs before the check: no native addon, no OpenWork library.
 */

/** One `^MAJOR.MINOR.PATCH` of a range like `^22.22.2 || ^24.15.0`: same major, at least that release. */
interface CaretRange {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

function parseRelease(text: string): [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** The alternatives of `range`, or undefined when it holds anything but `^X.Y.Z` joined by `||`. */
export function parseCaretRanges(range: string): readonly CaretRange[] | undefined {
  const ranges: CaretRange[] = [];
  for (const part of range.split('||')) {
    const release = /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(part);
    const parsed = release === null ? undefined : parseRelease(release[1] ?? '');
    if (parsed === undefined) return undefined;
    ranges.push({ major: parsed[0], minor: parsed[1], patch: parsed[2] });
  }
  return ranges;
}

/** Whether Node `version` (`v24.15.0` or `24.15.0`) is inside `range`; a range this check cannot read admits every Node. */
export function isSupportedNode(version: string, range: string): boolean {
  const ranges = parseCaretRanges(range);
  const release = parseRelease(version);
  if (ranges === undefined || release === undefined) return true;
  const [major, minor, patch] = release;
  return ranges.some((floor) => major === floor.major && (minor > floor.minor || (minor === floor.minor && patch >= floor.patch)));
}

/**
 * The one line `openwork` prints on a Node outside `range`, or undefined on a supported one: the
 * running version, the supported range, and how to get a supported Node.
 */
export function unsupportedNodeLine(version: string, range: string): string | undefined {
  if (isSupportedNode(version, range)) return undefined;
  const running = version.startsWith('v') ? version : `v${version}`;
  return `openwork: Node ${running} is not supported; openwork runs on Node ${range}. Switch to one with your version manager (e.g. nvm install 24), or in a clone of openwork-tools run: . tooling/scripts/node-env.sh`;
}
