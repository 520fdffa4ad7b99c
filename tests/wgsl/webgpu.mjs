// webgpu.mjs: the WebGPU implementation the WGSL tests use: Dawn's node bindings (the npm
// package `webgpu`, installed by scripts/install-deps.sh into .deps/npm). A device with
// the null backend compiles WGSL with Tint and runs nothing; a Vulkan one runs shaders on
// the Vulkan driver VK_DRIVER_FILES names (tests/wgsl/lavapipe.sh: a Mesa 25 lavapipe).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const packageDir = join(root, '.deps', 'npm', 'node_modules', 'webgpu');

// The package, or null with the reason in `missing`.
export let missing = null;
let webgpu = null;
if (existsSync(join(packageDir, 'package.json'))) {
  webgpu = await import(join(packageDir, 'index.js'));
  Object.assign(globalThis, webgpu.globals);
} else {
  missing = `${packageDir} is not installed (scripts/install-deps.sh)`;
}

// A device with `features` (the adapter's where it lacks some: the caller checks) and
// `limits` raised to what the test needs. backend: 'null' (Tint only) or 'vulkan'.
// The GPU objects made: Dawn processes their events from a timer, so one collected while
// its device lives is used after it is freed (a crash in CallbackTaskManager::Flush).
const instances = [];
export async function device(backend, features = [], limits = {}) {
  const gpu = webgpu.create(backend === 'null' ? ['backend=null'] : ['backend=vulkan']);
  instances.push(gpu);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error(`no WebGPU adapter (${backend})`);
  const requiredFeatures = features.filter((f) => adapter.features.has(f));
  const dev = await adapter.requestDevice({ requiredFeatures, requiredLimits: limits });
  return { adapter, device: dev, features: new Set(requiredFeatures) };
}

// Tint's messages for one module: [{ type, line, column, message }].
export async function compile(dev, code) {
  dev.pushErrorScope('validation');
  const module = dev.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  await dev.popErrorScope();
  return info.messages.map((m) => ({ type: m.type, line: m.lineNum, column: m.linePos, message: m.message }));
}
