// Lists WebGPU adapters in a child process and prints them as one JSON line, so the main
// process can ask synchronously (graph building is synchronous) and a native crash here
// costs nothing. Run by probe.ts; plain JS so that it needs no loader.
const out = (v) => {
  process.stdout.write(`${JSON.stringify(v)}\n`);
  process.exit(0);
};
let dawn;
try {
  dawn = await import('webgpu');
} catch (e) {
  out({
    ok: false,
    reason: `the optional package 'webgpu' (dawn.node) did not load: ${e.message}`,
  });
}
// held in an object the code reads after every await (see NOTES: dawn.node's instance)
const held = { gpu: dawn.create([]) };
const adapter = await held.gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!held.gpu || adapter === null) {
  out({
    ok: false,
    reason:
      'Dawn found no WebGPU adapter (it looks for a Vulkan driver: a Vulkan ICD and libvulkan.so.1)',
  });
}
const info = adapter.info ?? {};
out({
  ok: true,
  adapters: [
    {
      description: info.description || info.device || 'unknown adapter',
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      f16: adapter.features.has('shader-f16'),
    },
  ],
});
