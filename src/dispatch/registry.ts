// The backend registry: validates a backend when it is registered (name, tessera versions,
// kernel names, priority cycles) and keeps the built-in order that selection starts from.

import { DirectedGraph } from 'graphology';
import { hasCycle } from 'graphology-dag';
import semver from 'semver';
import { ValueError } from '../errors.ts';
import { VERSION } from '../version.ts';
import type { Backend } from './types.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** Backends by name, with their priority order (highest first) derived from their relations. */
export class BackendRegistry {
  private readonly byName = new Map<string, Backend>();
  private order: Backend[] = [];
  /** Bumped on every change, so selection caches know when to rebuild. */
  version = 0;

  /**
   * @param knownOps the kernel and dispatchable names tessera knows (checked at registration)
   * @param tesseraVersion the running version, checked against each backend's `supports`
   */
  constructor(
    private readonly knownOps: () => ReadonlySet<string>,
    private readonly tesseraVersion: string = VERSION,
  ) {}

  /** Validate and add `b`; a ValueError names the backend and what is wrong. */
  register(b: Backend): void {
    const fn = 'registerBackend';
    if (b === null || typeof b !== 'object') {
      throw new ValueError(`${fn}: expected a backend object, got ${String(b)}`);
    }
    const label = JSON.stringify(b.name);
    if (typeof b.name !== 'string' || !NAME.test(b.name)) {
      throw new ValueError(
        `${fn}: backend name ${label} is not a name (letters, digits, '.', '_', '-', ':')`,
      );
    }
    if (this.byName.has(b.name))
      throw new ValueError(`${fn}: a backend named ${label} is already registered`);
    if (b.device !== 'cpu' && b.device !== 'gpu') {
      throw new ValueError(
        `${fn}: backend ${label} has device ${JSON.stringify(b.device)}; expected 'cpu' or 'gpu'`,
      );
    }
    this.checkVersion(b, label);
    this.checkKernels(b, label);
    this.byName.set(b.name, b);
    const cycle = this.findCycle();
    if (cycle !== undefined) {
      this.byName.delete(b.name);
      throw new ValueError(
        `${fn}: backend ${label} makes the priority relations a cycle (${cycle})`,
      );
    }
    this.order = this.sorted();
    this.version++;
  }

  /** Remove a backend (tests, or a backend that failed to load). */
  unregister(name: string): boolean {
    const had = this.byName.delete(name);
    if (had) {
      this.order = this.sorted();
      this.version++;
    }
    return had;
  }

  get(name: string): Backend | undefined {
    return this.byName.get(name);
  }

  /** Every backend, highest built-in priority first. */
  list(): readonly Backend[] {
    return this.order;
  }

  private checkVersion(b: Backend, label: string): void {
    const range = b.supports;
    if (typeof range !== 'string' || semver.validRange(range) === null) {
      throw new ValueError(
        `registerBackend: backend ${label} supports ${JSON.stringify(range)}, which is not a semver range`,
      );
    }
    if (!semver.satisfies(this.tesseraVersion, range, { includePrerelease: true })) {
      throw new ValueError(
        `registerBackend: backend ${label} supports tessera ${range}, but this is tessera ${this.tesseraVersion}`,
      );
    }
  }

  private checkKernels(b: Backend, label: string): void {
    if (!Array.isArray(b.kernels)) {
      throw new ValueError(
        `registerBackend: backend ${label} must list its kernels (an array of names)`,
      );
    }
    const known = this.knownOps();
    const unknown = b.kernels.filter((k) => typeof k !== 'string' || !known.has(k));
    if (unknown.length > 0) {
      throw new ValueError(
        `registerBackend: backend ${label} implements ${unknown.map((k) => JSON.stringify(k)).join(', ')}, ` +
          'which tessera does not know (a built-in kernel name or a dispatchable function)',
      );
    }
  }

  /** Edges higher → lower among registered backends. */
  private edges(): [string, string][] {
    const out: [string, string][] = [];
    for (const b of this.byName.values()) {
      for (const lower of b.higherPriorityThan ?? [])
        if (this.byName.has(lower)) out.push([b.name, lower]);
      for (const higher of b.lowerPriorityThan ?? [])
        if (this.byName.has(higher)) out.push([higher, b.name]);
    }
    return out;
  }

  private findCycle(): string | undefined {
    const g = new DirectedGraph();
    for (const name of this.byName.keys()) g.addNode(name);
    for (const [a, b] of this.edges()) g.mergeEdge(a, b);
    if (!hasCycle(g)) return undefined;
    return this.edges()
      .map(([a, b]) => `${a} > ${b}`)
      .join(', ');
  }

  /**
   * Registration order, with each declared relation moving the higher backend up to just
   * before the lower one (repeated until every relation holds: they form no cycle). So a
   * plugin takes over an operation only where it declares a higher priority (or is named by
   * a priority list or scope), never by being registered.
   */
  private sorted(): Backend[] {
    const order = [...this.byName.keys()];
    const edges = this.edges();
    for (let moved = true, rounds = 0; moved && rounds <= order.length * order.length; rounds++) {
      moved = false;
      for (const [hi, lo] of edges) {
        const i = order.indexOf(hi);
        const j = order.indexOf(lo);
        if (i > j) {
          order.splice(i, 1);
          order.splice(j, 0, hi);
          moved = true;
        }
      }
    }
    return order.map((n) => this.byName.get(n)!);
  }
}
