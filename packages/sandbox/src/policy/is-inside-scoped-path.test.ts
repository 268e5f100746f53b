import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInsideAnyScopedPath, isInsideScopedPath } from './is-inside-scoped-path.js';
import type { ScopedPath } from './sandbox-layout.js';

const segment = fc.constantFrom('a', 'b', 'ab', '.git', 'ws', 'ws2', '', 'é');
const path = fc.array(segment, { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join('/')}`);
const entry = fc.record({ path: fc.oneof(path, fc.constantFrom('/', '')), scope: fc.constantFrom('exact' as const, 'subtree' as const) });

function frozenList(entries: readonly ScopedPath[]): readonly ScopedPath[] {
  return Object.freeze(entries.map((one) => Object.freeze({ ...one })));
}

describe('isInsideAnyScopedPath', () => {
  it('answers a long frozen list (indexed) exactly as the entry-by-entry check does', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 16, maxLength: 60 }), fc.array(path, { minLength: 1, maxLength: 30 }), (entries, paths) => {
        const list = frozenList(entries);
        for (const candidate of paths) {
          expect(isInsideAnyScopedPath(candidate, list)).toBe(list.some((one) => isInsideScopedPath(candidate, one)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the separator check and the root entry when indexed', () => {
    const filler = Array.from({ length: 20 }, (_, index) => ({ path: `/filler/${index}`, scope: 'exact' as const }));
    const list = frozenList([...filler, { path: '/ws', scope: 'subtree' }, { path: '/file', scope: 'exact' }]);
    expect(isInsideAnyScopedPath('/ws', list)).toBe(true);
    expect(isInsideAnyScopedPath('/ws/a/b', list)).toBe(true);
    expect(isInsideAnyScopedPath('/ws2', list)).toBe(false);
    expect(isInsideAnyScopedPath('/file', list)).toBe(true);
    expect(isInsideAnyScopedPath('/file/below', list)).toBe(false);
    expect(isInsideAnyScopedPath('/anything', frozenList([...filler, { path: '/', scope: 'subtree' }]))).toBe(true);
  });

  it('sees entries pushed to a list that is not frozen (never a stale cached answer)', () => {
    const list: ScopedPath[] = Array.from({ length: 20 }, (_, index) => ({ path: `/filler/${index}`, scope: 'subtree' as const }));
    expect(isInsideAnyScopedPath('/later/x', list)).toBe(false);
    list.push({ path: '/later', scope: 'subtree' });
    expect(isInsideAnyScopedPath('/later/x', list)).toBe(true);
  });
});
