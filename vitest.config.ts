import { defineConfig } from 'vitest/config';

// Files that read the environment at import or mock modules: each gets a fresh module graph.
const ISOLATED = [
  'test/dispatch/env.test.ts',
  'test/backends/webgpu/device.test.ts',
  'test/workers/distributed-trust.test.ts',
  'test/devices/devices-disabled.test.ts',
];
// Long stress runs (a 4 GiB GPU pipeline, kernels stuck past grace periods): `npm run
// test:stress`, which CI runs after `npm test`.
const STRESS = 'test/**/*.stress.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // most test time is waiting on worker threads, processes and Redis: two forks on two
    // cores (the default is cores - 1)
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...ISOLATED, STRESS],
          // one module graph per fork: src is transformed and imported once, not per file
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'stress', include: [STRESS] } },
    ],
  },
});
