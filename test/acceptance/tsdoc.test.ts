// Acceptance (issue 11): every public function, class and method form carries a TSDoc
// @example. Reads src/index.ts's `export { … } from './x.ts'` lists, follows each to its
// source file and checks the doc block above the declaration; the method forms in
// src/array/methods.ts are checked likewise (the interface members declared there, and the
// functions the mapped methods delegate to).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { methodDocs } from '../../scripts/method-docs.mjs';
import * as tessera from '../../src/index.ts';

const SRC = join(import.meta.dirname, '../../src');
const read = (file: string): string => readFileSync(file, 'utf8');

/** The `/** … *\/` block right above `at` in `text` ('' when there is none). */
function docAbove(text: string, at: number): string {
  const before = text.slice(0, at).trimEnd();
  if (!before.endsWith('*/')) return '';
  const start = before.lastIndexOf('/**');
  return start < 0 ? '' : before.slice(start);
}

interface Exported {
  name: string;
  /** The name in its source file (`variance` for `variance as var`). */
  local: string;
  file: string;
}

/** Runtime names of src/index.ts's `export { … } from '…'` lists (type-only ones left out). */
function indexExports(): Exported[] {
  const index = join(SRC, 'index.ts');
  const text = read(index);
  const out: Exported[] = [];
  for (const m of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    if (m[1]) continue;
    for (const raw of m[2]!.split(',')) {
      const spec = raw.trim();
      if (spec === '' || spec.startsWith('type ')) continue;
      const [local, name = local] = spec.split(/\s+as\s+/) as [string, string?];
      out.push({ name, local, file: join(dirname(index), m[3]!) });
    }
  }
  return out;
}

/** The doc block above `local`'s declaration in `file`, or null if none is found. */
function declarationDoc(file: string, local: string): string | null {
  const text = read(file);
  const decl = new RegExp(
    `^export (?:async )?(?:function\\*? |const |class |abstract class )${local}\\b`,
    'm',
  ).exec(text);
  return decl ? docAbove(text, decl.index) : null;
}

const callable = indexExports().filter(
  (e) => typeof (tessera as Record<string, unknown>)[e.name] === 'function',
);

describe('TSDoc @example on the public API', () => {
  test('src/index.ts lists callable exports to check', () => {
    expect(callable.length).toBeGreaterThan(100);
    expect(callable.map((e) => e.name)).toContain('compute');
  });

  test('every exported function and class has a doc block with @example', () => {
    const offenders: string[] = [];
    for (const e of callable) {
      const doc = declarationDoc(e.file, e.local);
      const where = e.file.slice(SRC.length + 1);
      if (doc === null) offenders.push(`${e.name} (${where}): declaration not found`);
      else if (!doc.includes('@example')) {
        offenders.push(`${e.name} (${where}): ${doc ? 'no @example' : 'no TSDoc'}`);
      }
    }
    expect(offenders, `exports without a TSDoc @example:\n${offenders.join('\n')}`).toEqual([]);
  });

  test('every method form declared on LazyArray has a summary and an @example', () => {
    const text = read(join(SRC, 'array/methods.ts'));
    const open = text.indexOf('interface LazyArray');
    expect(open).toBeGreaterThan(0);
    const body = text.slice(text.indexOf('{', open) + 1, text.indexOf('\n  }\n', open));
    const members = [...body.matchAll(/^ {4}(?:readonly )?(\w+)[(:]/gm)];
    expect(members.map((m) => m[1])).toContain('compute');
    const offenders: string[] = [];
    for (const m of members) {
      const doc = docAbove(body, m.index);
      const summary = doc.replace(/^\/\*\*\s*\*?\s*/, '').trim();
      if (doc === '' || summary.startsWith('@') || !doc.includes('@example')) offenders.push(m[1]!);
    }
    expect(offenders, `LazyArray methods without a summary and @example: ${offenders}`).toEqual([]);
  });

  test('every mapped method form delegates to a documented public function', () => {
    const text = read(join(SRC, 'array/methods.ts'));
    const documented = new Set(
      callable
        .filter((e) => declarationDoc(e.file, e.local)?.includes('@example'))
        .map((e) => e.local),
    );
    const offenders: string[] = [];
    for (const table of ['methods', 'aliases']) {
      const start = text.indexOf(`const ${table} = {`);
      expect(start).toBeGreaterThan(0);
      const body = text.slice(text.indexOf('{', start) + 1, text.indexOf('}', start));
      for (const raw of body.split(',')) {
        const entry = raw.trim();
        if (entry === '') continue;
        const [key, target = key] = entry.split(/\s*:\s*/) as [string, string?];
        const fn = target.split('.').pop()!;
        if (!documented.has(fn)) offenders.push(`${key} → ${target}`);
      }
    }
    expect(offenders, `method forms without a documented function: ${offenders}`).toEqual([]);
  });

  test('src/array/method-docs.ts is up to date (each method form has its function doc)', () => {
    expect(read(join(SRC, 'array/method-docs.ts'))).toBe(methodDocs());
  });
});
