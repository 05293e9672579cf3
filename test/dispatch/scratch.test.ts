import { test } from 'vitest';
import * as t from '../../src/index.ts';
import { knownOperations } from '../../src/dispatch/default.ts';

test('probe', async () => {
  const x = t.fromArray([1, 2, 3, 4], { chunks: 2 });
  t.registerBackend({ name: 'p-a', device: 'cpu', kernels: ['ew'], supports: '*' });
  console.log('default', t.add(x, 1).layer.backend, t.listBackends().map((b) => b.name));
  t.registerBackend({ name: 'p-b', device: 'cpu', kernels: ['ew'], supports: '*', higherPriorityThan: ['cpu-js'] });
  console.log('higher', t.add(x, 1).layer.backend, t.listBackends().map((b) => b.name));
  const tr = t.withBackend({ trace: true }, () => t.add(x, 1));
  console.log(JSON.stringify(tr.decisions));
  t.resetConfig();
  t.configure({ backendPriority: [] });
  console.log('empty config', t.add(x, 1).layer.backend);
  t.resetConfig();
  const mod = new URL('../fixtures/backend-recording.ts', import.meta.url).href;
  t.registerBackend({ name: 'p-m', device: 'cpu', kernels: ['ew'], supports: '*', module: mod });
  const y = t.add(x, 1, { backend: 'p-m' });
  console.log((await t.compute(y, { scheduler: 'sync' })).toNested(), (globalThis as any).__tesseraRecordingBackend);
  console.log('known', [...knownOperations()].filter((k) => k.includes('/')));
  try { t.registerBackend({ name: 'p-n', device: 'cpu', kernels: ['p-m/ew'], supports: '*' }); console.log('registered p-n'); } catch (e) { console.log(String(e)); }
  try { t.sum(x, { backend: 'p-a' }); } catch (e) { console.log(String(e)); }
  try { t.add(x, 'a' as never, { backend: 'p-a' }); } catch (e) { console.log(String(e)); }
  try { t.sum(x, { axis: 5 }); } catch (e) { console.log(String(e)); }
  try { t.reshape(x, [3]); } catch (e) { console.log(String(e)); }
  try { t.matmul(t.ones([2,3]), t.ones([4,2])); } catch (e) { console.log(String(e)); }
  console.log(x.add(1, { backend: 'p-a' } as never).layer.backend);
  console.log(t.add(x,1,{backend:'p-a'}).visualize().slice(0, 600));
  console.log(t.dispatchStats());
});
