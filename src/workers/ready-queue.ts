// A binary min-heap of task ids keyed by static priority: the ready set of the scheduler.
// Typed-array backed; push and pop are O(log n) with no allocation per task.

export class ReadyQueue {
  private heap: Int32Array;
  private keys: Int32Array;
  size = 0;

  constructor(
    private readonly priority: Int32Array,
    capacity = 64,
  ) {
    this.heap = new Int32Array(capacity);
    this.keys = new Int32Array(capacity);
  }

  push(task: number): void {
    if (this.size === this.heap.length) {
      const h = new Int32Array(this.size * 2);
      h.set(this.heap);
      this.heap = h;
      const k = new Int32Array(this.size * 2);
      k.set(this.keys);
      this.keys = k;
    }
    const key = this.priority[task]!;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.heap[i] = this.heap[parent]!;
      this.keys[i] = this.keys[parent]!;
      i = parent;
    }
    this.heap[i] = task;
    this.keys[i] = key;
  }

  /** Priority of the next task, or Infinity when empty. */
  peekKey(): number {
    return this.size === 0 ? Number.POSITIVE_INFINITY : this.keys[0]!;
  }

  pop(): number {
    const top = this.heap[0]!;
    const n = --this.size;
    if (n === 0) return top;
    const task = this.heap[n]!;
    const key = this.keys[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.keys[c + 1]! < this.keys[c]!) c++;
      if (this.keys[c]! >= key) break;
      this.heap[i] = this.heap[c]!;
      this.keys[i] = this.keys[c]!;
      i = c;
    }
    this.heap[i] = task;
    this.keys[i] = key;
    return top;
  }
}
