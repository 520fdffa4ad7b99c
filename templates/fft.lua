-- fft.lua: the workgroup FFT (--fft N), written once for every target.
--
-- After Nabla's workgroup FFT: one workgroup transforms one row (or, with --stride, C
-- neighbouring columns) of N = E x W complex points held in registers, E per invocation.
-- Butterflies whose partners sit in one invocation run in registers; partners in lanes of
-- one subgroup trade values by XOR shuffles; everything else moves through shared memory,
-- which holds only what one round of an exchange needs. templates/fft_plan.lua decides the
-- steps (it is the algorithm's structure, as data); this file spells them with the target's
-- dialect and writes the contract. templates/fft_twiddle.lua makes the twiddle factors.
local emit = require("templates.emit")
local fft_plan = require("templates.fft_plan")
local twiddle = require("templates.fft_twiddle")

local fft = {}

-- Shared memory the plan may use: 32 KB, what Metal guarantees and lavapipe, Apple and
-- most mobile GPUs have (NVIDIA 48 KB, AMD and Intel 64 KB). One slot is one complex
-- value, stored as two floats in separate arrays (fft_re, fft_im).
local SHARED_BUDGET_BYTES = 32768
local SLOT_BYTES = 8

local log2 = fft_plan.log2
local function u(n) return string.format("%du", n) end

-- Columns per workgroup with --stride: neighbouring columns are adjacent in memory, so each
-- invocation loads C of them side by side (32 bytes for C = 4) while keeping E x C <= 16
-- values in registers.
local function columns_per_workgroup(f)
    if not f.strided and not f.pass then return 1 end
    return math.max(1, math.min(4, 16 // f.ept))
end

-- The expression that places bits of t where `map` says: map(index bit) gives the
-- destination bit, or nil to drop it. Consecutive runs become one mask and shift.
local function thread_part(L, map)
    local terms = {}
    local q = 0
    local w = #L.thr
    while q < w do
        local d = map(L.thr[q + 1])
        if d == nil then
            q = q + 1
        else
            local len = 1
            while q + len < w and map(L.thr[q + len + 1]) == d + len do len = len + 1 end
            local mask = ((1 << len) - 1) << q
            local expr = (q == 0 and len == w) and "t" or string.format("(t & %s)", u(mask))
            if d > q then expr = string.format("(%s << %s)", expr, u(d - q))
            elseif d < q then expr = string.format("(%s >> %s)", expr, u(q - d)) end
            terms[#terms + 1] = expr
            q = q + len
        end
    end
    if #terms == 0 then return nil end
    local text = table.concat(terms, " | ")
    if #terms == 1 then text = text:gsub("^%((.*)%)$", "%1") end
    return text
end

-- The register part: sum over the set bits of register number k of 1 << map(bit).
local function register_part(L, k, map)
    local v = 0
    for i, b in ipairs(L.reg) do
        if (k >> (i - 1)) & 1 == 1 then
            local d = map(b)
            if d then v = v | (1 << d) end
        end
    end
    return v
end

-- XOR-folds the 5-bit groups of a shared address above bit 4 into its low 5 bits (the bank
-- on 32-bank hardware). A bijection; every power-of-two stride lands in 32 distinct banks.
local function swizzle(a)
    local fold, x = 0, a >> 5
    while x > 0 do fold, x = fold ~ (x & 31), x >> 5 end
    return a ~ fold
end

-- Bank conflicts of one access: the lanes of a 32-wide subgroup (thread bits 0..4) land in
-- banks spanned by their address bits modulo 5 (swizzle); returns the worst "ways".
local function conflict_ways(L, addr_of)
    local lanes = math.min(5, #L.thr)
    local seen, distinct = {}, 0
    for q = 1, lanes do
        local bank_bit = addr_of[L.thr[q]] % 5
        if not seen[bank_bit] then seen[bank_bit], distinct = true, distinct + 1 end
    end
    return 1 << (lanes - distinct)
end

local function reg_name(k) return "v" .. k end

-- expr + constant, with expr parenthesized unless it is a name ("<<" and "|" bind more
-- loosely than "+").
local function plus(expr, constant)
    local grouped = expr:match("^[%w_]+$") and expr or "(" .. expr .. ")"
    if constant == 0 then return grouped end
    return string.format("%s + %s", grouped, u(constant))
end
-- A plus() result as a factor of a product.
local function factor(expr) return expr:find(" %+ ") and "(" .. expr .. ")" or expr end

-- ---- context and contract --------------------------------------------------------------

-- A four-step pass's FFTs per transform: pass 1 runs N2 FFTs of N1 points (the columns of
-- the transform read as an N1 x N2 matrix), pass 2 N1 FFTs of N2 points.
local function n_total_columns(f)
    return f.pass.n_total // f.n
end

-- How column FFTs address their buffers: access(col, j) is the index of element j of FFT
-- (column) col, for the input and the output. --stride: col + j * stride. Four-step passes
-- (N = N1 x N2, transform b at b * stride): pass 1 reads column col mod N2 of transform
-- col / N2 (element j at j * N2) and writes it as the contiguous scratch row col; pass 2
-- reads column col mod N1 of the scratch (element j at j * N1) and writes frequency
-- (col mod N1) + N1 j, which is the same place in the output.
local function column_access(f)
    if not f.pass then
        return function(col, j) return string.format("%s + %s * params.in_stride", col, j) end,
               function(col, j) return string.format("%s + %s * params.out_stride", col, j) end
    end
    local cols = n_total_columns(f)
    local n_total = f.pass.n_total
    local function group(col) return col:find(" ") and "(" .. col .. ")" or col end
    local function split(col, batch_stride, elem_step, j)
        return string.format("(%s >> %s) * %s + (%s & %s) + %s * %s", group(col), u(log2(cols)),
            batch_stride, group(col), u(cols - 1), j, u(elem_step))
    end
    if f.pass.index == 1 then
        return function(col, j) return split(col, "params.in_stride", cols, j) end,
               function(col, j) return string.format("%s * %s + %s", group(col), u(f.n), j) end
    end
    return function(col, j) return split(col, u(n_total), cols, j) end,
           function(col, j) return split(col, "params.out_stride", cols, j) end
end

-- The output scale: of the whole transform, applied by its last (or only) pass.
local function scale_of(f)
    if f.pass and f.pass.index < f.pass.count then return 1 end
    local n = f.pass and f.pass.n_total or f.n
    if f.norm == "unitary" then return 1 / math.sqrt(n) end
    if f.norm == "inverse" and f.direction == "inverse" then return 1 / n end
    return 1
end

local function make_context(cfg, dialect)
    local f = cfg.fft
    local C = columns_per_workgroup(f)
    local g = {
        n = log2(f.n), e = log2(f.ept), w = log2(f.wg), cb = log2(C),
        s = math.min(log2(math.max(cfg.subgroup, 1)), log2(f.wg)),
        budget = SHARED_BUDGET_BYTES // SLOT_BYTES,
    }
    local forward = f.direction == "forward"
    -- DIF unless this is a native-order inverse: its input is bit-reversed (a forward's
    -- native output) and DIT turns that into natural order with no reorder at all.
    local dif = forward or f.order == "natural"
    local p = fft_plan.build(g, {
        dif = dif, natural = dif and f.order == "natural", real_unpack = f.real and forward,
        -- Real rows of halves: two samples share a uint, so one invocation writes both.
        pair_output = f.real and not forward and f.storage == "f16",
    })
    local slots = p.shared_slots
    for _, s in ipairs(p.steps) do
        if s.kind == "real_unpack" and s.slots > slots then slots = s.slots end
    end
    local ctx = {
        cfg = cfg, f = f, dialect = dialect, g = g, plan = p, dif = dif, forward = forward,
        sign = forward and -1 or 1, columns = C, registers = f.ept * C, scale = scale_of(f),
        wg = f.wg, subgroup = cfg.subgroup, slots = slots, lut = f.twiddles == "lut",
        uses_swizzle = false, shared_used = false,
    }
    -- Storage per binding: a multi-pass plan keeps fp32 between its passes.
    ctx.src_storage, ctx.dst_storage = f.storage, f.storage
    if f.pass then
        if f.pass.index > 1 then ctx.src_storage = "f32" end
        if f.pass.index < f.pass.count then ctx.dst_storage = "f32" end
    end
    local function element(storage, real) return storage == "f16" and "uint" or real and "float" or "float2" end
    ctx.elements = {
        src = element(ctx.src_storage, f.real and forward),
        dst = element(ctx.dst_storage, f.real and not forward),
    }
    ctx.access_in, ctx.access_out = column_access(f)
    for _, s in ipairs(p.steps) do
        if s.kind == "exchange" and s.slots > 32 then ctx.uses_swizzle = true end
    end
    return ctx
end

-- What a buffer holds, in words, for the header comment and the C header.
local function describe_buffers(ctx)
    local f = ctx.f
    local half = f.storage == "f16"
    local function complex_of(storage)
        return storage == "f16" and "complex values, each a uint of two IEEE halves (x low, y high)"
            or "complex values, each a float2 (x real, y imaginary)"
    end
    local complex = complex_of(f.storage)
    local real = half and "real samples, IEEE halves two per uint (even j in the low half)"
        or "real samples, each a float"
    local n = f.n
    local src, dst
    if f.real and ctx.forward then
        src = string.format("real rows of %d %s; FFT b reads rows 2b and 2b+1 (x and y), row r at " ..
            "r * in_stride", n, real)
        dst = string.format("half spectra, %d %s per row: row 2b = X[0..%d), row 2b+1 = Y[0..%d); " ..
            "element 0 packs (X[0], X[%d]) (both real), row r at r * out_stride", n // 2, complex,
            n // 2, n // 2, n // 2)
    elseif f.real then
        src = string.format("half spectra, %d %s per row: rows 2b and 2b+1 = X and Y of FFT b, " ..
            "element 0 packing (X[0], X[%d]); row r at r * in_stride", n // 2, complex, n // 2)
        dst = string.format("real rows of %d %s: rows 2b and 2b+1 = x and y; row r at " ..
            "r * out_stride", n, real)
    elseif f.pass then
        local p = f.pass
        local n_total, cols = p.n_total, n_total_columns(f)
        if p.index == 1 then
            src = string.format("%s; the transforms' rows of %d, row b at b * in_stride, each read " ..
                "as a %d x %d matrix: this pass's FFT c is column c mod %d of row c / %d (element j " ..
                "at j * %d)", complex_of(ctx.src_storage), n_total, f.n, cols, cols, cols, cols)
            dst = string.format("%s; scratch, %d per transform: FFT c writes its output times " ..
                "exp(%s2 pi i (c mod %d) k / %d) as the contiguous row at c * %d",
                complex_of(ctx.dst_storage), n_total, ctx.forward and "-" or "+", cols, n_total, f.n)
        else
            src = string.format("%s; the scratch of pass 1: %d per transform, FFT c is column " ..
                "c mod %d of transform c / %d (element j at j * %d)", complex_of(ctx.src_storage),
                n_total, cols, cols, cols)
            dst = string.format("%s; the result in natural order, transform b at b * out_stride: " ..
                "output k of FFT c is frequency (c mod %d) + %d k", complex_of(ctx.dst_storage), cols, cols)
        end
    elseif f.strided then
        src = string.format("%s; FFT c is column c: element j at c + j * in_stride", complex)
        dst = string.format("%s; element j of column c at c + j * out_stride", complex)
    else
        src = string.format("%s; FFT b is row b: element j at b * in_stride + j", complex)
        dst = string.format("%s; element j of row b at b * out_stride + j", complex)
    end
    return src, dst
end

local function make_contract(ctx)
    local f = ctx.f
    local src, dst = describe_buffers(ctx)
    local bindings = {
        { binding = 0, name = "src", kind = "storage buffer", doc = "input, read-only: " .. src },
        { binding = 1, name = "dst", kind = "storage buffer", doc = "output, write-only: " .. dst },
    }
    if ctx.lut then
        bindings[3] = { binding = 2, name = "twiddle_lut", kind = "storage buffer",
            doc = string.format("%d float2: exp(-2 pi i k / %d) for k = 0..%d, computed in double " ..
                "on the host and rounded to float", f.n // 2, f.n, f.n // 2 - 1) }
    end
    local unit_in = (f.real and ctx.forward) and "real samples" or "complex elements"
    local unit_out = (f.real and not ctx.forward) and "real samples" or "complex elements"
    local per_wg = ctx.columns
    return {
        kernel = "fft",
        entry = ctx.dialect.fft_entry_name or ctx.dialect.entry_name,
        workgroup = { f.wg, 1, 1 },
        grid = { per_wg == 1 and "count" or string.format("(count + %d) / %d", per_wg - 1, per_wg), "1", "1" },
        n = f.n, ept = f.ept, wg = f.wg, subgroup = ctx.subgroup, direction = f.direction,
        norm = f.norm, order = f.order, storage = f.storage, real = f.real, strided = f.strided,
        pass = f.pass and { index = f.pass.index, count = f.pass.count, n_total = f.pass.n_total,
                            columns_per_transform = n_total_columns(f) },
        columns = ctx.columns, twiddles = f.twiddles, scale = ctx.scale,
        shared_bytes = ctx.slots * SLOT_BYTES,
        element_bytes = { src = (ctx.elements.src == "float2") and 8 or 4, dst = (ctx.elements.dst == "float2") and 8 or 4 },
        elements = ctx.elements,
        bindings = bindings,
        push_constants = {
            { name = "count", offset = 0, doc = f.strided and "columns to transform (FFTs)"
                or f.real and "FFTs: pairs of real rows" or "rows to transform (FFTs)" },
            { name = "in_stride", offset = 4, doc = string.format("%s between %s of the input, in %s",
                f.strided and "distance" or "distance", f.strided and "consecutive elements of a column"
                or "rows", unit_in) },
            { name = "out_stride", offset = 8, doc = string.format("the same for the output, in %s", unit_out) },
            { name = "unused", offset = 12, doc = "padding to 16 bytes" },
        },
        push_constant_bytes = 16,
    }
end

-- ---- emission ----------------------------------------------------------------------------

-- The twiddle for a runtime exponent expression.
local function twiddle_expr(ctx, k)
    if not ctx.lut then return string.format("fft_twiddle(%s)", k) end
    return ctx.forward and string.format("twiddle_lut[%s]", k) or string.format("fft_conj(twiddle_lut[%s])", k)
end

-- Index bit b of the element as a bit of j (nil for column bits).
local function j_bit(ctx) return function(b) if b < ctx.g.n then return b end end end

-- Stage on bit b in registers: pairs (k0, k1) of registers differing in b's register bit.
local function emit_stage(c, ctx, step)
    local g, L, b = ctx.g, step.layout, step.bit
    local _, r = fft_plan.where(L, b)
    local shift = g.n - 1 - b
    -- The twiddle exponent is (j mod 2^b) << shift: the invocation's part once per stage,
    -- the register's part a constant.
    local low = function(x) if x < b then return x end end
    local runtime = thread_part(L, low)
    c:comment(string.format("Butterflies on bit %d (partners %d apart), in registers.", b, 1 << b))
    local base = nil
    if runtime then
        base = "e" .. b
        c:line("uint %s = %s;", base, shift > 0 and string.format("(%s) << %s", runtime, u(shift)) or runtime)
    end
    for k0 = 0, ctx.registers - 1 do
        if (k0 >> r) & 1 == 0 then
            local k1 = k0 | (1 << r)
            local a, bb = reg_name(k0), reg_name(k1)
            local kconst = (register_part(L, k0, low)) << shift
            local function times_w(v)
                if base then
                    return string.format("fft_mul(%s, %s)", v, twiddle_expr(ctx,
                        kconst > 0 and string.format("%s + %s", base, u(kconst)) or base))
                end
                return twiddle.times_constant(v, kconst, 1 << g.n, ctx.sign, "$float2")
            end
            if ctx.dif then
                local d = times_w("d")
                if d then
                    c:line("{ $float2 d = %s - %s; %s += %s; %s = %s; }", a, bb, a, bb, bb, d)
                else
                    c:line("{ $float2 d = %s - %s; %s += %s; %s = d; }", a, bb, a, bb, bb)
                end
            else
                local p = times_w(bb)
                if p then
                    c:line("{ $float2 p = %s; %s = %s - p; %s += p; }", p, bb, a, a)
                else
                    c:line("{ $float2 p = %s; %s = %s - p; %s += p; }", bb, bb, a, a)
                end
            end
        end
    end
end

local function shuffle(ctx, v, lane_bit)
    local D = ctx.dialect
    if ctx.subgroup == 4 then return D.quad_swap(v, 1 << lane_bit) end
    return D.shuffle_xor(v, u(1 << lane_bit))
end

-- Stage on lane bit b: partners sit in lanes 2^b apart; each lane keeps its index bits and
-- computes its own half of the butterfly from its value and its partner's.
local function emit_shuffle_stage(c, ctx, step)
    local g, b = ctx.g, step.bit
    local shift = g.n - 1 - b
    c:comment(string.format("Butterflies on bit %d (partners %d apart): in lanes %d apart of one " ..
        "subgroup, traded by %s. Each lane computes its own half: the lower %s.", b, 1 << b, 1 << b,
        ctx.subgroup == 4 and "quad swaps" or "XOR shuffles",
        ctx.dif and "the sum, the upper (lower - upper) x w" or "lower + w x upper, the upper lower - w x upper"))
    c:block("", function()
        c:line("bool upper = (t & %s) != 0u;", u(1 << b))
        local has_tw = b > 0
        if has_tw then
            local k = string.format("(t & %s) << %s", u((1 << b) - 1), u(shift))
            if ctx.dif then
                c:line("$float2 w = upper ? %s : $float2(1.0f, 0.0f);", twiddle_expr(ctx, k))
            else
                c:line("$float2 w = %s;", twiddle_expr(ctx, k))
            end
        end
        for k = 0, ctx.registers - 1 do
            local v = reg_name(k)
            c:line("%s o%d = %s;", "$float2", k, shuffle(ctx, v, b))
            if ctx.dif then
                local sum = string.format("upper ? o%d - %s : %s + o%d", k, v, v, k)
                c:line(has_tw and "%s = fft_mul(%s, w);" or "%s = %s;", v, sum)
            else
                c:line(has_tw and "{ $float2 p = fft_mul(upper ? %s : o%d, w); %s = upper ? o%d - p : %s + p; }"
                    or "{ $float2 p = upper ? %s : o%d; %s = upper ? o%d - p : %s + p; }", v, k, v, k, v)
            end
        end
    end)
end

-- Register renaming: the same invocations hold the same elements in other registers.
local function emit_permute(c, ctx, step)
    local A, B = step.from, step.to
    local all = function(x) return x end
    local moves = {}
    for kb = 0, ctx.registers - 1 do
        local want = register_part(B, kb, all)
        for ka = 0, ctx.registers - 1 do
            if register_part(A, ka, all) == want and ka ~= kb then moves[#moves + 1] = { from = ka, to = kb } end
        end
    end
    if #moves == 0 then return end
    c:comment("Registers renamed: each invocation already holds the elements of the next layout.")
    c:block("", function()
        for _, m in ipairs(moves) do c:line("$float2 r%d = %s;", m.from, reg_name(m.from)) end
        for _, m in ipairs(moves) do c:line("%s = r%d;", reg_name(m.to), m.from) end
    end)
end

local function layout_text(L)
    local r, t = {}, {}
    for i = #L.reg, 1, -1 do r[#r + 1] = tostring(L.reg[i]) end
    for q = #L.thr, 1, -1 do t[#t + 1] = tostring(L.thr[q]) end
    return string.format("registers hold index bits {%s}, invocations {%s}", table.concat(r, ","),
        #t > 0 and table.concat(t, ",") or "")
end

-- A shared-memory exchange, in rounds; every round writes and reads the same registers.
local function emit_exchange(c, ctx, step)
    local D = ctx.dialect
    local A, B, addr_of = step.from, step.to, step.addr_of
    local map = function(b) return addr_of[b] end
    local sw = step.slots > 32 and swizzle or function(a) return a end
    local sw_call = step.slots > 32 and function(e) return "fft_swizzle(" .. e .. ")" end or function(e) return e end
    local ways = math.max(conflict_ways(A, addr_of), conflict_ways(B, addr_of))
    local purpose = step.what == "reorder" and "into natural order" or step.what == "return"
        and "back to the load layout" or step.what == "pair"
        and "so samples f and f + 1 meet in one invocation" or "to bring the next butterflies' partners together"
    local rounds = step.rounds == 1 and string.format("One round of %d slots", step.slots) or
        string.format("%d rounds of %d slots, each moving the elements with one value of index " ..
            "bits {%s}", step.rounds, step.slots, table.concat(step.fixed, ","))
    c:comment(string.format("Exchange through shared memory %s: from %s to %s. %s; %s.", purpose,
        layout_text(A), layout_text(B), rounds, ways == 1 and "no bank conflicts" or
        string.format("up to %d-way bank conflicts", ways)))
    c:block("", function()
        c:line("uint wa = %s;", sw_call(thread_part(A, map) or "0u"))
        c:line("uint ra = %s;", sw_call(thread_part(B, map) or "0u"))
        for round = 0, step.rounds - 1 do
            -- Registers of this round: those whose fixed bits spell `round`.
            local regs = {}
            for k = 0, ctx.registers - 1 do
                local ok = true
                for i, fb in ipairs(step.fixed) do
                    local _, pos = fft_plan.where(A, fb)
                    if ((k >> pos) & 1) ~= ((round >> (i - 1)) & 1) then ok = false end
                end
                if ok then regs[#regs + 1] = k end
            end
            if ctx.shared_used then c:line(D.barrier()) end
            for _, k in ipairs(regs) do
                local a = sw(register_part(A, k, map))
                c:line("fft_re[wa ^ %s] = %s.x; fft_im[wa ^ %s] = %s.y;", u(a), reg_name(k), u(a), reg_name(k))
            end
            c:line(D.barrier())
            for _, k in ipairs(regs) do
                local a = sw(register_part(B, k, map))
                c:line("%s = $float2(fft_re[ra ^ %s], fft_im[ra ^ %s]);", reg_name(k), u(a), u(a))
            end
            ctx.shared_used = true
        end
    end)
end

-- Lane bit q and register bit r trade places: in each pair of registers differing in r the
-- lower lane sends its upper register and the upper lane its lower one.
local function emit_lane_swap(c, ctx, step)
    c:comment(string.format("Lane bit %d trades places with register bit %d (index bits %d and %d) " ..
        "by shuffles, %s.", step.lane, step.reg, step.from.thr[step.lane + 1], step.from.reg[step.reg + 1],
        step.why == "pair" and "so samples f and f + 1 (one uint of halves) meet in one invocation"
        or "so the reorder below keeps every register bit and runs in small rounds"))
    c:block("", function()
        c:line("bool upper = (t & %s) != 0u;", u(1 << step.lane))
        for k0 = 0, ctx.registers - 1 do
            if (k0 >> step.reg) & 1 == 0 then
                local k1 = k0 | (1 << step.reg)
                local a, b = reg_name(k0), reg_name(k1)
                c:line("{ $float2 o = %s; %s = upper ? o : %s; %s = upper ? %s : o; }",
                    shuffle(ctx, string.format("upper ? %s : %s", a, b), step.lane), a, a, b, b)
            end
        end
    end)
end

-- ---- loads and stores --------------------------------------------------------------------

local function load_complex(ctx, index)
    if ctx.src_storage == "f16" then return ctx.dialect.unpack_half2("src[" .. index .. "]") end
    return "src[" .. index .. "]"
end

local function store_complex(ctx, index, v)
    if ctx.dst_storage == "f16" then return string.format("dst[%s] = %s;", index, ctx.dialect.pack_half2(v)) end
    return string.format("dst[%s] = %s;", index, v)
end

-- A real sample of an input row (f16: half j & 1 of word j >> 1).
local function load_real(ctx, base, j)
    if ctx.f.storage == "f16" then
        return string.format("%s[(%s + %s) & 1u]", ctx.dialect.unpack_half2(
            string.format("src[(%s + %s) >> 1u]", base, j)), base, j)
    end
    return string.format("src[%s + %s]", base, j)
end

local function scaled(ctx, v)
    if ctx.scale == 1 then return v end
    return string.format("%s * %s", v, twiddle.literal(ctx.scale))
end

-- The column a register belongs to (--stride), as "col0 + c".
local function column_of(ctx, L, k)
    local n = ctx.g.n
    local col = register_part(L, k, function(b) if b >= n then return b - n end end)
    return col == 0 and "col0" or string.format("col0 + %s", u(col))
end

local function emit_load(c, ctx, step)
    local f, g, L = ctx.f, ctx.g, step.layout
    local jt = thread_part(L, j_bit(ctx)) or "0u"
    local function j_of(k) return plus(jt, register_part(L, k, j_bit(ctx))) end
    if f.real and not ctx.forward then
        c:comment(string.format("Load: Z[f] = X[f] + i Y[f] for f = k * %d + t, from the half spectra: " ..
            "X[f] for f < N/2, conj(X[N - f]) above (Hermitian symmetry of a real row's spectrum), and " ..
            "the real X[0], X[N/2] from the packed element 0.", f.wg))
        c:line("uint x_in = 2u * fft * params.in_stride;")
        c:line("uint y_in = x_in + params.in_stride;")
        local half = f.n // 2
        for k = 0, ctx.registers - 1 do
            local fc = register_part(L, k, j_bit(ctx))
            c:block("", function()
                if fc < half then
                    c:line("$float2 x = %s;", load_complex(ctx, "x_in + " .. j_of(k)))
                    c:line("$float2 y = %s;", load_complex(ctx, "y_in + " .. j_of(k)))
                    if fc == 0 then
                        c:comment("f = 0 (t = 0): X[0] and Y[0] are the real parts of the packed element.")
                        c:line("x = t == 0u ? $float2(x.x, 0.0f) : x;")
                        c:line("y = t == 0u ? $float2(y.x, 0.0f) : y;")
                    end
                else
                    local mirror = string.format("(%s - %s) & %s", u(f.n - fc), plus(jt, 0), u(half - 1))
                    c:line("uint m = %s;", mirror)
                    c:line("$float2 x = %s;", load_complex(ctx, "x_in + m"))
                    c:line("$float2 y = %s;", load_complex(ctx, "y_in + m"))
                    if fc == half then
                        c:comment("f = N/2 (t = 0): the real X[N/2], Y[N/2] are packed in element 0's y.")
                        c:line("x = t == 0u ? $float2(x.y, 0.0f) : $float2(x.x, -x.y);")
                        c:line("y = t == 0u ? $float2(y.y, 0.0f) : $float2(y.x, -y.y);")
                    else
                        c:line("x = $float2(x.x, -x.y);")
                        c:line("y = $float2(y.x, -y.y);")
                    end
                end
                c:line("%s = $float2(x.x - y.y, x.y + y.x);", reg_name(k))
            end)
        end
        return
    end
    if f.real then
        c:comment(string.format("Load: z[j] = x[j] + i y[j], two real rows packed in one complex " ..
            "FFT; register k holds j = k * %d + t (consecutive invocations read consecutive samples).", f.wg))
        c:line("uint x_in = 2u * fft * params.in_stride;")
        c:line("uint y_in = x_in + params.in_stride;")
        for k = 0, ctx.registers - 1 do
            c:line("%s = $float2(%s, %s);", reg_name(k), load_real(ctx, "x_in", j_of(k)), load_real(ctx, "y_in", j_of(k)))
        end
        return
    end
    if ctx.columns > 1 or f.strided or f.pass then
        c:comment(string.format("Load: register k holds element j = (k mod %d) * %d + t of column " ..
            "col0 + k / %d; an invocation reads its %d columns side by side. Columns past count " ..
            "read as zero and are not stored.", f.ept, f.wg, f.ept, ctx.columns))
        for k = 0, ctx.registers - 1 do
            local col = column_of(ctx, L, k)
            c:line("%s = $float2(0.0f, 0.0f);", reg_name(k))
            c:line("if (%s < params.count) %s = %s;", col, reg_name(k),
                load_complex(ctx, ctx.access_in(col, factor(j_of(k)))))
        end
        return
    end
    c:comment(string.format("Load: register k holds element j = k * %d + t (consecutive " ..
        "invocations read consecutive elements).", f.wg))
    c:line("uint in_base = fft * params.in_stride;")
    for k = 0, ctx.registers - 1 do
        c:line("%s = %s;", reg_name(k), load_complex(ctx, "in_base + " .. j_of(k)))
    end
end

-- Output index of register k: natural order (the frequency) or the DIF position (native).
local function output_map(ctx)
    local n = ctx.g.n
    if ctx.dif and ctx.f.order == "natural" then
        return function(b) if b < n then return n - 1 - b end end
    end
    return function(b) if b < n then return b end end
end

local function emit_store(c, ctx, step)
    local f, L = ctx.f, step.layout
    local map = output_map(ctx)
    local ft = thread_part(L, map) or "0u"
    local function f_of(k) return plus(ft, register_part(L, k, map)) end
    local order = f.order == "natural" and "natural order" or
        (ctx.dif and "native order: element j holds frequency bitreverse(j)" or "natural order")
    if f.real and ctx.dst_storage == "f16" then
        c:comment("Store: x = Re z and y = Im z, two real rows of halves; register bit 0 holds " ..
            "output bit 0, so samples f and f + 1 (one uint) are in this invocation.")
        c:line("uint x_out = 2u * fft * params.out_stride;")
        c:line("uint y_out = x_out + params.out_stride;")
        for k = 0, ctx.registers - 1, 2 do
            local even, odd = reg_name(k), reg_name(k + 1)
            for _, part in ipairs({ { "x_out", "x" }, { "y_out", "y" } }) do
                c:line("dst[(%s + %s) >> 1u] = %s;", part[1], f_of(k), ctx.dialect.pack_half2(
                    scaled(ctx, string.format("$float2(%s.%s, %s.%s)", even, part[2], odd, part[2]))))
            end
        end
        return
    end
    if f.real then
        c:comment("Store: x = Re z and y = Im z, two real rows.")
        c:line("uint x_out = 2u * fft * params.out_stride;")
        c:line("uint y_out = x_out + params.out_stride;")
        for k = 0, ctx.registers - 1 do
            local v = scaled(ctx, reg_name(k))
            c:line("dst[x_out + %s] = (%s).x;", f_of(k), v)
            c:line("dst[y_out + %s] = (%s).y;", f_of(k), v)
        end
        return
    end
    if ctx.columns > 1 or f.strided or f.pass then
        local four_step = f.pass and f.pass.index == 1
        if four_step then
            local cols = n_total_columns(f)
            c:comment(string.format("The four-step twiddle: output k of column c times w^((c mod %d) k), " ..
                "w = exp(%s2 pi i / %d). Then store, %s; columns past count are not written.", cols,
                ctx.forward and "-" or "+", f.pass.n_total, order))
        else
            c:comment("Store, " .. order .. "; columns past count are not written.")
        end
        for k = 0, ctx.registers - 1 do
            local col = column_of(ctx, L, k)
            local v = scaled(ctx, reg_name(k))
            if four_step then
                v = string.format("fft_mul(%s, fft_twiddle_total((%s & %s) * %s))", v,
                    col:find(" ") and "(" .. col .. ")" or col, u(n_total_columns(f) - 1), factor(f_of(k)))
            end
            c:line("if (%s < params.count) %s", col, store_complex(ctx, ctx.access_out(col, factor(f_of(k))), v))
        end
        return
    end
    c:comment("Store, " .. order .. ".")
    c:line("uint out_base = fft * params.out_stride;")
    for k = 0, ctx.registers - 1 do
        c:line(store_complex(ctx, "out_base + " .. f_of(k), scaled(ctx, reg_name(k))))
    end
end

-- Two real rows from one complex spectrum: X[f] = (Z[f] + conj Z[N-f]) / 2 and
-- Y[f] = (Z[f] - conj Z[N-f]) / 2i. Z[N-f] is held by invocation W - t (t = 0: this one).
local function emit_real_unpack(c, ctx, step)
    local D, f, L = ctx.dialect, ctx.f, step.layout
    local map = output_map(ctx)
    local W, N = f.wg, f.n
    local by_freq = {}
    for k = 0, ctx.registers - 1 do by_freq[register_part(L, k, map)] = k end
    local lower = {}
    for k = 0, ctx.registers - 1 do
        if register_part(L, k, map) < N // 2 then lower[#lower + 1] = k end
    end
    table.sort(lower, function(a, b) return register_part(L, a, map) < register_part(L, b, map) end)
    c:comment(string.format("Unpack two real rows: X[f] = (Z[f] + conj Z[N-f]) / 2 and Y[f] = " ..
        "(Z[f] - conj Z[N-f]) / 2i for f < N/2. Z[N-f] sits in invocation W - t (for t = 0 in this " ..
        "invocation): the upper registers go through shared memory, %d per round of %d slots.",
        step.per_round, step.slots))
    -- partner register of lower register k: frequency N - W - fk (held by invocation W - t).
    local partner = {}
    for _, k in ipairs(lower) do
        local fk = register_part(L, k, map)
        partner[k] = { other = by_freq[(N - W - fk) % N], own = by_freq[(N - fk) % N] }
    end
    c:line("uint mirror = (%s - t) & %s;", u(W), u(W - 1))
    for i = 1, #lower, step.per_round do
        if ctx.shared_used then c:line(D.barrier()) end
        for j = i, math.min(#lower, i + step.per_round - 1) do
            local slot = (j - i) * W
            local k = lower[j]
            local o = reg_name(partner[k].other)
            c:line("fft_re[%st] = %s.x; fft_im[%st] = %s.y;", slot > 0 and (u(slot) .. " + ") or "", o,
                slot > 0 and (u(slot) .. " + ") or "", o)
        end
        c:line(D.barrier())
        for j = i, math.min(#lower, i + step.per_round - 1) do
            local slot = (j - i) * W
            local k = lower[j]
            local at = slot > 0 and (u(slot) .. " + mirror") or "mirror"
            c:line("$float2 p%d = t == 0u ? %s : $float2(fft_re[%s], fft_im[%s]);", k,
                reg_name(partner[k].own), at, at)
        end
        ctx.shared_used = true
    end
    c:line("uint x_out = 2u * fft * params.out_stride;")
    c:line("uint y_out = x_out + params.out_stride;")
    local half_scale = twiddle.literal(0.5 * ctx.scale)
    local ft = thread_part(L, map) or "0u"
    for _, k in ipairs(lower) do
        local fk = register_part(L, k, map)
        local at = plus(ft, fk)
        c:block("", function()
            c:line("$float2 z = %s;", reg_name(k))
            c:line("$float2 zc = $float2(p%d.x, -p%d.y);", k, k)
            c:line("$float2 x = (z + zc) * %s;", half_scale)
            c:line("$float2 y = $float2(z.y - zc.y, zc.x - z.x) * %s;", half_scale)
            if fk == 0 then
                local nyq = reg_name(by_freq[N // 2])
                c:comment("f = 0 (t = 0): X[0] and Y[0] are real; pack X[N/2], Y[N/2] (also real) in y.")
                c:line("x = t == 0u ? $float2(z.x, %s.x) * %s : x;", nyq, twiddle.literal(ctx.scale))
                c:line("y = t == 0u ? $float2(z.y, %s.y) * %s : y;", nyq, twiddle.literal(ctx.scale))
            end
            c:line(store_complex(ctx, "x_out + " .. at, "x"))
            c:line(store_complex(ctx, "y_out + " .. at, "y"))
        end)
    end
end

-- ---- the file ----------------------------------------------------------------------------

local function describe_plan(ctx)
    local parts, stages = {}, { reg = 0, shuffle = 0 }
    local exchanges, rounds, swaps = 0, 0, 0
    for _, s in ipairs(ctx.plan.steps) do
        if s.kind == "stage" then stages.reg = stages.reg + 1
        elseif s.kind == "shuffle_stage" then stages.shuffle = stages.shuffle + 1
        elseif s.kind == "exchange" then exchanges, rounds = exchanges + 1, rounds + s.rounds
        elseif s.kind == "lane_swap" then swaps = swaps + 1 end
    end
    parts[#parts + 1] = string.format("%d butterfly stages in registers", stages.reg)
    if stages.shuffle > 0 then
        parts[#parts + 1] = string.format("%d with %s", stages.shuffle, ctx.subgroup == 4 and "quad swaps" or "subgroup shuffles")
    end
    parts[#parts + 1] = string.format("%d shared-memory exchange%s (%d rounds)", exchanges, exchanges == 1 and "" or "s", rounds)
    if swaps > 0 then parts[#parts + 1] = string.format("%d lane/register swap%s by shuffles", swaps, swaps == 1 and "" or "s") end
    return table.concat(parts, ", ")
end

-- A comment line starting with `head`, its text wrapped at 92 columns under the text's start.
local function hanging(c, head, text)
    local pad = "//" .. string.rep(" ", #head - 2)
    local line = head
    for word in text:gmatch("%S+") do
        if #line + 1 + #word > 92 and #line > #head then
            c:line(line)
            line = pad .. word
        else
            line = line .. ((#line > #head or line ~= head) and line:sub(-1) ~= " " and " " or "") .. word
        end
    end
    c:line(line)
end

local function emit_header_comment(c, ctx)
    local cfg, f, k, D = ctx.cfg, ctx.f, ctx.contract, ctx.dialect
    c:line("// spdgen %s: workgroup FFT, %s.", cfg.version, D.language)
    c:line("// Generated; regenerate with:")
    c:line("//   %s", cfg.command)
    c:line("//")
    local sign = ctx.forward and "-" or "+"
    local what = f.real and (ctx.forward and "two real rows -> their half spectra" or "two half spectra -> two real rows")
        or "complex to complex"
    if f.pass then
        local p, cols = f.pass, n_total_columns(f)
        hanging(c, "// Transform: ", string.format("pass %d of %d of a four-step %s FFT of N = %d " ..
            "points = %d x %d (X[f] = s * sum_j x[j] exp(%s2 pi i j f / N), s = %s, --norm %s; " ..
            "natural order). This pass runs %d FFTs of %d points per transform%s.", p.index,
            p.count, f.direction, p.n_total, p.index == 1 and f.n or cols, p.index == 1 and cols or f.n,
            sign, ctx.scale == 1 and "1 here" or twiddle.literal(ctx.scale):gsub("f$", ""), f.norm,
            cols, f.n, p.index == 1 and ", over the columns of the transform read as a matrix, " ..
            "then multiplies by the four-step twiddles" or ", over the columns of pass 1's scratch"))
    else
        hanging(c, "// Transform: ", string.format("%s FFT of N = %d points (%s), X[f] = s * sum_j " ..
            "x[j] exp(%s2 pi i j f / N), s = %s (--norm %s); %s.", f.direction, f.n, what, sign,
            ctx.scale == 1 and "1" or twiddle.literal(ctx.scale):gsub("f$", ""), f.norm,
            f.order == "natural" and "input and output in natural order" or (ctx.dif
                and "input natural, output in native order (element j holds X[bitreverse(j)] over log2 N bits)"
                or "input in native order (element j holds X[bitreverse(j)] over log2 N bits), output natural")))
    end
    c:line("// Contract:")
    for _, b in ipairs(k.bindings) do
        hanging(c, string.format("//   %s %s: ", D.fft_binding_label(b), b.name), b.doc)
    end
    local pcs = {}
    for _, p in ipairs(k.push_constants) do pcs[#pcs + 1] = p.name end
    c:line("//   %s, FftParams params: uint %s (16 bytes)", D.params_label, table.concat(pcs, ", "))
    c:line("//   workgroup %dx1x1, dispatch (%s, 1, 1): %s", f.wg, k.grid[1],
        ctx.columns > 1 and string.format("%d neighbouring columns per workgroup", ctx.columns) or "one FFT per workgroup")
    hanging(c, "//   ", string.format("shared memory %d bytes; %s", k.shared_bytes, ctx.subgroup >= 8 and
        string.format("needs full subgroups of %d invocations (Vulkan: requiredSubgroupSize = %d and " ..
            "full subgroups; larger subgroups also work)", ctx.subgroup, ctx.subgroup)
        or ctx.subgroup == 4 and "needs quad operations in compute (subgroups of at least 4, full)"
        or "no subgroup operations"))
    if ctx.subgroup >= 4 then
        c:line("//   assumes each subgroup is consecutive invocations of the workgroup (lane = t % size)")
    end
    c:line("//")
    c:comment(string.format("Plan: %d elements per invocation x %d invocations; %s. Twiddles: %s.",
        f.ept, f.wg, describe_plan(ctx), ctx.lut and "read from twiddle_lut" or
        "computed on the device from integer exponents (fft_twiddle)"))
    c:blank()
end

local function emit_helpers(c, ctx)
    c:comment("Complex product.")
    c:block("$float2 fft_mul($float2 a, $float2 b)", function()
        c:line("return $float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);")
    end)
    c:blank()
    if ctx.lut and not ctx.forward then
        c:block("$float2 fft_conj($float2 a)", function() c:line("return $float2(a.x, -a.y);") end)
        c:blank()
    elseif not ctx.lut then
        twiddle.emit_device_function(c, ctx.f.n, ctx.sign, "fft_twiddle", false)
        c:blank()
    end
    if ctx.f.pass and ctx.f.pass.index == 1 then
        twiddle.emit_device_function(c, ctx.f.pass.n_total, ctx.sign, "fft_twiddle_total", true)
        c:blank()
    end
    if ctx.uses_swizzle then
        local terms, shift = {}, 5
        while (1 << shift) < ctx.slots do
            terms[#terms + 1] = string.format("(a >> %s)", u(shift))
            shift = shift + 5
        end
        c:comment("Shared-memory address swizzle: XORs the higher 5-bit groups of the address into " ..
            "its low 5 bits (the bank), a bijection that spreads power-of-two strides over 32 banks.")
        c:block("uint fft_swizzle(uint a)", function()
            c:line("return a ^ ((%s) & 31u);", table.concat(terms, " ^ "))
        end)
        c:blank()
    end
end

local function emit_main(c, ctx)
    local D, f = ctx.dialect, ctx.f
    c:line(D.fft_entry_open(ctx))
    c.depth = c.depth + 1
    for _, line in ipairs(D.fft_entry_prologue(ctx)) do c:line(line) end
    if ctx.columns > 1 or f.strided or f.pass then
        c:line("uint col0 = group.x * %s;", u(ctx.columns))
        c:line("if (col0 >= params.count) return;")
    else
        c:line("uint fft = group.x;")
        c:line("if (fft >= params.count) return;")
    end
    local regs = {}
    for k = 0, ctx.registers - 1 do regs[#regs + 1] = reg_name(k) end
    c:line("$float2 %s;", table.concat(regs, ", "))
    for _, step in ipairs(ctx.plan.steps) do
        c:blank()
        if step.kind == "load" then emit_load(c, ctx, step)
        elseif step.kind == "stage" then emit_stage(c, ctx, step)
        elseif step.kind == "shuffle_stage" then emit_shuffle_stage(c, ctx, step)
        elseif step.kind == "permute" then emit_permute(c, ctx, step)
        elseif step.kind == "exchange" then emit_exchange(c, ctx, step)
        elseif step.kind == "lane_swap" then emit_lane_swap(c, ctx, step)
        elseif step.kind == "real_unpack" then emit_real_unpack(c, ctx, step)
        elseif step.kind == "store" then
            if not (f.real and ctx.forward) then emit_store(c, ctx, step) end
        else error("fft: unknown step " .. step.kind) end
    end
    c.depth = c.depth - 1
    c:line("}")
end

-- Entry point for the host: returns the shader text and the dispatch contract.
function fft.generate(cfg, dialect)
    local ctx = make_context(cfg, dialect)
    ctx.contract = make_contract(ctx)
    ctx.push_constants = ctx.contract.push_constants
    local names = {}
    for k, v in pairs(dialect.types) do names[k] = v end
    local c = emit.new(names)
    emit_header_comment(c, ctx)
    c:line(dialect.fft_preamble(ctx))
    c:blank()
    c:line(dialect.fft_declarations(ctx))
    c:blank()
    emit_helpers(c, ctx)
    emit_main(c, ctx)
    local text = c:text():gsub("\n(%s*) {\n", "\n%1{\n")
    return text, ctx.contract
end

return fft
