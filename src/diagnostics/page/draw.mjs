// Browser drawing shared by the profile report and the dashboard (inlined into their pages):
// the task stream (one lane per worker, one bar per task), memory over time, the kernel table.

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Above this many tasks the timeline is drawn on a canvas: SVG nodes would be too many. */
const MAX_SVG_BARS = 20000;

function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** A stable colour per kernel name. */
export function kernelColor(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return `hsl(${h % 360}, 62%, 52%)`;
}

export function formatBytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${n.toFixed(u === 0 ? 0 : 1)} ${units[u]}`;
}

export function formatMs(ms) {
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * Draw `tasks` in `container`: a row per lane, a bar per task from start to end (ms), from the
 * first task's start to the last one's end. SVG bars carry class "task" and a tooltip; many
 * tasks go on a canvas instead.
 */
export function drawTimeline(container, lanes, tasks) {
  container.textContent = '';
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const t of tasks) {
    if (t.start < first) first = t.start;
    if (t.end > last) last = t.end;
  }
  if (tasks.length === 0) first = 0;
  const span = last - first;
  const width = 1000;
  const label = 120;
  const row = 22;
  const height = Math.max(1, lanes.length) * row + 20;
  const scale = (width - label - 10) / Math.max(span, 1e-3);
  if (tasks.length > MAX_SVG_BARS) {
    drawTimelineCanvas(container, lanes, tasks, { width, label, row, height, scale, first });
    return;
  }
  const svg = svgEl('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'timeline',
    role: 'img',
    'aria-label': 'task stream',
  });
  const rows = lanes.map((name, i) => {
    const g = svgEl('g', { class: 'lane', 'data-lane': name }, svg);
    svgEl(
      'rect',
      { x: label, y: i * row, width: width - label, height: row - 2, class: 'lane-bg' },
      g,
    );
    const text = svgEl('text', { x: 4, y: i * row + row * 0.68, class: 'lane-label' }, g);
    text.textContent = name;
    return g;
  });
  for (const t of tasks) {
    const g = rows[t.lane];
    if (g === undefined) continue;
    const bar = svgEl(
      'rect',
      {
        class: t.spanOnly ? 'task span-only' : 'task',
        x: (label + (t.start - first) * scale).toFixed(2),
        y: t.lane * row + 2,
        width: Math.max(0.6, (t.end - t.start) * scale).toFixed(2),
        height: row - 6,
        fill: kernelColor(t.op),
        'data-key': t.key,
      },
      g,
    );
    const tip = svgEl('title', {}, bar);
    tip.textContent = `${t.key}\n${t.op} (${t.kernel}) on ${t.device}: ${formatMs(t.end - t.start)}, in ${formatBytes(t.bytesIn)}, out ${formatBytes(t.bytesOut)}`;
  }
  const axis = svgEl(
    'text',
    { x: width - 4, y: height - 4, class: 'axis', 'text-anchor': 'end' },
    svg,
  );
  axis.textContent = `${formatMs(span)} from the first task, at +${formatMs(first)}`;
  container.appendChild(svg);
}

function drawTimelineCanvas(container, lanes, tasks, g) {
  const canvas = document.createElement('canvas');
  canvas.width = g.width;
  canvas.height = g.height;
  canvas.className = 'timeline';
  const ctx = canvas.getContext('2d');
  ctx.font = '12px sans-serif';
  lanes.forEach((name, i) => {
    ctx.fillStyle = '#f1f3f5';
    ctx.fillRect(g.label, i * g.row, g.width - g.label, g.row - 2);
    ctx.fillStyle = '#333';
    ctx.fillText(name, 4, i * g.row + g.row * 0.68);
  });
  for (const t of tasks) {
    ctx.fillStyle = kernelColor(t.op);
    ctx.fillRect(
      g.label + (t.start - g.first) * g.scale,
      t.lane * g.row + 2,
      Math.max(0.6, (t.end - t.start) * g.scale),
      g.row - 6,
    );
  }
  container.appendChild(canvas);
  const note = document.createElement('p');
  note.textContent = `${tasks.length} tasks, drawn on a canvas`;
  container.appendChild(note);
}

/**
 * Lines over time, each scaled to its own peak: resident memory, live chunk bytes, and the
 * worker processes' memory when they told it ('processes', 'distributed').
 */
export function drawMemory(container, samples) {
  container.textContent = '';
  const width = 1000;
  const height = 160;
  const svg = svgEl('svg', { viewBox: `0 0 ${width} ${height}`, class: 'memory' });
  const tMax = Math.max(1e-3, ...samples.map((s) => s.t));
  const series = [
    ['rss', 'host memory (rss)', '#1c7ed6'],
    ['liveBytes', 'live chunk bytes', '#e8590c'],
  ];
  if (samples.some((s) => s.workersRss !== undefined)) {
    series.push(['workersRss', 'worker processes (rss)', '#2f9e44']);
  }
  series.forEach(([field, name, color], k) => {
    const told = samples.filter((s) => s[field] !== undefined);
    const peak = Math.max(1, ...told.map((s) => s[field]));
    const points = told
      .map(
        (s) =>
          `${((s.t / tMax) * (width - 10) + 5).toFixed(1)},${(height - 25 - (s[field] / peak) * (height - 45)).toFixed(1)}`,
      )
      .join(' ');
    svgEl(
      'polyline',
      { points, fill: 'none', stroke: color, 'stroke-width': 2, class: `series-${field}` },
      svg,
    );
    const text = svgEl(
      'text',
      { x: 8 + k * 330, y: height - 6, fill: color, class: 'legend' },
      svg,
    );
    text.textContent = `${name}: peak ${formatBytes(peak)}`;
  });
  container.appendChild(svg);
}

/** Per kernel (an operation's, with the kernel's own name when it differs): count, total and
 * mean time, bytes in and out; busiest first. */
function kernelRows(tasks) {
  const by = new Map();
  for (const t of tasks) {
    const name = t.op === t.kernel ? t.kernel : `${t.op} (${t.kernel})`;
    let r = by.get(name);
    if (r === undefined) {
      r = { name, op: t.op, count: 0, total: 0, bytesIn: 0, bytesOut: 0 };
      by.set(name, r);
    }
    r.count++;
    r.total += t.end - t.start;
    r.bytesIn += t.bytesIn;
    r.bytesOut += t.bytesOut;
  }
  return [...by.values()].sort((a, b) => b.total - a.total);
}

export function fillKernelTable(tbody, tasks) {
  tbody.textContent = '';
  for (const r of kernelRows(tasks)) {
    const tr = document.createElement('tr');
    const cells = [
      r.name,
      String(r.count),
      formatMs(r.total),
      formatMs(r.total / r.count),
      formatBytes(r.bytesIn),
      formatBytes(r.bytesOut),
    ];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.appendChild(td);
    }
    tr.firstChild.style.borderLeft = `6px solid ${kernelColor(r.op)}`;
    tbody.appendChild(tr);
  }
}
