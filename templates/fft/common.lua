-- common.lua: what both FFT paths write alike, powers of two (kernel.lua) and mixed radix or
-- Bluestein (mixed.lua, mixed_contract.lua, mixed_io.lua): written once so that the two
-- paths, whose contracts hosts and libspdrt treat as one (docs/fft.md), cannot drift apart.
-- The shared-memory budget, the output scale, each buffer's storage and element type, how
-- one complex element is read and written, the contract's buffers, values and push
-- constants, the declarations, the opening comment's common lines and the file's order.
local emit = require("templates.lib.emit")
local interface = require("templates.lib.interface")
local twiddle = require("templates.fft.twiddle")

local common = {}

-- ---- sizes and scale --------------------------------------------------------------------

-- Shared memory one exchange round may use: 32 KB, what Metal guarantees and the least the
-- Vulkan devices in use offer, so one plan runs everywhere; less where the target sets a
-- limit (cfg.wg_storage: WebGPU's 16 KB by default). One slot is one complex value, stored
-- as two floats in separate arrays (fft_re, fft_im) or one float2 (fft_c).
common.SHARED_BUDGET_BYTES = 32768
common.SLOT_BYTES = 8

function common.budget_slots(cfg)
    return math.min(cfg.wg_storage or common.SHARED_BUDGET_BYTES, common.SHARED_BUDGET_BYTES) // common.SLOT_BYTES
end

-- The output scale: of the whole transform (Bluestein's plan: of its N, not its M), applied
-- by its last (or only) pass.
function common.scale_of(f)
    if f.pass and f.pass.index < f.pass.count then return 1 end
    local n = f.pass and (f.pass.bluestein_n or f.pass.n_total) or f.n
    if f.norm == "unitary" then return 1 / math.sqrt(n) end
    if f.norm == "inverse" and f.direction == "inverse" then return 1 / n end
    return 1
end

-- ---- buffers ----------------------------------------------------------------------------

-- Storage and element type per binding (ctx.src_storage, ctx.dst_storage, ctx.elements): a
-- multi-pass plan keeps fp32 between its passes; real rows are floats (halves: two per uint).
function common.set_storage(ctx)
    local f = ctx.f
    ctx.src_storage, ctx.dst_storage = f.storage, f.storage
    if f.pass then
        if f.pass.index > 1 then ctx.src_storage = "f32" end
        if f.pass.index < f.pass.count then ctx.dst_storage = "f32" end
    end
    local function element(storage, real) return storage == "f16" and "uint" or real and "float" or "float2" end
    ctx.elements = {
        src = element(ctx.src_storage, f.real and ctx.forward),
        dst = element(ctx.dst_storage, f.real and not ctx.forward),
    }
end

-- Bytes of one element of the input and the output buffer.
function common.element_bytes(ctx)
    return { src = ctx.elements.src == "float2" and 8 or 4, dst = ctx.elements.dst == "float2" and 8 or 4 }
end

-- Complex element `index` of src, and the statement storing value v as element `index` of dst
-- (f16: a uint of two IEEE halves).
function common.load_complex(ctx, index)
    if ctx.src_storage == "f16" then return ctx.dialect.unpack_half2("src[" .. index .. "]") end
    return "src[" .. index .. "]"
end

function common.store_complex(ctx, index, v)
    if ctx.dst_storage == "f16" then return string.format("dst[%s] = %s;", index, ctx.dialect.pack_half2(v)) end
    return string.format("dst[%s] = %s;", index, v)
end

-- Value expression v times the norm's scale (none when it is 1).
function common.scaled(ctx, v)
    if ctx.scale == 1 then return v end
    return string.format("%s * %s", v, twiddle.literal(ctx.scale))
end

-- ---- the contract -----------------------------------------------------------------------

local function complex_of(storage)
    return storage == "f16" and "complex values, each a uint of two IEEE halves (x low, y high)"
        or "complex values, each a float2 (x real, y imaginary)"
end
common.complex_of = complex_of

-- What the input and the output buffer hold, in words (the header comment and the C header),
-- for real rows, a four-step pass, columns and rows; Bluestein's passes say their own.
function common.describe_buffers(ctx)
    local f, n = ctx.f, ctx.f.n
    local real = f.storage == "f16" and "real samples, IEEE halves two per uint (even j in the low half)"
        or "real samples, each a float"
    if f.real and ctx.forward then
        return string.format("real rows of %d %s; FFT b reads rows 2b and 2b+1 (x and y), row r at " ..
            "r * in_stride", n, real), string.format("half spectra, %d %s per row: row 2b = X[0..%d), " ..
            "row 2b+1 = Y[0..%d); element 0 packs (X[0], X[%d]) (both real), row r at r * out_stride",
            n // 2, complex_of(f.storage), n // 2, n // 2, n // 2)
    elseif f.real then
        return string.format("half spectra, %d %s per row: rows 2b and 2b+1 = X and Y of FFT b, element " ..
            "0 packing (X[0], X[%d]); row r at r * in_stride", n // 2, complex_of(f.storage), n // 2),
            string.format("real rows of %d %s: rows 2b and 2b+1 = x and y; row r at r * out_stride", n, real)
    elseif f.pass then
        local p, cols = f.pass, f.pass.n_total // f.n
        if p.index == 1 then
            return string.format("%s; the transforms' rows of %d, row b at b * in_stride, each read as a " ..
                "%d x %d matrix: this pass's FFT c is column c mod %d of row c / %d (element j at j * %d)",
                complex_of(ctx.src_storage), p.n_total, f.n, cols, cols, cols, cols),
                string.format("%s; scratch, %d per transform: FFT c writes its output times exp(%s2 pi i " ..
                "(c mod %d) k / %d) as the contiguous row at c * %d", complex_of(ctx.dst_storage), p.n_total,
                ctx.forward and "-" or "+", cols, p.n_total, f.n)
        end
        return string.format("%s; the scratch of pass 1: %d per transform, FFT c is column c mod %d of " ..
            "transform c / %d (element j at j * %d)", complex_of(ctx.src_storage), p.n_total, cols, cols, cols),
            string.format("%s; the result in natural order, transform b at b * out_stride: output k of FFT c " ..
            "is frequency (c mod %d) + %d k", complex_of(ctx.dst_storage), cols, cols)
    elseif f.strided then
        return string.format("%s; FFT c is column c: element j at c + j * in_stride", complex_of(f.storage)),
            string.format("%s; element j of column c at c + j * out_stride", complex_of(f.storage))
    end
    return string.format("%s; FFT b is row b: element j at b * in_stride + j", complex_of(f.storage)),
        string.format("%s; element j of row b at b * out_stride + j", complex_of(f.storage))
end

-- Bindings 0 and 1 of the contract, the input and the output, described by src and dst.
function common.buffer_bindings(src, dst)
    return {
        { binding = 0, macro = "SRC", name = "src", kind = "storage buffer", doc = "input, read-only: " .. src },
        { binding = 1, macro = "DST", name = "dst", kind = "storage buffer", doc = "output, write-only: " .. dst },
    }
end

-- The dispatch grid of a contract k: one workgroup per per_wg FFTs of the push constant count.
function common.set_grid(k, per_wg)
    k.grid_text = { per_wg == 1 and "count" or string.format("(count + %d) / %d", per_wg - 1, per_wg), "1", "1" }
    k.grid_doc = "Grid: workgroups for `count` FFTs (rows, pairs of real rows, or columns), the push " ..
        "constant count."
    k.grid = { { arg = "count", per = per_wg }, {}, {} }
end

local function flag(v) return v and 1 or 0 end
common.flag = flag

-- The values every FFT's contract carries, in the same order for every path; `own` holds the
-- entries each path fills in its own way (ept_doc, native_order, twiddle_lut, rows_in_turn,
-- columns_in_lanes). per_wg: FFTs per workgroup.
function common.values(ctx, per_wg, own)
    local f = ctx.f
    local bytes = common.element_bytes(ctx)
    return {
        { name = "N", value = f.n },
        { name = "ELEMENTS_PER_INVOCATION", value = f.ept, doc = own.ept_doc },
        { name = "INVERSE", value = flag(f.direction == "inverse"),
          doc = "0: X[f] = sum x[j] exp(-2 pi i j f / N); 1: exp(+...)" },
        { name = "SCALE", value = ctx.scale + 0.0, doc = "--norm " .. f.norm .. ": applied to every output value" },
        own.native_order,
        { name = "REAL", value = flag(f.real), doc = "two real rows per FFT, half spectra with X[0], X[N/2] packed" },
        { name = "STRIDED", value = flag(f.strided), doc = "FFTs along columns: element j of column c at c + j * stride" },
        { name = "F16", value = flag(f.storage == "f16"), doc = "elements stored as IEEE halves" },
        own.twiddle_lut,
        { name = "COLUMNS_PER_WORKGROUP", value = per_wg, doc = "FFTs per workgroup: columns (--stride) or rows" },
        own.rows_in_turn,
        own.columns_in_lanes,
        { name = "SRC_ELEMENT_BYTES", value = bytes.src, doc = "bytes of one element of the input buffer" },
        { name = "DST_ELEMENT_BYTES", value = bytes.dst, doc = "bytes of one element of the output buffer" },
    }
end

-- The push constants (16 bytes): how many FFTs, and the strides of the input and the output.
function common.push_constants(ctx)
    local f = ctx.f
    return {
        { name = "count", offset = 0, doc = f.strided and "columns to transform (FFTs)"
            or f.real and "FFTs: pairs of real rows" or "rows to transform (FFTs)" },
        { name = "in_stride", offset = 4, doc = string.format("distance between %s of the input, in %s",
            f.strided and "consecutive elements of a column" or "rows",
            (f.real and ctx.forward) and "real samples" or "complex elements") },
        { name = "out_stride", offset = 8, doc = string.format("the same for the output, in %s",
            (f.real and not ctx.forward) and "real samples" or "complex elements") },
        { name = "unused", offset = 12, doc = "padding to 16 bytes" },
    }
end

-- ---- declarations (data for templates/lib/interface.lua) ----------------------------------

-- The source and destination buffers; the caller adds its tables (bindings 2 and 3).
function common.buffer_resources(ctx)
    return {
        { kind = "storage_buffer", binding = 0, name = "src", block = "FftSource", element = ctx.elements.src,
          access = "read" },
        { kind = "storage_buffer", binding = 1, name = "dst", block = "FftDestination",
          element = ctx.elements.dst, access = "write" },
    }
end

-- The parameter block: the contract's push constants, each a uint.
local function params_block(ctx)
    local fields = {}
    for _, p in ipairs(ctx.contract.push_constants) do fields[#fields + 1] = { type = "uint", name = p.name } end
    return { block = "FftParams", name = "params", fields = fields }
end

-- The exchange arrays of ctx.slots values (the names expr.lua's shared_store/shared_load
-- use): re and im apart, or one float2 per value (--shared-layout paired), or one float per
-- value where the exchanges go by component; none without slots.
local function exchange_arrays(ctx)
    if ctx.slots == 0 then return {} end
    if ctx.components then return { { type = "float", name = "fft_part", count = ctx.slots } } end
    if ctx.paired then return { { type = "float2", name = "fft_c", count = ctx.slots } } end
    return { { type = "float", name = "fft_re", count = ctx.slots }, { type = "float", name = "fft_im", count = ctx.slots } }
end
common.exchange_arrays = exchange_arrays

-- What the shader declares: `resources` (common.buffer_resources and the caller's tables),
-- the parameter block, the exchange arrays and the builtins t and group; `features` the
-- subgroup operations it uses.
function common.interface(ctx, resources, features)
    return interface.new(ctx.dialect, {
        kernel = "fft", local_size = { ctx.invocations, 1, 1 }, resources = resources,
        params = params_block(ctx), shared = exchange_arrays(ctx),
        builtins = { "t", "group" }, features = features,
    })
end

-- ---- the opening comment ----------------------------------------------------------------

-- The first lines: the version, the target, and the command that regenerates the file.
function common.comment_opening(c, ctx)
    c:line("// spdgen %s: workgroup FFT, %s.", ctx.cfg.version, ctx.dialect.language)
    c:line("// Generated; regenerate with:")
    c:command(ctx.cfg.command)
    c:line("//")
end

-- The scale s in words: 1, or the float the shader multiplies by.
function common.scale_text(ctx)
    if ctx.scale == 1 then return "1" end
    return (twiddle.literal(ctx.scale):gsub("f$", ""))
end

-- "Transform:" of one dispatch; `order` says the order of input and output.
function common.comment_transform(c, ctx, order)
    local f = ctx.f
    local what = f.real and (ctx.forward and "two real rows -> their half spectra"
        or "two half spectra -> two real rows") or "complex to complex"
    c:hanging("// Transform: ", string.format("%s FFT of N = %d points (%s), X[f] = s * sum_j x[j] " ..
        "exp(%s2 pi i j f / N), s = %s (--norm %s); %s.", f.direction, f.n, what, ctx.forward and "-" or "+",
        common.scale_text(ctx), f.norm, order))
end

-- "Transform:" of a four-step plan's pass; `ffts` names the FFTs it runs.
function common.comment_pass_transform(c, ctx, ffts)
    local f = ctx.f
    local p, cols = f.pass, f.pass.n_total // f.n
    c:hanging("// Transform: ", string.format("pass %d of %d of a four-step %s FFT of N = %d points = " ..
        "%d x %d (X[f] = s * sum_j x[j] exp(%s2 pi i j f / N), s = %s, --norm %s; natural order). This " ..
        "pass runs %d %s of %d points per transform%s.", p.index, p.count, f.direction,
        p.n_total, p.index == 1 and f.n or cols, p.index == 1 and cols or f.n, ctx.forward and "-" or "+",
        ctx.scale == 1 and "1 here" or common.scale_text(ctx), f.norm, cols, ffts, f.n, p.index == 1 and
        ", over the columns of the transform read as a matrix, then multiplies by the four-step twiddles" or
        ", over the columns of pass 1's scratch"))
end

-- "Contract:": each binding and the parameter block.
function common.comment_contract(c, ctx)
    local k = ctx.contract
    c:line("// Contract:")
    for _, b in ipairs(k.bindings) do
        c:hanging(string.format("//   %s %s: ", ctx.interface:binding_label(b.binding), b.name), b.doc)
    end
    local pcs = {}
    for _, p in ipairs(k.push_constants) do pcs[#pcs + 1] = p.name end
    c:line("//   %s, FftParams params: uint %s (16 bytes)", ctx.interface:params_label(), table.concat(pcs, ", "))
end

-- ---- the file ---------------------------------------------------------------------------

-- The helper every FFT shader has first.
function common.emit_complex_product(c)
    c:comment("Complex product.")
    c:block("$float2 fft_mul($float2 a, $float2 b)", function()
        c:line("return $float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);")
    end)
    c:blank()
end

-- The shader text in the order every FFT writes it: the opening comment, the target's
-- preamble and declarations, the helpers, the entry point (ctx.contract and ctx.interface
-- made); returns it and the contract.
function common.write_shader(ctx, header_comment, helpers, main)
    local names = {}
    for k, v in pairs(ctx.dialect.types) do names[k] = v end
    local c = emit.new(names)
    header_comment(c, ctx)
    ctx.interface:emit_preamble(c)
    c:blank()
    ctx.interface:emit_declarations(c)
    c:blank()
    helpers(c, ctx)
    main(c, ctx)
    return c:text(), ctx.contract
end

return common
