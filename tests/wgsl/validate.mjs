// validate.mjs: Tint's verdict on WGSL files. usage: node validate.mjs FILE...
// Prints FILE:LINE:COLUMN: TYPE: MESSAGE for every message; exits 1 if any is an error
// (warnings too: an emitted shader should compile cleanly), 2 if WebGPU is missing.
import { readFileSync } from 'node:fs';
import { compile, device, missing } from './webgpu.mjs';

if (missing) {
  console.error(`validate.mjs: ${missing}`);
  process.exit(2);
}
const { device: dev } = await device('null', ['subgroups', 'shader-f16', 'texture-formats-tier1']);
let bad = 0;
for (const file of process.argv.slice(2)) {
  for (const m of await compile(dev, readFileSync(file, 'utf8'))) {
    console.log(`${file}:${m.line}:${m.column}: ${m.type}: ${m.message}`);
    if (m.type !== 'info') bad++;
  }
}
dev.destroy();
process.exitCode = bad ? 1 : 0;
