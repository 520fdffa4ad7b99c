// validate.mjs: Tint's verdict on emitted WGSL files, on Dawn's null backend (no GPU).
// usage: node validate.mjs FILE...
// Each file's header names the WebGPU features and limits it was made for (its regenerate
// command: --features, --wg-invocations, --wg-storage, --storage-textures). The module is
// compiled on a device with exactly those features, so an `enable` the command did not ask
// for fails; where the limits are WebGPU's defaults (all the null adapter offers) a compute
// pipeline is made from it too, which checks the workgroup size, workgroup storage and
// storage textures against those limits. Prints one line per file:
//   PASS FILE: what was checked        FAIL FILE: Tint's first message (LINE:COLUMN)
// and Tint's other messages as "#" lines; exits 1 if any file failed (warnings fail too:
// an emitted shader should compile cleanly), 2 if WebGPU is missing.
import { readFileSync } from 'node:fs';
import { compile, device, missing } from './webgpu.mjs';

if (missing) {
  console.error(`validate.mjs: ${missing}`);
  process.exit(2);
}

const DEFAULTS = { '--wg-invocations': 256, '--wg-storage': 16384, '--storage-textures': 4 };

// The regenerate command of a header as option -> value: the "    spdgen" line of its block
// comment and the lines its " \\" continues.
function command(text) {
  const all = text.split('\n');
  const first = all.findIndex((l) => l.startsWith('    spdgen '));
  if (first < 0) return {};
  const lines = [all[first]];
  for (let i = first + 1; i < all.length && all[i - 1].endsWith(' \\'); i++) lines.push(all[i]);
  const words = lines.map((l) => l.trim().replace(/ \\$/, '')).join(' ').split(/\s+/);
  const options = {};
  for (let i = 0; i < words.length; i++) {
    if (words[i].startsWith('--')) options[words[i]] = words[i + 1];
  }
  return options;
}

const devices = new Map();
async function deviceFor(features) {
  const key = features.join(',');
  if (!devices.has(key)) devices.set(key, (await device('null', features)).device);
  return devices.get(key);
}

let failed = 0;
for (const file of process.argv.slice(2)) {
  const code = readFileSync(file, 'utf8');
  const options = command(code);
  const features = !options['--features'] || options['--features'] === 'none' ? []
    : options['--features'].split(',');
  const dev = await deviceFor(features);
  const messages = await compile(dev, code);
  const limited = Object.entries(DEFAULTS).every(([k, v]) => Number(options[k] ?? v) === v);
  if (!messages.length && limited) {
    dev.pushErrorScope('validation');
    dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }) } });
    const error = await dev.popErrorScope();
    if (error) messages.push({ type: 'error', line: 0, column: 0, message: error.message });
  }
  const what = `module${limited ? ' and pipeline at the default limits' : ''}` +
    `${features.length ? `, features ${features.join(' ')}` : ''}`;
  if (messages.length) {
    failed++;
    const [m] = messages;
    console.log(`FAIL ${file}: ${m.type} at ${m.line}:${m.column}: ${m.message.split('\n')[0]}`);
    for (const n of messages) {
      for (const line of `${n.line}:${n.column}: ${n.type}: ${n.message}`.split('\n')) {
        console.log(`# ${line}`);
      }
    }
  } else {
    console.log(`PASS ${file}: ${what}`);
  }
}
for (const dev of devices.values()) dev.destroy();
process.exitCode = failed ? 1 : 0;
