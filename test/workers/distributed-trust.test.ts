// Who may run code on a `tessera worker`: the attacks a tester reproduced (a kernel by source,
// a data: module, a file:// module outside the roots, a hand-made BullMQ job, a bad signature)
// each leave no marker file behind, and the same job runs once the matching gate is opened,
// so each test can fail. Also: no secret, no start; the process pool's code policy.

import { createSecretKey, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import v8 from 'node:v8';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError, type TaskError } from '../../src/errors.ts';
import {
  compute,
  DistributedExecutor,
  type DistributedWorker,
  defineKernels,
  fromArray,
  mapBlocks,
  ndarray,
  ProcessPoolExecutor,
  startDistributedWorker,
} from '../../src/index.ts';
import { createCodePolicy } from '../../src/kernels/code-policy.ts';
import { signBatch, verifyBatch } from '../../src/workers/distributed-auth.ts';
import { encodeBlob } from '../../src/workers/distributed-wire.ts';
import { redisConnection } from '../../src/workers/redis-connection.ts';
import { cliWorker, redisUp, SECRET, url } from '../helpers/redis.ts';
import { rejection } from '../helpers/rejection.ts';

const up = await redisUp('distributed trust tests');
const T = 30_000;
const dir = mkdtempSync(join(tmpdir(), 'tessera-trust-'));
const marker = (): string => join(dir, `marker-${randomUUID()}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const x = fromArray(new Float64Array([1, 2, 3, 4]), { chunks: 2 });

/** A kernel by source that leaves a marker (and would spawn a shell just as easily). */
const bySource = (m: string) =>
  mapBlocks(
    (b: NDArray, k: { m: string }) => {
      const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
      fs.writeFileSync(k.m, fs.readFileSync('/etc/passwd', 'utf8').slice(0, 10));
      return b.data;
    },
    x,
    { dtype: 'float64', kwargs: { m } },
  );

/** A module that leaves a marker when it is imported: the import alone runs it. */
const markerModule = (m: string): string =>
  `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(m)}, 'imported');\n` +
  "export const kernels = 'none';\n";

const byModule = (moduleUrl: string) =>
  mapBlocks(defineKernels(moduleUrl, { evil: (b: NDArray) => b.data }).evil, x, {
    dtype: 'float64',
  });

describe.runIf(up)('worker code policy', () => {
  const queue = `trust-${randomUUID()}`;
  const openQueue = `trust-open-${randomUUID()}`;
  let strict: DistributedWorker;
  let open: DistributedWorker;
  let cluster: DistributedExecutor;
  let openCluster: DistributedExecutor;
  beforeAll(async () => {
    // strict: built-ins only; open: source kernels and modules under `dir` allowed
    strict = await startDistributedWorker({ redis: url, queue, workers: 1, secret: SECRET });
    open = await startDistributedWorker({
      redis: url,
      queue: openQueue,
      workers: 1,
      secret: SECRET,
      allowSource: true,
      kernels: [dir],
    });
    cluster = new DistributedExecutor({ redis: url, queue, secret: SECRET });
    openCluster = new DistributedExecutor({ redis: url, queue: openQueue, secret: SECRET });
  }, T);
  afterAll(async () => {
    await Promise.all([cluster?.shutdown(), openCluster?.shutdown()]);
    await Promise.all([strict?.close(), open?.close()]);
  });

  test(
    'built-in kernels run under the strictest policy',
    async () => {
      const got = await compute(x.mul(2).sum(), { scheduler: cluster });
      expect(got.data[0]).toBe(20);
    },
    T,
  );

  test(
    'a kernel by source is refused with TaskError naming the policy and --allow-source; nothing ran',
    async () => {
      const m = marker();
      const err = (await rejection(compute(bySource(m), { scheduler: cluster }))) as TaskError;
      expect(isTesseraError(err, 'TaskError')).toBe(true);
      expect(err.message).toMatch(/^compute: task /);
      expect(err.message).toContain('code policy');
      expect(err.message).toContain('--allow-source');
      expect(err.message).toContain('arbitrary code');
      expect(existsSync(m)).toBe(false);
      // the gate is the policy: the same kernel runs on the worker that allows source
      await compute(bySource(m), { scheduler: openCluster });
      expect(existsSync(m)).toBe(true);
    },
    T,
  );

  test(
    'a data: URL module is refused before it is imported, even with --allow-source',
    async () => {
      const m = marker();
      const dataUrl = `data:text/javascript,${encodeURIComponent(markerModule(m))}`;
      for (const scheduler of [cluster, openCluster]) {
        const err = (await rejection(compute(byModule(dataUrl), { scheduler }))) as TaskError;
        expect(isTesseraError(err, 'TaskError')).toBe(true);
        expect(err.message).toContain('code policy');
        expect(err.message).toContain('is not a file: URL');
        expect(err.message).toContain('--kernels');
      }
      expect(existsSync(m)).toBe(false);
    },
    T,
  );

  test(
    'a file:// module outside the roots is refused before import; inside a root it loads',
    async () => {
      const m = marker();
      const outside = mkdtempSync(join(tmpdir(), 'tessera-outside-'));
      try {
        const file = join(outside, 'evil.mjs');
        writeFileSync(file, markerModule(m));
        for (const scheduler of [cluster, openCluster]) {
          const err = (await rejection(
            compute(byModule(pathToFileURL(file).href), { scheduler }),
          )) as TaskError;
          expect(isTesseraError(err, 'TaskError')).toBe(true);
          expect(err.message).toContain("outside the worker's kernel roots");
          expect(err.message).toContain('--kernels <dir|package>');
        }
        expect(existsSync(m)).toBe(false);
        // a symlink inside a root that points outside counts as outside
        const { symlinkSync } = await import('node:fs');
        const link = join(dir, `link-${randomUUID()}.mjs`);
        symlinkSync(file, link);
        const viaLink = await rejection(
          compute(byModule(pathToFileURL(link).href), { scheduler: openCluster }),
        );
        expect(String(viaLink)).toContain("outside the worker's kernel roots");
        expect(existsSync(m)).toBe(false);
        // under the open worker's root the same module is imported (and fails its lookup)
        const inside = join(dir, `evil-${randomUUID()}.mjs`);
        writeFileSync(inside, markerModule(m));
        const lookup = await rejection(
          compute(byModule(pathToFileURL(inside).href), { scheduler: openCluster }),
        );
        expect(String(lookup)).toContain("no kernel 'evil'");
        expect(existsSync(m)).toBe(true);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    },
    T,
  );
});

/** A batch as a tessera client would write it, with a kernel by source that leaves `m`. */
function handMadeBatch(m: string, input: string): Buffer {
  const source = `(b, k) => { process.getBuiltinModule('node:fs').writeFileSync(k.m, 'ran'); return b.data; }`;
  const where = { chunkLocation: [0], arrayLocation: [[0, 2]], numChunks: [1], shape: [2] };
  return v8.serialize([
    {
      id: 0,
      key: 'evil-(0)',
      kernel: 'blockwise-fn',
      params: {
        fn: { kind: 'source', source, name: 'evil' },
        caller: 'mapBlocks',
        args: [{ block: 0 }],
        hasKwargs: true,
        kwargs: { m },
        blockInfo: { ...where, chunkShape: [2], dtype: 'float64', inputs: [where] },
        shape: [2],
        dtype: 'float64',
      },
      inputs: [input],
      output: true,
    },
  ]);
}

describe.runIf(up)('job signatures', () => {
  let redis: Redis;
  const spy = vi.spyOn(console, 'error');
  beforeAll(() => {
    redis = new Redis(redisConnection(url));
  });
  afterAll(() => redis.disconnect());
  afterEach(() => spy.mockClear());

  /** Add a hand-made job with plain BullMQ; resolves with its failure reason, or 'completed'. */
  async function addByHand(queue: string, m: string, sign?: string): Promise<string> {
    const batchKey = `tessera:hand-${randomUUID()}:b1`;
    const input = `${batchKey}.i0`;
    const blob = handMadeBatch(m, input);
    await redis.set(input, encodeBlob(ndarray(new Float64Array([1, 2]), [2])), 'PX', 60_000);
    await redis.set(batchKey, blob, 'PX', 60_000);
    const fields = {
      computeId: randomUUID(),
      batchKey,
      resultKeys: [`${batchKey}.r0`],
      ttlMs: 60_000,
      issuedAt: Date.now(),
    };
    const jobId = `hand-${randomUUID()}`;
    const sig =
      sign === undefined
        ? undefined
        : signBatch(createSecretKey(Buffer.from(sign)), { ...fields, jobId }, blob);
    const q = new Queue(queue, { connection: redisConnection(url) });
    const { QueueEvents } = await import('bullmq');
    const events = new QueueEvents(queue, { connection: redisConnection(url) });
    try {
      await events.waitUntilReady();
      const job = await q.add('batch', { ...fields, ...(sig ? { sig } : {}) }, { jobId });
      return await job.waitUntilFinished(events, 10_000).then(
        () => 'completed',
        (e: Error) => e.message,
      );
    } finally {
      await Promise.all([q.close(), events.close()]);
      await redis.del(batchKey, `${batchKey}.r0`, input);
    }
  }

  test(
    'a hand-made BullMQ job without a signature is dropped and reported once; nothing ran',
    async () => {
      const queue = `hand-${randomUUID()}`;
      const w = await startDistributedWorker({
        redis: url,
        queue,
        workers: 1,
        secret: SECRET,
        allowSource: true,
      });
      try {
        const m = marker();
        const reason = await addByHand(queue, m);
        expect(reason).toContain('tessera worker refused the job: missing signature');
        expect(existsSync(m)).toBe(false);
        const reports = spy.mock.calls.filter((c) => String(c[0]).includes('dropped job'));
        expect(reports).toHaveLength(1);
        expect(String(reports[0]![0])).toContain('missing signature');
        // signed with the shared secret, the very same job runs: the signature was the gate
        expect(await addByHand(queue, m, SECRET)).toBe('completed');
        expect(existsSync(m)).toBe(true);
      } finally {
        await w.close();
      }
    },
    T,
  );

  test(
    'a job signed with another secret is dropped; an insecure worker would have run it',
    async () => {
      const queue = `bad-${randomUUID()}`;
      const w = await startDistributedWorker({
        redis: url,
        queue,
        workers: 1,
        secret: SECRET,
        allowSource: true,
      });
      const m = marker();
      try {
        const reason = await addByHand(queue, m, 'another-secret-0123456789abcdef');
        expect(reason).toContain('refused the job: bad signature');
        expect(existsSync(m)).toBe(false);
        // a client with the wrong secret hears why
        const wrong = new DistributedExecutor({
          redis: url,
          queue,
          secret: 'another-secret-0123456789abcdef',
        });
        const err = await rejection(compute(x.sum(), { scheduler: wrong }));
        await wrong.shutdown();
        expect(isTesseraError(err, 'ValueError')).toBe(true);
        expect(String(err)).toContain("bad signature (the client's TESSERA_SECRET differs");
      } finally {
        await w.close();
      }
      const insecureQueue = `insecure-${randomUUID()}`;
      const loose = await startDistributedWorker({
        redis: url,
        queue: insecureQueue,
        workers: 1,
        insecure: true,
        allowSource: true,
      });
      try {
        expect(await addByHand(insecureQueue, m)).toBe('completed');
        expect(existsSync(m)).toBe(true);
      } finally {
        await loose.close();
      }
    },
    T,
  );
});

describe('no secret, no start', () => {
  const saved = { s: process.env.TESSERA_SECRET, f: process.env.TESSERA_SECRET_FILE };
  beforeAll(() => {
    delete process.env.TESSERA_SECRET;
    delete process.env.TESSERA_SECRET_FILE;
  });
  afterAll(() => {
    if (saved.s !== undefined) process.env.TESSERA_SECRET = saved.s;
    if (saved.f !== undefined) process.env.TESSERA_SECRET_FILE = saved.f;
  });

  test('DistributedExecutor and startDistributedWorker refuse, saying how to make a secret', async () => {
    let err: unknown;
    try {
      new DistributedExecutor({ redis: url });
    } catch (e) {
      err = e;
    }
    expect(isTesseraError(err, 'ValueError')).toBe(true);
    expect(String(err)).toContain('DistributedExecutor: no secret to sign jobs with');
    expect(String(err)).toContain('openssl rand -hex 32 > secret');
    expect(String(err)).toContain('{ insecure: true }');
    const werr = await rejection(startDistributedWorker({ redis: url }));
    expect(isTesseraError(werr, 'ValueError')).toBe(true);
    expect(String(werr)).toContain('tessera worker: no secret');
    expect(String(werr)).toContain('--insecure');
    const short = await rejection(startDistributedWorker({ redis: url, secret: 'short' }));
    expect(String(short)).toContain('fewer than 16');
    expect(String(short)).not.toContain("'short'");
    // insecure: told so, it starts
    const loose = new DistributedExecutor({ redis: url, insecure: true });
    await loose.shutdown();
  });

  test('the secret never shows: not in inspect(), not in a message', async () => {
    const cluster = new DistributedExecutor({ redis: 'redis://127.0.0.1:1', secret: SECRET });
    expect(inspect(cluster, { depth: 10, showHidden: true })).not.toContain(SECRET);
    const err = await rejection(compute(x.sum(), { scheduler: cluster }));
    expect(String(err)).not.toContain(SECRET);
    await cluster.shutdown();
  });

  test.runIf(up)(
    'tessera worker without a secret exits 1 with the how-to; --secret-file works',
    async () => {
      const queue = `nosecret-${randomUUID()}`;
      const failed = await rejection(cliWorker(queue, [], { TESSERA_SECRET: undefined }));
      expect(String(failed)).toContain('"code":1');
      expect(String(failed)).toContain('openssl rand -hex 32');
      const file = join(dir, 'secret');
      writeFileSync(file, `${SECRET}\n`);
      const w = await cliWorker(queue, ['--secret-file', file], { TESSERA_SECRET: undefined });
      const cluster = new DistributedExecutor({ redis: url, queue, secret: SECRET });
      try {
        expect((await compute(x.sum(), { scheduler: cluster })).data[0]).toBe(10);
      } finally {
        await cluster.shutdown();
        w.child.kill('SIGTERM');
        await w.exited;
      }
      expect(w.stderr()).not.toContain(SECRET);
    },
    T,
  );
});

describe('ProcessPoolExecutor codePolicy', () => {
  test(
    'a kernel by source is refused in the process before it compiles; without a policy it runs',
    async () => {
      const m = marker();
      const strict = new ProcessPoolExecutor({ workers: 1, codePolicy: createCodePolicy() });
      try {
        const err = (await rejection(compute(bySource(m), { scheduler: strict }))) as TaskError;
        expect(isTesseraError(err, 'TaskError')).toBe(true);
        expect(err.message).toContain('ProcessPoolExecutor: code policy');
        expect(err.message).toContain('allowSource: true');
        const dataUrl = `data:text/javascript,${encodeURIComponent(markerModule(m))}`;
        const derr = await rejection(compute(byModule(dataUrl), { scheduler: strict }));
        expect(String(derr)).toContain('is not a file: URL');
        expect(existsSync(m)).toBe(false);
        expect((await compute(x.sum(), { scheduler: strict })).data[0]).toBe(10);
      } finally {
        await strict.shutdown();
      }
      const plain = new ProcessPoolExecutor({ workers: 1 });
      try {
        await compute(bySource(m), { scheduler: plain });
        expect(existsSync(m)).toBe(true);
      } finally {
        await plain.shutdown();
      }
    },
    T,
  );
});

describe('signBatch / verifyBatch', () => {
  test('any change to the blob or the signed fields breaks the signature', () => {
    const key = createSecretKey(Buffer.from(SECRET));
    const fields = {
      computeId: 'c',
      jobId: 'j',
      batchKey: 'b',
      resultKeys: ['r0', 'r1'],
      ttlMs: 1000,
      issuedAt: 5,
    };
    const blob = Buffer.from('batch bytes');
    const sig = signBatch(key, fields, blob);
    expect(verifyBatch(key, fields, blob, sig)).toBe(true);
    expect(verifyBatch(key, fields, Buffer.from('batch bytez'), sig)).toBe(false);
    expect(verifyBatch(key, { ...fields, resultKeys: ['r0', 'elsewhere'] }, blob, sig)).toBe(false);
    expect(verifyBatch(key, { ...fields, jobId: 'j2' }, blob, sig)).toBe(false);
    expect(verifyBatch(key, { ...fields, ttlMs: 10 ** 9 }, blob, sig)).toBe(false);
    expect(verifyBatch(createSecretKey(Buffer.from(`${SECRET}x`)), fields, blob, sig)).toBe(false);
    expect(verifyBatch(key, fields, blob, sig.slice(0, 63))).toBe(false);
    expect(verifyBatch(key, fields, blob, undefined)).toBe(false);
  });
});
