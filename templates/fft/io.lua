-- fft_io.lua: how the FFT reads and writes its buffers: element addresses for rows,
-- columns and the four-step passes, fp32 or half storage, real rows (the packing of two
-- real rows per FFT and its unpacking into half spectra), the norm's scale.
local twiddle = require("templates.fft.twiddle")
local X = require("templates.fft.expr")
local common = require("templates.fft.common")

local u, log2, plus, factor, reg_name = X.u, X.log2, X.plus, X.factor, X.reg_name
local thread_part, register_part, j_bit = X.thread_part, X.register_part, X.j_bit
local thread_part_note = X.thread_part_note
local n_total_columns = X.n_total_columns

local io = {}

-- The scratch in tiles narrower than N1 (a plan's pass; N1 is pass 1's N, pass 2's columns).
local function scratch_tiled(f)
    return f.pass ~= nil and f.pass.scratch_tile < (f.pass.index == 1 and f.n or n_total_columns(f))
end

-- fft_scratch_index(col, j), where a pass's access to a tiled scratch goes (column_access).
local function emit_scratch_index(c, ctx)
    local f = ctx.f
    if not scratch_tiled(f) then return end
    local tile, cols, n_total = f.pass.scratch_tile, n_total_columns(f), f.pass.n_total
    local t = log2(tile)
    if f.pass.index == 1 then
        local n2 = cols
        c:comment(string.format("Where frequency k1 of column col (transform col / %d, column n2 = col mod %d) " ..
            "goes in the scratch: in tiles of %d frequencies, (k1 / %d) x %d x %d + n2 x %d + k1 mod %d, so " ..
            "pass 2's workgroups, %d columns k1 each, read one contiguous block.", n2, n2, tile, tile, n2,
            tile, tile, tile, tile))
        c:block("uint fft_scratch_index(uint col, uint k1)", function()
            c:line("return (col >> %s) * %s + (k1 >> %s) * %s + ((col & %s) << %s) + (k1 & %s);",
                u(log2(n2)), u(n_total), u(t), u(n2 << t), u(n2 - 1), u(t), u(tile - 1))
        end)
    else
        c:comment(string.format("Where element n2 of column col (transform col / %d, frequency k1 = col mod " ..
            "%d of pass 1) is in the scratch: pass 1 wrote it in tiles of %d frequencies, (k1 / %d) x %d x %d " ..
            "+ n2 x %d + k1 mod %d, so the %d columns of this workgroup are one contiguous block.", cols, cols,
            tile, tile, f.n, tile, tile, tile, ctx.columns))
        c:block("uint fft_scratch_index(uint col, uint n2)", function()
            c:comment(string.format("transform x %d + (k1 / %d) x %d x %d is (col / %d) x %d x %d", n_total,
                tile, f.n, tile, tile, f.n, tile))
            c:line("return (col >> %s) * %s + n2 * %s + (col & %s);", u(t), u(f.n << t), u(tile), u(tile - 1))
        end)
    end
    c:blank()
end

-- How column FFTs address their buffers: access(col, j) is the index of element j (an
-- operand: a name or in parentheses) of FFT (column) col, for the input and the output.
-- --stride: col + j * stride. Four-step passes (N = N1 x N2, transform b at b * stride):
-- pass 1 reads column n2 = col mod N2 of transform col / N2 (element j at j * N2) and
-- writes its frequency k1 = j to the scratch; pass 2 reads column k1 = col mod N1 of the
-- scratch (element j = n2) and writes frequency k1 + N1 j, which is the same place in the
-- output. The scratch is in tiles of T = 2^t frequencies (gen/fft_cli.c's
-- plan_scratch_tile): (n2, k1) of transform b at b N + (k1 >> t) N2 T + n2 T + (k1 mod T),
-- so pass 2's T columns in lanes read one contiguous block; with T = N1 that is column n2
-- as the contiguous row n2, addressed inline.
local function column_access(f)
    local function group(col) return col:find(" ") and "(" .. col .. ")" or col end
    if not f.strided and not f.pass then -- --rows-per-wg: "column" col is row col
        return function(col, j) return string.format("%s * params.in_stride + %s", group(col), j) end,
               function(col, j) return string.format("%s * params.out_stride + %s", group(col), j) end
    end
    if not f.pass then
        return function(col, j) return string.format("%s + %s * params.in_stride", col, j) end,
               function(col, j) return string.format("%s + %s * params.out_stride", col, j) end
    end
    local cols = n_total_columns(f)
    local n_total = f.pass.n_total
    local function split(col, batch_stride, elem_step, j)
        return string.format("(%s >> %s) * %s + (%s & %s) + %s * %s", group(col), u(log2(cols)),
            batch_stride, group(col), u(cols - 1), j, u(elem_step))
    end
    local scratch = function(col, j) return string.format("fft_scratch_index(%s, %s)", col, j) end
    if f.pass.index == 1 then
        local store = function(col, j) return string.format("%s * %s + %s", group(col), u(f.n), j) end
        return function(col, j) return split(col, "params.in_stride", cols, j) end,
               scratch_tiled(f) and scratch or store
    end
    local load = scratch_tiled(f) and scratch or function(col, j) return split(col, u(n_total), cols, j) end
    return load, function(col, j) return split(col, "params.out_stride", cols, j) end
end

-- A four-step pass addresses column col of its transforms with a shift and a mask (column_access).
local function split_note(c, f)
    local cols = n_total_columns(f)
    c:comment(string.format("col >> %s and col & %s: the transform col / %d and its column col mod %d.",
        u(log2(cols)), u(cols - 1), cols, cols))
end

local load_complex, store_complex = common.load_complex, common.store_complex

-- A real sample of an input row (f16: half j & 1 of word j >> 1).
local function load_real(ctx, base, j)
    if ctx.f.storage == "f16" then
        return string.format("%s[(%s + %s) & 1u]", ctx.dialect.unpack_half2(
            string.format("src[(%s + %s) >> 1u]", base, j)), base, j)
    end
    return string.format("src[%s + %s]", base, j)
end

local scaled = common.scaled

-- The column a register belongs to (--stride), as "col0 + c": the workgroup's first
-- column plus the column bits the register number holds. In the lanes layout the column
-- bits are the invocation's: `base` names the variable holding col0 + that part.
local function column_of(ctx, L, k, base)
    local n = ctx.g.n
    local col = register_part(L, k, function(b) if b >= n then return b - n end end)
    base = base or "col0"
    return col == 0 and base or string.format("%s + %s", base, u(col))
end

-- Lanes layout: declares `name` = col0 + the column bits of L held by the invocation and
-- returns the name (an earlier variable when its expression is the same).
local function lane_column(c, ctx, L, name)
    local n = ctx.g.n
    local part = thread_part(L, function(b) if b >= n then return b - n end end)
    if not part then return "col0" end -- one column per workgroup
    local expr = string.format("col0 + %s", part:match("^[%w_]+$") and part or "(" .. part .. ")")
    ctx.lane_columns = ctx.lane_columns or {}
    if ctx.lane_columns[expr] then return ctx.lane_columns[expr] end
    c:note(string.format("uint %s = %s;", name, expr), "the column: " ..
        thread_part_note(L, function(b) if b >= n then return b - n end end, "column bits"))
    ctx.lane_columns[expr] = name
    return name
end

local function emit_load(c, ctx, step, opts)
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
                    c:note(string.format("uint m = %s;", mirror), string.format("N - f, an index of the half " ..
                        "spectrum (mod %d)", half))
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
        local rows = not f.strided and not f.pass
        local base -- lanes: the invocation's column
        if ctx.lanes then
            c:comment(string.format("Load: invocation t runs column col0 + t mod %d, and its register k " ..
                "holds element j = k * %d + t / %d: the %d invocations in a row read the same element of " ..
                "%d neighbouring columns, contiguous in memory. Columns past count read as zero and are " ..
                "not stored.", ctx.columns, f.wg, ctx.columns, ctx.columns, ctx.columns))
            base = lane_column(c, ctx, L, "col")
        else
            c:comment(string.format("Load: register k holds element j = (k mod %d) * %d + t of %s " ..
                "col0 + k / %d; %s. %s past count read as zero and are not stored.", f.ept, f.wg,
                rows and "row" or "column", f.ept, rows and string.format("each workgroup runs %d " ..
                "consecutive rows (--rows-per-wg), so every invocation has %d loads in flight", ctx.columns,
                ctx.registers) or string.format("an invocation reads its %d columns side by side", ctx.columns),
                rows and "Rows" or "Columns"))
        end
        if f.pass and (f.pass.index == 1 or not scratch_tiled(f)) then split_note(c, f) end
        for k = 0, ctx.registers - 1 do
            local col = column_of(ctx, L, k, base)
            c:line("%s = $float2(0.0f, 0.0f);", reg_name(k))
            c:line("if (%s < params.count) %s = %s;", col, reg_name(k),
                load_complex(ctx, ctx.access_in(col, factor(j_of(k)))))
        end
        return
    end
    -- A plain row; opts (--prefetch-rows): the row expression, registers and base name.
    opts = opts or {}
    local reg, base = opts.reg or reg_name, opts.base or "in_base"
    c:comment(opts.comment or string.format("Load: register k holds element j = k * %d + t (consecutive " ..
        "invocations read consecutive elements).", f.wg))
    local row = opts.row or "fft"
    c:line("uint %s = %s * params.in_stride;", base, row:find(" ") and "(" .. row .. ")" or row)
    for k = 0, ctx.registers - 1 do
        c:line("%s = %s;", reg(k), load_complex(ctx, base .. " + " .. j_of(k)))
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
        local rows_note = ctx.lanes and four_step and string.format(" Consecutive invocations hold " ..
            "consecutive frequencies of column col0 + t / %d here (the reorder put them there), so " ..
            "the scratch rows are written contiguously.", f.wg) or ""
        if four_step then
            local cols = n_total_columns(f)
            c:comment(string.format("The four-step twiddle: output k of column c times w^((c mod %d) k), " ..
                "w = exp(%s2 pi i / %d). Then store, %s; columns past count are not written.%s", cols,
                ctx.forward and "-" or "+", f.pass.n_total, order, rows_note))
        else
            c:comment("Store, " .. order .. (f.strided and "; columns" or "; rows") .. " past count are not written.")
        end
        if f.pass and f.pass.index > 1 then split_note(c, f) end
        local base = ctx.lanes and lane_column(c, ctx, L, "col_out") or nil
        for k = 0, ctx.registers - 1 do
            local col = column_of(ctx, L, k, base)
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
    c:note(string.format("uint mirror = (%s - t) & %s;", u(W), u(W - 1)), "W - t mod W: it holds Z[N - f]")
    for i = 1, #lower, step.per_round do
        if ctx.shared_used then c:line(D.barrier()) end
        for j = i, math.min(#lower, i + step.per_round - 1) do
            local slot = (j - i) * W
            local k = lower[j]
            local o = reg_name(partner[k].other)
            c:line(X.shared_store(ctx, (slot > 0 and (u(slot) .. " + ") or "") .. "t", o))
        end
        c:line(D.barrier())
        for j = i, math.min(#lower, i + step.per_round - 1) do
            local slot = (j - i) * W
            local k = lower[j]
            local at = slot > 0 and (u(slot) .. " + mirror") or "mirror"
            c:line("$float2 p%d = t == 0u ? %s : %s;", k, reg_name(partner[k].own), X.shared_load(ctx, at))
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

io.column_access = column_access
io.scratch_index = emit_scratch_index
io.load = emit_load
io.store = emit_store
io.real_unpack = emit_real_unpack
return io
