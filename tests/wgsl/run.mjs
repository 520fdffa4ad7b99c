// run.mjs: a WebGPU host for spdgen's WGSL shaders, binding the contract their headers
// state, as a web engine would (tests/wgsl/run.t runs it on Dawn; docs/wgsl.md explains it).
//   node run.mjs spd SHADER.wgsl WIDTH HEIGHT MIPS SOURCE OUT [LAYERS]
//     SOURCE: WIDTH x HEIGHT RGBA float32 texels (level 0) per slice (LAYERS with --array, 1
//     by default); OUT: levels 1..MIPS, each as RGBA float32 texels (channels the format
//     lacks: 0, alpha 1), slice after slice, one level after the other.
//   node run.mjs fft SHADER.wgsl N COUNT SOURCE OUT [TABLES]
//     SOURCE and OUT: COUNT FFTs' input and output as the contract lays them out (complex
//     rows, --real's real rows and half spectra, --stride's columns), packed, float32
//     (--storage f16: converted to and from halves);
//     TABLES: a Bluestein shader's chirp and spectrum (tests/wgsl/check.c fft-tables), or a
//     Rader shader's spectrum (fft-rader-table).
//   node run.mjs plan NAME.fftplan N COUNT SOURCE OUT
//     a four-step plan's passes in turn over COUNT rows of N complex values.
//   node run.mjs dmap SHADER.wgsl WIDTH HEIGHT PARAMS OUT
//     --dmap fdm|fsr with foveation alone, one view: PARAMS the uniform's uint32 words
//     (check.c dmap-params), OUT the map's texels as bytes (fdm: 2, fsr: 1 per texel).
// SPD: one texture holds the whole chain; every dispatch (pass) binds one level as
// src_level0 (group 0) and the next levels as dst_mips (group 1, one storage texture each),
// with the uniform params (group 0, binding 8); passes of --max-mips-per-pass levels follow
// each other in one compute pass (WebGPU orders a dispatch's storage writes before the next
// dispatch's reads). FFT: src, dst and params in group 0, as many workgroups as the
// contract's dispatch line says; the output starts as NaN, so a value never written shows.
// Exit 3: the adapter cannot run the shader (a feature, the subgroup size). With
// --unfenced-handoff (--tail loop) SPD binds its counter and level-6 buffers too (group 0,
// bindings 2 and 3). The backend: BACKEND=vulkan (default) or null.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { device, missing } from './webgpu.mjs';

if (missing) {
  console.error(`run.mjs: ${missing}`);
  process.exit(2);
}

// The regenerate command in the header: option -> value (validate.mjs reads it alike).
function command(code) {
  const all = code.split('\n');
  const first = all.findIndex((l) => l.startsWith('    spdgen '));
  const lines = [all[first]];
  for (let i = first + 1; i < all.length && all[i - 1].endsWith(' \\'); i++) lines.push(all[i]);
  const words = lines.map((l) => l.trim().replace(/ \\$/, '')).join(' ').split(/\s+/);
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

// LAYERS slices (--array: a 2D array texture, one dispatch for all slices) of WIDTH x HEIGHT.
async function spd(dev, code, width, height, mips, source, layers) {
  const options = command(code);
  const format = /texture_storage_2d(?:_array)?<(\w+), write>/.exec(code)[1];
  const f = FORMATS[format];
  const array = '--array' in options;
  const perPass = Number(options['--max-mips-per-pass']), tile = Number(options['--tile']);
  const levels = [];
  for (let k = 0; k <= mips; k++) levels.push([Math.max(1, width >> k), Math.max(1, height >> k)]);
  const texture = dev.createTexture({
    size: [width, height, layers], format, mipLevelCount: mips + 1,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING |
      GPUTextureUsage.COPY_SRC | GPUTextureUsage.COPY_DST,
  });
  // Level 0 as the format stores it (slice after slice); the others filled with the tests'
  // sentinel, so a texel the shader leaves unwritten shows.
  for (let k = 0; k <= mips; k++) {
    const [w, h] = levels[k];
    const rgba = k === 0 ? source : new Float32Array(w * h * 4 * layers).fill(-1234.5);
    dev.queue.writeTexture({ texture, mipLevel: k }, pack(format, rgba, w * h * layers),
      { bytesPerRow: w * f.bytes, rowsPerImage: h }, [w, h, layers]);
  }
  const module = dev.createShaderModule({ code });
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module } });
  const dimension = array ? '2d-array' : '2d';
  const view = (k) => texture.createView({ dimension, baseMipLevel: k, mipLevelCount: 1 });
  // Bindings a last, shorter pass leaves over still need a texture of the format, one each
  // (writable storage bindings of one dispatch must not alias).
  const spare = [];
  for (let i = 0; i < perPass; i++) {
    const t = dev.createTexture({ size: [1, 1, layers], format, usage: GPUTextureUsage.STORAGE_BINDING });
    spare.push(t.createView({ dimension }));
  }
  // --sampler linear: level 1 by bilinear fetches through a sampler of the contract's kind
  // (linear filtering, clamp to edge; WebGPU samplers take normalized coordinates).
  const sampler = /@binding\((\d+)\) var src_sampler: sampler;/.exec(code);
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
    if (sampler) {
      entries.push({
        binding: Number(sampler[1]),
        resource: dev.createSampler({ magFilter: 'linear', minFilter: 'linear' }),
      });
    }
    // --unfenced-handoff --tail loop: a counter per slice (zero at creation; the shader resets
    // it) and the level-6 hand-off, 16 bytes per 64x64 tile at most.
    if (/var<storage, read_write> counters:/.test(code)) {
      const usage = GPUBufferUsage.STORAGE;
      const tiles = Math.ceil(w / 64) * Math.ceil(h / 64) * layers;
      entries.push({ binding: 2, resource: { buffer: dev.createBuffer({ size: 16 * layers, usage }) } });
      entries.push({ binding: 3, resource: { buffer: dev.createBuffer({ size: 16 * tiles, usage }) } });
    }
    pass.setBindGroup(0, dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
    const dst = [];
    for (let i = 0; i < perPass; i++) {
      dst.push({ binding: i, resource: i < count ? view(base + 1 + i) : spare[i] });
    }
    pass.setBindGroup(1, dev.createBindGroup({ layout: pipeline.getBindGroupLayout(1), entries: dst }));
    pass.dispatchWorkgroups(Math.ceil(w / tile), Math.ceil(h / tile), layers);
  }
  pass.end();
  // Every level back (each level's slices one after the other), rows padded to 256 bytes as
  // copies want.
  const out = [];
  const reads = [];
  for (let k = 1; k <= mips; k++) {
    const [w, h] = levels[k];
    const row = Math.ceil((w * f.bytes) / 256) * 256;
    const buffer = dev.createBuffer({ size: row * h * layers, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    enc.copyTextureToBuffer({ texture, mipLevel: k }, { buffer, bytesPerRow: row, rowsPerImage: h },
      [w, h, layers]);
    reads.push({ buffer, row, w, h });
  }
  dev.queue.submit([enc.finish()]);
  for (const { buffer, row, w, h } of reads) {
    const bytes = new Uint8Array(await readBuffer(dev, buffer, row * h * layers));
    const tight = new Uint8Array(w * h * layers * f.bytes);
    for (let y = 0; y < h * layers; y++) {
      tight.set(bytes.subarray(y * row, y * row + w * f.bytes), y * w * f.bytes);
    }
    out.push(unpack(format, new f.type(tight.buffer), w * h * layers));
  }
  return out;
}

// The strides of packed data (spdrt_fft.h's layouts): rows of N complex values; --real
// forward: pairs of real rows of N samples in, half spectra of N/2 complex values out (the
// inverse the reverse); --stride: columns, element j of column c at c + j * count.
function fftStrides(options, n, count) {
  if ('--stride' in options) return [count, count];
  if ('--real' in options) return options['--direction'] === 'inverse' ? [n / 2, n] : [n, n / 2];
  return [n, n];
}

// FFTs per workgroup, as the contract's dispatch line states it: "dispatch ((count + C - 1)
// / C, 1, 1)", or one per workgroup.
function fftPerWorkgroup(code) {
  const m = /dispatch \(\(count \+ \d+\) \/ (\d+), 1, 1\)/.exec(code);
  return m ? Number(m[1]) : 1;
}

const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

// A storage buffer of `size` bytes holding `data`, or NaN where data is absent (so a value a
// shader never writes shows).
function storageBuffer(dev, size, data) {
  const buffer = dev.createBuffer({ size, usage: STORAGE });
  dev.queue.writeBuffer(buffer, 0, data ?? new Float32Array(size / 4).fill(NaN));
  return buffer;
}

// One FFT dispatch of `ffts` FFTs from src to dst with the given strides, recorded into pass;
// the twiddle table of --twiddles lut at 2, a Bluestein shader's tables (chirp then
// spectrum, as check.c fft-tables writes them) at 2 and 3, or a Rader shader's spectrum at 2.
function fftDispatch(dev, pass, code, src, dst, ffts, inStride, outStride, tables) {
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }) } });
  const params = dev.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  // params: count, in_stride, out_stride, unused.
  dev.queue.writeBuffer(params, 0, new Uint32Array([ffts, inStride, outStride, 0]));
  const entries = [{ binding: 0, resource: { buffer: src } }, { binding: 1, resource: { buffer: dst } },
    { binding: 8, resource: { buffer: params } }];
  // --twiddles lut: binding 2 holds exp(-2 pi i k / N), k < N/2, in double rounded to float
  // (as libspdrt fills it).
  if (/var<storage, read> twiddle_lut:/.test(code)) {
    const n = Number(/N = (\d+)/.exec(code)[1]);
    const lut = new Float32Array(n);
    for (let k = 0; k < n / 2; k++) {
      lut[2 * k] = Math.cos((2 * Math.PI * k) / n);
      lut[2 * k + 1] = -Math.sin((2 * Math.PI * k) / n);
    }
    entries.push({ binding: 2, resource: { buffer: storageBuffer(dev, lut.byteLength, lut) } });
  }
  // A Rader shader: its kernel spectrum alone at 2 (check.c fft-rader-table).
  if (/var<storage, read> spectrum:/.test(code) && !/var<storage, read> chirp:/.test(code)) {
    entries.push({ binding: 2, resource: { buffer: storageBuffer(dev, tables.byteLength, tables) } });
  }
  if (/var<storage, read> chirp:/.test(code)) {
    const n = Number(/N = (\d+)/.exec(code)[1]);
    const chirp = tables.subarray(0, 2 * n), spectrum = tables.subarray(2 * n);
    entries.push({ binding: 2, resource: { buffer: storageBuffer(dev, chirp.byteLength, chirp) } });
    entries.push({ binding: 3, resource: { buffer: storageBuffer(dev, spectrum.byteLength, spectrum) } });
  }
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
  pass.dispatchWorkgroups(Math.ceil(ffts / fftPerWorkgroup(code)));
}

// COUNT FFTs of one shader; the output has as many values as the input in every layout.
// --storage f16: the buffers hold IEEE halves (a complex value, or two real samples, per u32,
// the first in the low half), converted from and to the files' floats here; the output
// starts as half NaNs.
async function fft(dev, code, n, count, source, tables) {
  const [inStride, outStride] = fftStrides(command(code), n, count);
  const f16 = command(code)['--storage'] === 'f16';
  const data = f16 ? Uint16Array.from(source, toHalf) : source;
  const src = storageBuffer(dev, data.byteLength, data);
  const dst = storageBuffer(dev, data.byteLength, f16 ? new Uint16Array(source.length).fill(0x7e00) : null);
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  fftDispatch(dev, pass, code, src, dst, count, inStride, outStride, tables);
  pass.end();
  dev.queue.submit([enc.finish()]);
  const out = await readBuffer(dev, dst, data.byteLength);
  return [f16 ? Float32Array.from(new Uint16Array(out), fromHalf) : new Float32Array(out)];
}

// A four-step plan (its plan file, NAME.fftplan): each pass's shader in turn, as libspdrt's
// spdrt_fft_plan_run does: pass p runs COUNT x its FFTs per transform column FFTs, pass 1
// from the input rows into a scratch of N complex values per transform, the last from the
// scratch into the output rows; WebGPU orders one dispatch's writes before the next's reads.
async function plan(dev, file, n, count, source) {
  const passes = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('pass '))
    .map((l) => {
      const w = l.split(/\s+/);
      return { file: join(dirname(file), w[w.indexOf('file') + 1]), ffts: Number(w[w.indexOf('ffts') + 1]) };
    });
  const buffers = [storageBuffer(dev, source.byteLength, source)];
  for (let p = 0; p < passes.length; p++) buffers.push(storageBuffer(dev, n * count * 8));
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  passes.forEach((p, i) => {
    const code = readFileSync(p.file, 'utf8');
    fftDispatch(dev, pass, code, buffers[i], buffers[i + 1], count * p.ffts, i === 0 ? n : 0,
      i + 1 === passes.length ? n : 0);
  });
  pass.end();
  dev.queue.submit([enc.finish()]);
  return [new Float32Array(await readBuffer(dev, buffers[passes.length], n * count * 8))];
}

// The map formats of --dmap fdm and fsr: bytes per texel as WebGPU stores them, and the
// contract's bytes at the start of each (fdm: 2 density bytes, fsr: one byte); rgba8unorm
// and r32uint are the core formats run.t substitutes where the adapter lacks
// texture-formats-tier1 (little-endian: the contract's bytes come first).
const MAP_FORMATS = { rg8unorm: [2, 2], r8uint: [1, 1], rgba8unorm: [4, 2], r32uint: [4, 1] };

// --dmap fdm|fsr with foveation alone: WIDTH x HEIGHT pixels, one view, the uniform's words
// as check.c writes them; the map back as its bytes.
async function dmap(dev, code, width, height, words) {
  const format = /texture_storage_2d(?:_array)?<(\w+), write>/.exec(code)[1];
  const texel = Number(command(code)['--texel']);
  const [mw, mh] = [Math.ceil(width / texel), Math.ceil(height / texel)];
  const [bytes, kept] = MAP_FORMATS[format];
  const map = dev.createTexture({
    size: [mw, mh], format, usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC,
  });
  // The uniform: the words in the contract's order, padded to whole 16 bytes.
  const params = dev.createBuffer({
    size: Math.ceil(words.byteLength / 16) * 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  dev.queue.writeBuffer(params, 0, words);
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }) } });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, dev.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: map.createView() }, { binding: 8, resource: { buffer: params } }],
  }));
  // The contract's grid: "BWxBH map texels per workgroup".
  const [, bw, bh] = /(\d+)x(\d+) map texels per workgroup/.exec(code);
  pass.dispatchWorkgroups(Math.ceil(mw / Number(bw)), Math.ceil(mh / Number(bh)), 1);
  pass.end();
  const row = Math.ceil((mw * bytes) / 256) * 256;
  const buffer = dev.createBuffer({ size: row * mh, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  enc.copyTextureToBuffer({ texture: map }, { buffer, bytesPerRow: row, rowsPerImage: mh }, [mw, mh]);
  dev.queue.submit([enc.finish()]);
  const padded = new Uint8Array(await readBuffer(dev, buffer, row * mh));
  const out = new Uint8Array(mw * mh * kept);
  for (let i = 0; i < mw * mh; i++) {
    const at = Math.floor(i / mw) * row + (i % mw) * bytes;
    out.set(padded.subarray(at, at + kept), i * kept);
  }
  return [out];
}

const [kind, file, a, b, c, d, e] = process.argv.slice(2);
// A plan's options are its passes' (the plan file's regenerate command names the same).
const code = readFileSync(kind === 'plan' ? file.replace(/\.fftplan$/, '.pass1.wgsl') : file, 'utf8');
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
// A file's floats (a small file's Buffer is a view into a shared pool: copy its own bytes).
const floats = (path) => {
  const b = readFileSync(path);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
};
dev.pushErrorScope('validation');
let out, outFile;
if (kind === 'spd') {
  out = await spd(dev, code, Number(a), Number(b), Number(c), floats(d), Number(process.argv[9] ?? 1));
  outFile = e;
} else if (kind === 'dmap') {
  const w = readFileSync(c);
  out = await dmap(dev, code, Number(a), Number(b), new Uint32Array(w.buffer.slice(w.byteOffset, w.byteOffset + w.length)));
  outFile = d;
} else if (kind === 'plan') {
  out = await plan(dev, file, Number(a), Number(b), floats(c));
  outFile = d;
} else {
  out = await fft(dev, code, Number(a), Number(b), floats(c), e ? floats(e) : null);
  outFile = d;
}
const error = await dev.popErrorScope();
if (error) {
  console.error(`run.mjs: ${error.message}`);
  process.exit(1);
}
writeFileSync(outFile, Buffer.concat(out.map((x) => Buffer.from(x.buffer))));
dev.destroy();
