import type { SensitiveNameRule } from '../policy/git-sensitive-names.js';
import { foldLetterCase } from '../policy/letter-case.js';
import type { LetterCase } from '../policy/sandbox-policy.js';
import { seatbeltPathPattern } from './seatbelt-path-pattern.js';

/** One component as a pattern: escaped, and with every ASCII letter a class when `insensitive`. */
function componentPattern(name: string, letterCase: LetterCase): string {
  return seatbeltPathPattern(`/${name}`, 'exact', letterCase).slice(2, -1);
}

/**
 * The Seatbelt `(regex …)` pattern of tier 3 by kind (architecture §3.10) inside one writable
 * entry `region`: every path at or below a kind entry that lies strictly below `region` — the
 * same rule as the fence (`SandboxLayout`: a region at or below the entry reopens it). Two forms:
 *
 * - the whole rule below the region, at any depth: `^<region>`, any number of `/<component>`
 *   (`[^/]+`), then `/\.git/hooks(/|$)`;
 * - the rule starting in the region's own last components (a grant on `…/.git`):
 *   `^<region>/hooks(/|$)`.
 *
 * `[^/]` instead of `.`, so a newline in a name means the same to every regex engine. The region
 * is matched as spelled (allow side); the names with the layout's letter case. Passed as a `-D`
 * parameter like every path (§3.4).
 */
export function seatbeltKindPattern(region: string, rules: readonly SensitiveNameRule[], letterCase: LetterCase): string {
  const prefix = region === '/' ? '' : seatbeltPathPattern(region, 'exact', 'sensitive').slice(1, -1);
  const fold = (text: string): string => (letterCase === 'insensitive' ? foldLetterCase(text) : text);
  const regionComponents = region.split('/').filter((component) => component !== '').map(fold);
  const anywhere: string[] = [];
  const continuing: string[] = [];
  for (const rule of rules) {
    const suffix = rule.scope === 'subtree' ? '(/|$)' : '$';
    const names = rule.names.map((name) => componentPattern(name, letterCase));
    anywhere.push(`${names.join('/')}${suffix}`);
    for (let inRegion = 1; inRegion < rule.names.length && inRegion <= regionComponents.length; inRegion += 1) {
      const tail = regionComponents.slice(regionComponents.length - inRegion);
      if (tail.every((component, index) => component === fold(rule.names[index] as string))) {
        continuing.push(`${names.slice(inRegion).join('/')}${suffix}`);
      }
    }
  }
  const alternatives = [`(/[^/]+)*/(${anywhere.join('|')})`];
  if (continuing.length > 0) alternatives.push(`/(${continuing.join('|')})`);
  return `^${prefix}(${alternatives.join('|')})`;
}
