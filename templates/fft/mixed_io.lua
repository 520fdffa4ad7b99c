-- mixed_io.lua: how a mixed-radix or Bluestein FFT finds its FFT and reads and writes its
-- buffers: rows, columns (--stride), a four-step pass's matrix and scratch, real rows,
-- halves (--storage f16), and the norm's scale. Element x of the FFT is an index
-- expression; the stages (mixed_steps.lua) name which elements they load and store.
local X = require("templates.fft.expr")
local common = require("templates.fft.common")

local io = {}

local u = X.u
io.u = u

-- expr + constant, the expression grouped when it is not a name (nil: the constant alone).
io.plus = X.plus

local function factor(e) return e:match("^[%w_]+$") and e or "(" .. e .. ")" end

-- Declares which FFT this invocation runs and its invocation index `it` within it, and the
-- bases of its buffers; sets ctx.src_at(x) / ctx.dst_at(x) (an element's index in src / dst)
-- and ctx.live (nil: every invocation's FFT exists; else the name of a bool).
function io.setup(c, ctx)
    local f, F, W = ctx.f, ctx.ffts, ctx.plan.w
    if F == 1 then
        c:line("uint fft = group.x;")
        c:line("if (fft >= params.count) return;")
        c:line("uint it = t;")
    else
        c:line("uint col0 = group.x * %s;", u(F))
        c:line("if (col0 >= params.count) return;")
        if ctx.interleaved then
            c:note(string.format("uint it = t / %s;", u(F)), "the invocation's index in its FFT")
            c:note(string.format("uint row = t %% %s;", u(F)), "which of the workgroup's FFTs")
        else
            c:note(string.format("uint it = t %% %s;", u(W)), "the invocation's index in its FFT")
            c:note(string.format("uint row = t / %s;", u(W)), "which of the workgroup's FFTs")
        end
        c:line("uint fft = col0 + row;")
        c:comment("FFTs past count read the last one's input (so every value stays finite) and store " ..
            "nothing; their invocations still meet every barrier.")
        c:line("bool live = fft < params.count;")
        c:line("uint fin = min(fft, params.count - 1u);")
        ctx.live = "live"
    end
    local fin = F == 1 and "fft" or "fin"
    if ctx.bpass then return io.setup_bluestein_pass(c, ctx, fin) end
    if f.real then
        c:line("uint x_in = 2u * %s * params.in_stride;", fin)
        c:line("uint y_in = x_in + params.in_stride;")
        c:line("uint x_out = 2u * fft * params.out_stride;")
        c:line("uint y_out = x_out + params.out_stride;")
        return
    end
    if f.pass then
        local cols = f.pass.n_total // f.n
        if f.pass.index == 1 then
            c:note(string.format("uint in_base = (%s / %s) * params.in_stride + %s %% %s;", fin, u(cols), fin,
                u(cols)),
                string.format("transform fft / %d, column fft mod %d", cols, cols))
            ctx.src_at = function(x) return string.format("in_base + %s * %s", factor(x), u(cols)) end
            ctx.dst_at = function(x) return string.format("fft * %s + %s", u(f.n), factor(x)) end
        else
            c:note(string.format("uint in_base = (%s / %s) * %s + %s %% %s;", fin, u(cols), u(f.pass.n_total),
                fin, u(cols)), string.format("transform fft / %d, pass 1's frequency fft mod %d", cols, cols))
            c:line("uint out_base = (fft / %s) * params.out_stride + fft %% %s;", u(cols), u(cols))
            ctx.src_at = function(x) return string.format("in_base + %s * %s", factor(x), u(cols)) end
            ctx.dst_at = function(x) return string.format("out_base + %s * %s", factor(x), u(cols)) end
        end
        return
    end
    if f.strided then
        ctx.src_at = function(x) return string.format("%s + %s * params.in_stride", fin, factor(x)) end
        ctx.dst_at = function(x) return string.format("fft + %s * params.out_stride", factor(x)) end
        return
    end
    c:line("uint in_base = %s * params.in_stride;", fin)
    c:line("uint out_base = fft * params.out_stride;")
    ctx.src_at = function(x) return "in_base + " .. factor(x) end
    ctx.dst_at = function(x) return "out_base + " .. factor(x) end
end

-- Bluestein's passes over M = M1 x M2 (mixed.lua): which column of which transform this FFT
-- is, where its elements are, and the tables' indices: chirp_at(x) (passes 1 and 3: the
-- element of the N-point row) and spectrum_at(x) (pass 2: the convolution's frequency).
function io.setup_bluestein_pass(c, ctx, fin)
    local f, cols, M = ctx.f, ctx.cols, ctx.m
    local function strided(base) return function(x) return string.format("%s + %s * %s", base, factor(x), u(cols)) end end
    if ctx.bpass == 1 then
        c:note(string.format("uint j0 = %s %% %s;", fin, u(cols)), string.format("this FFT is column j0 of transform " ..
            "%s / %d, read as a %d x %d matrix", fin, cols, f.n, cols))
        c:line("uint in_base = (%s / %s) * params.in_stride + j0;", fin, u(cols))
        ctx.src_at = strided("in_base")
        ctx.chirp_at = strided("j0")
        ctx.dst_at = function(x) return string.format("fft * %s + %s", u(f.n), factor(x)) end
    elseif ctx.bpass == 2 then
        c:note(string.format("uint k1 = %s %% %s;", fin, u(cols)), "this FFT is pass 1's frequency k1 of its transform")
        c:line("uint in_base = (%s / %s) * %s + k1;", fin, u(cols), u(M))
        c:line("uint out_base = (fft / %s) * %s + fft %% %s;", u(cols), u(M), u(cols))
        ctx.src_at = strided("in_base")
        ctx.dst_at = strided("out_base")
        ctx.spectrum_at = strided("k1")
    else
        c:note(string.format("uint in_base = %s * %s;", fin, u(f.n)), "a contiguous row of pass 2's output")
        c:note(string.format("uint n2 = fft %% %s;", u(cols)), string.format("this FFT is column n2 of the output " ..
            "row fft / %d, read as a %d x %d matrix", cols, f.n, cols))
        c:line("uint out_base = (fft / %s) * params.out_stride + n2;", u(cols))
        ctx.src_at = function(x) return "in_base + " .. factor(x) end
        ctx.dst_at = strided("out_base")
        ctx.chirp_at = strided("n2")
    end
end

local load_complex, store_complex = common.load_complex, common.store_complex
io.store_complex = store_complex

-- A real sample j of the row at `base` (f16: half j & 1 of word j >> 1).
local function load_real(ctx, base, j)
    if ctx.f.storage == "f16" then
        return string.format("%s[(%s + %s) & 1u]", ctx.dialect.unpack_half2(
            string.format("src[(%s + %s) >> 1u]", base, j)), base, factor(j))
    end
    return string.format("src[%s + %s]", base, factor(j))
end

io.scaled = common.scaled

-- Loads element x (an index expression) of this FFT's input into register reg; the caller
-- guards it (an idle butterfly, an FFT past count) and zeroes reg otherwise. below: x < N
-- is known (Bluestein's padding: elements N..M-1 are zero).
function io.load(c, ctx, reg, x, below)
    local f = ctx.f
    if ctx.bluestein or ctx.bpass == 1 then
        local n, j = ctx.big_n, ctx.chirp_at and ctx.chirp_at(x) or x
        local value = string.format("fft_mul(%s, chirp[%s])", load_complex(ctx, ctx.src_at(x)), j)
        if below then c:line("%s = %s;", reg, value)
        else c:line("if (%s < %s) %s = %s;", factor(j), u(n), reg, value) end
        return
    end
    if f.real and ctx.forward then
        c:line("%s = $float2(%s, %s);", reg, load_real(ctx, "x_in", x), load_real(ctx, "y_in", x))
        return
    end
    if f.real then
        -- Z[x] = X[x] + i Y[x] from the half spectra: X[x] below N/2, conj X[N - x] above;
        -- X[0] and X[N/2] are the real parts packed in element 0.
        local n, half = f.n, f.n // 2
        c:block("", function()
            c:line("uint m = %s < %s ? %s : (%s - %s) %% %s;", factor(x), u(half), x, u(n), factor(x), u(half))
            c:line("$float2 xs = %s;", load_complex(ctx, "x_in + m"))
            c:line("$float2 ys = %s;", load_complex(ctx, "y_in + m"))
            c:comment("Element 0 holds (X[0], X[N/2]); above N/2 the conjugate.")
            c:line("bool low = %s < %s;", factor(x), u(half))
            c:line("xs = m == 0u ? $float2(low ? xs.x : xs.y, 0.0f) : (low ? xs : $float2(xs.x, -xs.y));")
            c:line("ys = m == 0u ? $float2(low ? ys.x : ys.y, 0.0f) : (low ? ys : $float2(ys.x, -ys.y));")
            c:line("%s = $float2(xs.x - ys.y, xs.y + ys.x);", reg)
        end)
        return
    end
    c:line("%s = %s;", reg, load_complex(ctx, ctx.src_at(x)))
end

-- Stores the value in register reg as element (frequency) x of the output, scaled.
function io.store(c, ctx, reg, x)
    local f = ctx.f
    if ctx.bluestein or ctx.bpass == 3 then -- the caller keeps x < N
        c:line(store_complex(ctx, ctx.dst_at(x), io.scaled(ctx, string.format("fft_mul(%s, chirp[%s])", reg,
            ctx.chirp_at and ctx.chirp_at(x) or x))))
        return
    end
    if f.real then -- the inverse: two real rows
        c:line("dst[x_out + %s] = %s;", factor(x), io.scaled(ctx, reg .. ".x"))
        c:line("dst[y_out + %s] = %s;", factor(x), io.scaled(ctx, reg .. ".y"))
        return
    end
    local v = io.scaled(ctx, reg)
    if f.pass and (f.pass.index == 1 or ctx.bpass == 2) then
        c:line("%s = fft_mul(%s, fft_twiddle_total((fft %% %s) * %s));", reg, reg,
            u(f.pass.n_total // f.n), factor(x))
        v = reg
    end
    c:line(store_complex(ctx, ctx.dst_at(x), v))
end

return io
