import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileSearchGlob } from './search-glob.js';

// Search performance: `**`, `**/*` and `**/NAME` skip picomatch's whole-path regex; the answers must be
// picomatch's own on every path a walk reports (relative, `/`-separated, no `.`/`..` segments).
const segment = fc.constantFrom('a', 'b.json', '.json', 'x.json.bak', 'y.JSON', 'd-1_2.min.js', 'c.ts', 'index.d.ts', '.hidden', 'x y', 'é.md', 'a.b.c', '[x]', 'node_modules');
const relativePath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
const namePattern = fc.constantFrom('*', '*.json', '*json', '*.min.js', '*-1_2.min.js', '*.JSON', '*.{ts,js}', 'index.*', '?.ts', '[ab]*', '*.d.ts', '@(a|c.ts)', 'a', '+(a|b.json)', '\\[x\\]');

describe('compileSearchGlob shortcuts', () => {
  it('answer as picomatch does for **, **/* and **/NAME, as glob and as the grep filter', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant('**'), fc.constant('**/*'), namePattern.map((name) => `**/${name}`), namePattern), relativePath, fc.boolean(), (pattern, path, nameAtAnyDepth) => {
        const ours = compileSearchGlob(pattern, { nameAtAnyDepth, root: '/r' });
        const basename = nameAtAnyDepth && !pattern.includes('/');
        const theirs = picomatch(pattern, { basename, dot: true, nonegate: true });
        expect(ours(path)).toBe(theirs(path));
        expect(compileSearchGlob(`!${pattern}`, { nameAtAnyDepth, root: '/r' })(path)).toBe(!theirs(path));
      }),
      { numRuns: 3000 },
    );
  });

  it('still refuses what picomatch refuses', () => {
    expect(() => compileSearchGlob('**/' + 'a'.repeat(70_000), { nameAtAnyDepth: false, root: '/r' })).toThrow();
  });
});
