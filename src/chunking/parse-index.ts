// NumPy index syntax as text ('1:5, ::-1, None, ..., [0, 2]') parsed into index items.
// The items are what x.get() also accepts directly; normalizeIndex gives them meaning.

import { IndexError } from '../errors.ts';

/** A slice item: Python's `start:stop:step`, each part optional. */
export interface SliceItem {
  readonly start?: number | null;
  readonly stop?: number | null;
  readonly step?: number | null;
}

/**
 * One item of a NumPy index: an integer, a slice, `null` (new axis), `'...'` (as many full
 * slices as needed), or an integer array selecting along one axis.
 */
export type IndexItem = number | SliceItem | null | '...' | number[] | Int32Array;

const NEW_AXIS = new Set(['None', 'newaxis', 'np.newaxis', 'numpy.newaxis']);

/**
 * Parse NumPy index syntax. Parts are separated by commas (a trailing comma is allowed);
 * each is an integer, a slice `a:b:c` (parts optional), `None`/`newaxis`, `...`/`Ellipsis`,
 * or an integer list `[0, 2, -1]`. An empty text is the empty index `()`. `fn` names the
 * public function in error messages (x.get parses with 'get').
 * @example
 * parseIndex('1:5, ::-1, None, ..., 3'); // [{ start: 1, stop: 5 }, { step: -1 }, null, '...', 3]
 */
export function parseIndex(text: string, fn = 'parseIndex'): IndexItem[] {
  const p = new Parser(text, fn);
  const items: IndexItem[] = [];
  p.skipSpace();
  while (!p.done()) {
    items.push(p.item());
    p.skipSpace();
    if (p.done()) break;
    p.expect(',');
    p.skipSpace();
  }
  return items;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly fn: string,
  ) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    while (!this.done() && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  expect(ch: string): void {
    if (this.text[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  fail(what: string): never {
    const found = this.done() ? 'end of text' : `'${this.text[this.pos]}'`;
    throw new IndexError(
      `${this.fn}: cannot parse ${JSON.stringify(this.text)}: ${what} at position ${this.pos}, found ${found}`,
    );
  }

  item(): IndexItem {
    const rest = this.text.slice(this.pos);
    if (rest.startsWith('...')) {
      this.pos += 3;
      return '...';
    }
    const word = /^[A-Za-z_][A-Za-z_.]*/.exec(rest)?.[0];
    if (word !== undefined) {
      this.pos += word.length;
      if (NEW_AXIS.has(word)) return null;
      if (word === 'Ellipsis') return '...';
      this.pos -= word.length;
      this.fail('expected an index item');
    }
    if (rest.startsWith('[')) return this.list();
    return this.sliceOrInt();
  }

  private list(): number[] {
    this.expect('[');
    const out: number[] = [];
    this.skipSpace();
    while (this.text[this.pos] !== ']') {
      const v = this.int();
      if (v === undefined) this.fail('expected an integer');
      out.push(v);
      this.skipSpace();
      if (this.text[this.pos] === ']') break;
      this.expect(',');
      this.skipSpace();
    }
    this.expect(']');
    return out;
  }

  private sliceOrInt(): IndexItem {
    const start = this.int();
    this.skipSpace();
    if (this.text[this.pos] !== ':') {
      if (start === undefined) this.fail('expected an index item');
      return start;
    }
    this.pos++;
    const out: { start?: number; stop?: number; step?: number } = {};
    if (start !== undefined) out.start = start;
    const stop = this.int();
    if (stop !== undefined) out.stop = stop;
    this.skipSpace();
    if (this.text[this.pos] === ':') {
      this.pos++;
      const step = this.int();
      if (step !== undefined) out.step = step;
    }
    return out;
  }

  /** An optionally signed integer, or undefined when none starts here. */
  private int(): number | undefined {
    this.skipSpace();
    const m = /^([+-]?)\s*(\d+)/.exec(this.text.slice(this.pos));
    if (m === null) {
      if (/^[+-]/.test(this.text.slice(this.pos))) this.fail('expected digits');
      return undefined;
    }
    this.pos += m[0].length;
    const v = Number(m[2]);
    return m[1] === '-' && v !== 0 ? -v : v;
  }
}
