// The profile report's page script: reads the profile embedded in the page (JSON) and draws its
// summary, task stream, kernel table and memory. Inlined with draw.mjs; no network.

import { drawMemory, drawTimeline, fillKernelTable, formatBytes, formatMs } from './draw.mjs';

const profile = JSON.parse(document.getElementById('tessera-profile').textContent);
const busy = profile.tasks.reduce((s, t) => s + (t.end - t.start), 0);
const moved = profile.tasks.reduce((s, t) => s + t.bytesOut, 0);
document.getElementById('summary').textContent =
  `${profile.tasks.length} tasks on ${profile.lanes.length} workers (${profile.scheduler}, ` +
  `${profile.workers} at once) in ${formatMs(profile.durationMs)}; ` +
  `busy ${formatMs(busy)}, output ${formatBytes(moved)}`;
drawTimeline(document.getElementById('timeline'), profile.lanes, profile.tasks);
fillKernelTable(document.querySelector('#kernels tbody'), profile.tasks);
drawMemory(document.getElementById('memory'), profile.memory);
