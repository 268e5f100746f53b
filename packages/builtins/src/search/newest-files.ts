/** A file glob found, with what orders it. */
export interface DatedFile {
  readonly displayPath: string;
  /** Milliseconds since the epoch; `undefined` when it could not be read (sorted last, §7.7). */
  readonly mtimeMs: number | undefined;
  /** Walk order, the tie-break. */
  readonly seq: number;
}

/** Whether `left` comes before `right` in glob's output: newer first, then walk order. */
function precedes(left: DatedFile, right: DatedFile): boolean {
  if (left.mtimeMs !== right.mtimeMs) {
    if (left.mtimeMs === undefined) return false;
    if (right.mtimeMs === undefined) return true;
    return left.mtimeMs > right.mtimeMs;
  }
  return left.seq < right.seq;
}

/**
 * The newest `capacity` files seen (§7.7: "遍历时用容量 100 的堆保留最新的条目"): a binary heap
 * whose root is the last of the kept files, so each new file costs O(log capacity) and memory
 * does not grow with the number of matches. Files without a modification time rank last.
 */
export class NewestFiles {
  readonly #capacity: number;
  readonly #heap: DatedFile[] = [];

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  offer(file: DatedFile): void {
    const heap = this.#heap;
    if (heap.length < this.#capacity) {
      heap.push(file);
      this.#up(heap.length - 1);
    } else if (heap.length > 0 && precedes(file, heap[0]!)) {
      heap[0] = file;
      this.#down(0);
    }
  }

  /** The kept files, first to last. */
  sorted(): DatedFile[] {
    return [...this.#heap].sort((left, right) => (precedes(left, right) ? -1 : precedes(right, left) ? 1 : 0));
  }

  // The root is the file every other kept file precedes (the "worst").
  #up(index: number): void {
    const heap = this.#heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!precedes(heap[parent]!, heap[index]!)) break;
      [heap[parent], heap[index]] = [heap[index]!, heap[parent]!];
      index = parent;
    }
  }

  #down(index: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && precedes(heap[worst]!, heap[left]!)) worst = left;
      if (right < heap.length && precedes(heap[worst]!, heap[right]!)) worst = right;
      if (worst === index) return;
      [heap[worst], heap[index]] = [heap[index]!, heap[worst]!];
      index = worst;
    }
  }
}
