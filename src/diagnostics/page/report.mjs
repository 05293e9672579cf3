// The profile report's page script: reads the profile embedded in the page (JSON) and draws its
// summary (and a failed compute's error), task stream, kernel table and memory. Inlined with
// draw.mjs; no network.

import { drawMemory, drawTimeline, fillKernelTable, formatBytes, formatMs } from './draw.mjs';

const profile = JSON.parse(document.getElementById('tessera-profile').textContent);
// the tasks come as columns: one object per task for drawing
const columns = profile.tasks;
const approx = new Set(columns.spanOnly);
const tasks = columns.key.map((key, i) => ({
  key,
  op: columns.op[i],
  kernel: columns.kernel[i],
  lane: columns.lane[i],
  start: columns.start[i],
  end: columns.end[i],
  bytesIn: columns.bytesIn[i],
  bytesOut: columns.bytesOut[i],
  device: columns.device[i],
  spanOnly: approx.has(i),
}));
const busy = tasks.reduce((s, t) => s + (t.end - t.start), 0);
const moved = tasks.reduce((s, t) => s + t.bytesOut, 0);
document.getElementById('summary').textContent =
  `${tasks.length} tasks on ${profile.lanes.length} workers (${profile.scheduler}, ` +
  `${profile.workers} at once) in ${formatMs(profile.durationMs)}; ` +
  `busy ${formatMs(busy)}, output ${formatBytes(moved)}`;
if (profile.error !== undefined) {
  // a failed compute: the tasks that ran before it failed, and why it failed
  const { name, message, key } = profile.error;
  const failed = document.createElement('p');
  failed.id = 'error';
  failed.className = 'error';
  failed.textContent = `failed: ${key ? `task ${key}: ` : ''}${name}: ${message}`;
  document.getElementById('summary').after(failed);
}
drawTimeline(document.getElementById('timeline'), profile.lanes, tasks);
fillKernelTable(document.querySelector('#kernels tbody'), tasks);
drawMemory(document.getElementById('memory'), profile.memory);
