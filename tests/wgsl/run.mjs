// run.mjs: a WebGPU host for spdgen's WGSL shaders, binding the contract their headers
// state, as a web engine would (tests/wgsl/run.t runs it on Dawn; docs/wgsl.md explains it).
//   node run.mjs spd SHADER.wgsl WIDTH HEIGHT MIPS SOURCE OUT
//     SOURCE: WIDTH x HEIGHT RGBA float32 texels (level 0); OUT: levels 1..MIPS, each as RGBA
//     float32 texels (channels the format lacks: 0, alpha 1), one after the other.
//   node run.mjs fft SHADER.wgsl N COUNT SOURCE OUT
//     SOURCE and OUT: COUNT rows of N complex values (float32 pairs).
// SPD: one texture holds the whole chain; every dispatch (pass) binds one level as
// src_level0 (group 0) and the next levels as dst_mips (group 1, one storage texture each),
// with the uniform params (group 0, binding 8); passes of --max-mips-per-pass levels follow
// each other in one compute pass (WebGPU orders a dispatch's storage writes before the next
// dispatch's reads). FFT: src, dst and params in group 0, (count + R - 1) / R workgroups for
// R rows per workgroup. Exit 3: the adapter cannot run the shader (a feature, the subgroup
// size). With --unfenced-handoff (--tail loop) SPD binds its counter and
// level-6 buffers too (group 0, bindings 2 and 3). The backend: BACKEND=vulkan (default) or null.
import { readFileSync, writeFileSync } from 'node:fs';
import { device, missing } from './webgpu.mjs';

if (missing) {
  console.error(`run.mjs: ${missing}`);
  process.exit(2);
}

// The regenerate command in the header: option -> value (validate.mjs reads it alike).
function command(code) {
  const all = code.split('\n');
  const first = all.findIndex((l) => l.startsWith('//   spdgen '));
  const lines = [all[first]];
  for (let i = first + 1; i < all.length && /^\/\/ {5,}--/.test(all[i]); i++) lines.push(all[i]);
  const words = lines.map((l) => l.replace(/^\/\/ +/, '').replace(/ \\$/, '')).join(' ').split(/\s+/);
  const options = {};
  words.forEach((w, i) => { if (w.startsWith('--')) options[w] = words[i + 1]; });
  return options;
}

// float32 -> IEEE half bits, rounding to nearest even (what a GPU upload of rgba16f does).
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function toHalf(v) {
  f32[0] = v;
  const x = u32[0], sign = (x >>> 16) & 0x8000, e = (x >>> 23) & 0xff, m = x & 0x7fffff;
  if (e === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  let exp = e - 127 + 15;
  if (exp >= 0x1f) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const mm = m | 0x800000, shift = 14 - exp;
    let h = mm >>> shift;
    const rest = mm & ((1 << shift) - 1), half = 1 << (shift - 1);
    if (rest > half || (rest === half && (h & 1))) h++;
    return sign | h;
  }
  let h = (exp << 10) | (m >>> 13);
  const rest = m & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h++;
  return sign | h;
}
function fromHalf(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >>> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

// The storage formats the WGSL SPD uses: bytes per texel, channels, and the conversions
// from and to RGBA floats (the runtime's, runtime/core/format.c).
const FORMATS = {
  rgba32float: { bytes: 16, channels: 4, type: Float32Array },
  rg32float: { bytes: 8, channels: 2, type: Float32Array },
  r32float: { bytes: 4, channels: 1, type: Float32Array },
  r32uint: { bytes: 4, channels: 1, type: Uint32Array },
  rgba16float: { bytes: 8, channels: 4, type: Uint16Array, put: toHalf, get: fromHalf },
  rg16float: { bytes: 4, channels: 2, type: Uint16Array, put: toHalf, get: fromHalf },
  r16float: { bytes: 2, channels: 1, type: Uint16Array, put: toHalf, get: fromHalf },
  rgba8unorm: {
    bytes: 4, channels: 4, type: Uint8Array,
    put: (v) => Math.round(Math.min(Math.max(v, 0), 1) * 255), get: (b) => b / 255,
  },
};

function pack(format, rgba, texels) {
  const f = FORMATS[format], out = new f.type(texels * f.channels);
  for (let i = 0; i < texels; i++) {
    for (let c = 0; c < f.channels; c++) {
      const v = rgba[i * 4 + c];
      out[i * f.channels + c] = f.put ? f.put(v) : v;
    }
  }
  return out;
}

function unpack(format, data, texels) {
  const f = FORMATS[format], out = new Float32Array(texels * 4);
  for (let i = 0; i < texels; i++) {
    out[i * 4 + 3] = 1;
    for (let c = 0; c < f.channels; c++) {
      const v = data[i * f.channels + c];
      out[i * 4 + c] = f.get ? f.get(v) : v;
    }
  }
  return out;
}

async function readBuffer(dev, buffer, size) {
  const staging = dev.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = dev.createCommandEncoder();
  enc.copyBufferToBuffer(buffer, 0, staging, 0, size);
  dev.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const copy = staging.getMappedRange().slice(0);
  staging.destroy();
  return copy;
}

async function spd(dev, code, width, height, mips, source) {
  const options = command(code);
  const format = /texture_storage_2d<(\w+), write>/.exec(code)[1];
  const f = FORMATS[format];
  const perPass = Number(options['--max-mips-per-pass']), tile = Number(options['--tile']);
  const levels = [];
  for (let k = 0; k <= mips; k++) levels.push([Math.max(1, width >> k), Math.max(1, height >> k)]);
  const texture = dev.createTexture({
    size: [width, height], format, mipLevelCount: mips + 1,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING |
      GPUTextureUsage.COPY_SRC | GPUTextureUsage.COPY_DST,
  });
  // Level 0 as the format stores it; the others filled with the tests' sentinel, so a texel
  // the shader leaves unwritten shows.
  for (let k = 0; k <= mips; k++) {
    const [w, h] = levels[k];
    const rgba = k === 0 ? source : new Float32Array(w * h * 4).fill(-1234.5);
    dev.queue.writeTexture({ texture, mipLevel: k }, pack(format, rgba, w * h),
      { bytesPerRow: w * f.bytes, rowsPerImage: h }, [w, h]);
  }
  const module = dev.createShaderModule({ code });
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module } });
  const view = (k) => texture.createView({ baseMipLevel: k, mipLevelCount: 1 });
  // Bindings a last, shorter pass leaves over still need a texture of the format, one each
  // (writable storage bindings of one dispatch must not alias).
  const spare = [];
  for (let i = 0; i < perPass; i++) {
    spare.push(dev.createTexture({ size: [1, 1], format, usage: GPUTextureUsage.STORAGE_BINDING }));
  }
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  for (let base = 0; base < mips; base += perPass) {
    const count = Math.min(perPass, mips - base);
    const [w, h] = levels[base];
    // params: src_size, mip_count, tile_count (0: all), tile_offset, tiles_per_workgroup (1),
    // unused.
    const params = dev.createBuffer({ size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    dev.queue.writeBuffer(params, 0, new Uint32Array([w, h, count, 0, 0, 0, 1, 0]));
    const entries = [{ binding: 0, resource: view(base) }, { binding: 8, resource: { buffer: params } }];
    // --unfenced-handoff --tail loop: a counter per slice (zero at creation; the shader resets
    // it) and the level-6 hand-off, 16 bytes per 64x64 tile at most.
    if (/var<storage, read_write> counters:/.test(code)) {
      const usage = GPUBufferUsage.STORAGE;
      const tiles = Math.ceil(w / 64) * Math.ceil(h / 64);
      entries.push({ binding: 2, resource: { buffer: dev.createBuffer({ size: 16, usage }) } });
      entries.push({ binding: 3, resource: { buffer: dev.createBuffer({ size: 16 * tiles, usage }) } });
    }
    pass.setBindGroup(0, dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
    const dst = [];
    for (let i = 0; i < perPass; i++) {
      dst.push({ binding: i, resource: i < count ? view(base + 1 + i) : spare[i].createView() });
    }
    pass.setBindGroup(1, dev.createBindGroup({ layout: pipeline.getBindGroupLayout(1), entries: dst }));
    pass.dispatchWorkgroups(Math.ceil(w / tile), Math.ceil(h / tile), 1);
  }
  pass.end();
  // Every level back, rows padded to 256 bytes as copies want.
  const out = [];
  const reads = [];
  for (let k = 1; k <= mips; k++) {
    const [w, h] = levels[k];
    const row = Math.ceil((w * f.bytes) / 256) * 256;
    const buffer = dev.createBuffer({ size: row * h, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    enc.copyTextureToBuffer({ texture, mipLevel: k }, { buffer, bytesPerRow: row, rowsPerImage: h }, [w, h]);
    reads.push({ buffer, row, w, h });
  }
  dev.queue.submit([enc.finish()]);
  for (const { buffer, row, w, h } of reads) {
    const bytes = new Uint8Array(await readBuffer(dev, buffer, row * h));
    const tight = new Uint8Array(w * h * f.bytes);
    for (let y = 0; y < h; y++) tight.set(bytes.subarray(y * row, y * row + w * f.bytes), y * w * f.bytes);
    out.push(unpack(format, new f.type(tight.buffer), w * h));
  }
  return out;
}

async function fft(dev, code, n, count, source) {
  const options = command(code);
  const rows = Number(options['--rows-per-wg'] ?? 1);
  const size = n * count * 8;
  const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const src = dev.createBuffer({ size, usage: storage });
  const dst = dev.createBuffer({ size, usage: storage });
  const params = dev.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  dev.queue.writeBuffer(src, 0, source);
  // params: count, in_stride, out_stride (rows of N), unused.
  dev.queue.writeBuffer(params, 0, new Uint32Array([count, n, n, 0]));
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }) } });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, dev.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: src } }, { binding: 1, resource: { buffer: dst } },
      { binding: 8, resource: { buffer: params } }],
  }));
  pass.dispatchWorkgroups(Math.ceil(count / rows));
  pass.end();
  dev.queue.submit([enc.finish()]);
  return [new Float32Array(await readBuffer(dev, dst, size))];
}

const [kind, file, a, b, c, d, e] = process.argv.slice(2);
const code = readFileSync(file, 'utf8');
const options = command(code);
const features = !options['--features'] || options['--features'] === 'none' ? []
  : options['--features'].split(',');
const limits = {};
if (options['--storage-textures'] !== '4') limits.maxStorageTexturesPerShaderStage = Number(options['--storage-textures']);
if (options['--wg-storage'] !== '16384') limits.maxComputeWorkgroupStorageSize = Number(options['--wg-storage']);
const { adapter, device: dev, features: got } = await device(process.env.BACKEND || 'vulkan', features, limits);
const lacking = features.filter((x) => !got.has(x));
if (lacking.length) {
  console.error(`run.mjs: the adapter lacks ${lacking.join(' ')}`);
  process.exit(3);
}
// Shuffles over --subgroup S lanes: WebGPU cannot ask for a subgroup size, so check it (the
// header's requirement).
const subgroup = Number(options['--subgroup'] ?? 0);
if (subgroup >= 8 && !(adapter.info.subgroupMinSize >= subgroup)) {
  console.error(`run.mjs: subgroups of ${adapter.info.subgroupMinSize} here, the shader needs ${subgroup}`);
  process.exit(3);
}
dev.pushErrorScope('validation');
const out = kind === 'spd'
  ? await spd(dev, code, Number(a), Number(b), Number(c), new Float32Array(readFileSync(d).buffer.slice(0)))
  : await fft(dev, code, Number(a), Number(b), new Float32Array(readFileSync(c).buffer.slice(0)));
const error = await dev.popErrorScope();
if (error) {
  console.error(`run.mjs: ${error.message}`);
  process.exit(1);
}
writeFileSync(kind === 'spd' ? e : d, Buffer.concat(out.map((x) => Buffer.from(x.buffer))));
dev.destroy();
