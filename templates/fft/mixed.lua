-- mixed.lua: the FFT of any length that is not a power of two (--fft N with no prime factor
-- above 31; Rader or Bluestein for the rest), written once for every target. The power-of-two
-- path (kernel.lua, plan.lua) is beside it; what both write alike (the contract's parts,
-- the opening comment's common lines, the file's order) is common.lua's.
--
-- One workgroup runs `ffts` FFTs (rows in blocks of W invocations, or columns interleaved
-- in lanes), each as the Stockham stages stockham.lua plans from the radices
-- gen/fft/fft_radix.c chose: butterflies in registers (radix.lua), exchanges through shared
-- memory (mixed_steps.lua), loads and stores as the layout says (mixed_io.lua). Bluestein
-- (cfg.bluestein_m): the chirp product on the load, a forward FFT of M points, the product
-- with the table `spectrum`, an inverse FFT of M points and the chirp on the store, all in
-- one workgroup. Beyond one dispatch (cfg.pass.bluestein_n: N, cfg.pass.n_total: M = M1 x M2)
-- the same steps in three passes of column FFTs (ctx.bpass = 1, 2, 3): the chirp product and
-- the four-step plan's first FFTs of M1 points (and its twiddles); the FFTs of M2 points, the
-- product with `spectrum` and the inverse FFTs of M2 points (and the inverse's twiddles); the
-- inverse FFTs of M1 points and the chirp product, cropped to N. Rader (cfg.rader_root, a
-- prime N): the same convolution over L = N - 1 points, its index maps in rader.lua.
local stockham = require("templates.fft.stockham")
local steps = require("templates.fft.mixed_steps")
local io = require("templates.fft.mixed_io")
local contract = require("templates.fft.mixed_contract")
local twiddle_any = require("templates.fft.twiddle_any")
local twiddle = require("templates.fft.twiddle")
local X = require("templates.fft.expr")
local radix = require("templates.fft.radix")
local common = require("templates.fft.common")
local rader = require("templates.fft.rader")

local mixed = {}

local u = io.u
local each_input, each_output = steps.each_input, steps.each_output
-- One exchange round's slots: common.budget_slots (gen/fft/fft_check_mixed.c plans the
-- stages within the same).
local budget_slots = common.budget_slots

-- The real unpack's rounds: the fewest that divide E with every round within the budget.
local function real_rounds(ctx)
    for q = 1, ctx.f.ept do
        if ctx.f.ept % q == 0 and ctx.ffts * ctx.plan.n // q <= budget_slots(ctx.cfg) then return q end
    end
    error("mixed: the real unpack does not fit the shared memory")
end

local function make_context(cfg, dialect)
    local f = cfg
    local n = f.bluestein_m or f.rader_root and f.n - 1 or f.n
    local ctx = {
        cfg = cfg, f = f, dialect = dialect, forward = f.direction == "forward",
        ffts = math.max(1, f.lanes and f.lanes > 0 and f.lanes or f.rows_per_wg or 1),
        interleaved = (f.lanes or 0) > 0, bluestein = f.bluestein_m ~= nil, m = f.bluestein_m,
        paired = f.paired_shared, shared_used = false, n = f.n,
        -- Bluestein's pass (1, 2, 3) of a plan, its N and M; big_n: the N the chirp covers.
        bpass = f.pass and f.pass.bluestein_n and f.pass.index, big_n = f.pass and f.pass.bluestein_n or f.n,
        -- Rader's primitive root g mod N, and its convolution's length L = N - 1 (as m).
        rader = f.rader_root ~= nil, root = f.rader_root,
    }
    if ctx.rader then ctx.m = f.n - 1 end
    ctx.sign = ctx.forward and -1 or 1
    if ctx.bpass then
        -- The convolution's FFTs: forward in pass 1, both in pass 2, inverse in pass 3; the
        -- direction of the transform is the chirp's sign alone.
        ctx.m = f.pass.n_total
        ctx.sign = ctx.bpass == 3 and 1 or -1
        ctx.cols = f.pass.n_total // f.n
    end
    ctx.scale = common.scale_of(f)
    ctx.plan = stockham.build(n, f.ept, n // f.ept, f.radices, f.rounds, f.components)
    ctx.plan_now = ctx.plan
    ctx.invocations = ctx.ffts * ctx.plan.w
    ctx.slots = ctx.plan.slots * ctx.ffts
    if f.real and ctx.forward then
        assert(ctx.plan.exact and f.ept % 2 == 0, "mixed: --real needs an even E and every radix dividing E")
        ctx.real_rounds = real_rounds(ctx)
        ctx.slots = math.max(ctx.slots, ctx.ffts * ctx.plan.n // ctx.real_rounds)
    end
    if ctx.rader then
        -- A plan where some radix does not divide E may need the exchange between its FFTs,
        -- all L values of every row at once (such plans have no rounds, so they fit).
        if not ctx.plan.exact then ctx.slots = math.max(ctx.slots, ctx.plan.n * ctx.ffts) end
        ctx.rader_staged = rader.staged(ctx)
        ctx.rader_stride = rader.row_stride(ctx)
        if ctx.rader_staged then ctx.slots = math.max(ctx.slots, ctx.rader_stride * ctx.ffts) end
    end
    -- Short rows side by side (W <= 4: a row's part of one load is at most a 32-byte sector)
    -- pass through shared memory in order on the way in and out, so the buffer is read and
    -- written in whole lines (measured: 4-6x at N = 11..15, at W = 6 a little slower); an
    -- even N's rows one slot apart, so the rows of a subgroup start in other banks.
    ctx.rows_staged = not (f.real or f.strided or f.pass or ctx.bluestein or ctx.rader or ctx.interleaved)
        and ctx.ffts > 1 and ctx.plan.w <= 4
    if ctx.rows_staged then
        local N = ctx.plan.n
        ctx.row_stride = (N % 2 == 0 and (N + 1) * ctx.ffts <= budget_slots(cfg)) and N + 1 or N
        ctx.slots = math.max(ctx.slots, ctx.row_stride * ctx.ffts)
    end
    if ctx.bluestein or ctx.bpass then
        assert(ctx.plan.exact, "mixed: Bluestein's FFTs need every radix dividing E")
    end
    -- Exchanges by component hold one float per value: complex rows alone (no other use of
    -- the shared memory).
    ctx.components = ctx.plan.components
    assert(not ctx.components or not (f.real or f.strided or f.pass or ctx.bluestein or ctx.rader or
        ctx.rows_staged), "mixed: exchanges by component are for complex rows")
    common.set_storage(ctx)
    return ctx
end

local function emit_helpers(c, ctx)
    local f = ctx.f
    common.emit_complex_product(c)
    local radices = {}
    for _, st in ipairs(ctx.plan.stages) do radices[#radices + 1] = st.radix end
    local both = ctx.bluestein or ctx.rader or ctx.bpass == 2
    radix.emit_routines(c, ctx.dialect, radices, both and { -1, 1 } or { ctx.sign })
    local needs = false
    for _, st in ipairs(ctx.plan.stages) do needs = needs or st.twiddles ~= "none" end
    if needs then twiddle_any.emit_stage_functions(c, ctx.plan.n, ctx.sign, both) end
    if f.pass and f.pass.index == 1 then
        twiddle_any.emit_device_function(c, f.pass.n_total, ctx.sign, "fft_twiddle_total")
        c:blank()
    elseif ctx.bpass == 2 then
        c:comment("The inverse four-step plan's twiddles, on this pass's store.")
        twiddle_any.emit_device_function(c, f.pass.n_total, 1, "fft_twiddle_total")
        c:blank()
    end
end

-- Every element of the workgroup's rows in order, fn() inside a loop over them: invocation t
-- takes element e = t + T k of the F rows of n_row elements (T = F W invocations), row
-- r = e / n_row, element j = e - r n_row.
local function each_row_element(c, ctx, n_row, fn)
    local T, total = ctx.invocations, ctx.ffts * n_row
    c:block(string.format("for (uint k = 0u; k < %s; k++)", u((total + T - 1) // T)), function()
        c:line("uint e = t + %s * k;", u(T))
        if total % T ~= 0 then c:line("if (e >= %s) break;", u(total)) end
        c:line("uint r = e / %s;", u(n_row))
        c:line("uint j = e - r * %s;", u(n_row))
        fn()
    end)
end

-- Short rows staged (ctx.rows_staged): read in order into shared memory, then each
-- invocation's elements from there.
local function emit_rows_load(c, ctx)
    local D = ctx.dialect
    c:comment(string.format("Load the workgroup's %d rows in order (consecutive invocations, consecutive " ..
        "elements) into shared memory, row r at slot r x %d; then each invocation's elements from there.",
        ctx.ffts, ctx.row_stride))
    each_row_element(c, ctx, ctx.plan.n, function()
        c:line("$float2 x = %s;", common.load_complex(ctx,
            "min(col0 + r, params.count - 1u) * params.in_stride + j"))
        c:line(X.shared_store(ctx, string.format("r * %s + j", u(ctx.row_stride)), "x"))
    end)
    c:line(D.barrier())
    ctx.shared_used = true
    local row = string.format("row * %s", u(ctx.row_stride))
    return each_input(c, ctx, function(reg, x)
        c:line("%s = %s;", reg, X.shared_load(ctx, row .. " + " .. io.plus("it", x)))
    end)
end

-- The first stage's loads: butterfly q's input m is element it + W q + m N / R.
local function emit_load(c, ctx)
    if ctx.rader then return rader.emit_load(c, ctx) end
    if ctx.rows_staged then return emit_rows_load(c, ctx) end
    local plan, st = ctx.plan, ctx.plan.stages[1]
    c:comment(string.format("Load: butterfly q of stage 1 reads elements it + %d q + %d m into registers " ..
        "q + %d m%s.", plan.w, plan.n // st.radix, st.b, st.exact and
        string.format(" (register k holds element it + %d k: consecutive invocations read consecutive " ..
            "elements)", plan.w) or ""))
    return each_input(c, ctx, function(reg, x)
        if ctx.bluestein or ctx.bpass == 1 then
            -- Element x of this FFT is x[j] for j = chirp_at(x), j < N read, else zero.
            local stride = ctx.bpass and ctx.cols or 1
            local below = (x + plan.w) * stride <= ctx.big_n
            if x * stride >= ctx.big_n then
                c:line("%s = $float2(0.0f, 0.0f);", reg)
            else
                if not below then c:line("%s = $float2(0.0f, 0.0f);", reg) end
                io.load(c, ctx, reg, io.plus("it", x), below)
            end
        else
            io.load(c, ctx, reg, io.plus("it", x))
        end
    end)
end

-- Short rows staged: the outputs into shared memory, then stored in order.
local function emit_rows_store(c, ctx, out)
    local D = ctx.dialect
    c:blank()
    c:comment(string.format("Store: the last stage's output m of butterfly i is frequency i + %d m, into " ..
        "shared memory at its row's slots; then the rows in order%s.",
        ctx.plan.n // ctx.plan.stages[#ctx.plan.stages].radix, ctx.scale ~= 1 and ", times the norm's scale" or ""))
    if ctx.shared_used then c:line(D.barrier()) end
    local row = string.format("row * %s", u(ctx.row_stride))
    each_output(ctx, out, function(reg, x, q, m, bound)
        local line = X.shared_store(ctx, row .. " + " .. x, reg)
        if bound then c:line("if (it < %s) { %s }", u(bound), line) else c:line(line) end
    end)
    c:line(D.barrier())
    each_row_element(c, ctx, ctx.plan.n, function()
        c:line("if (col0 + r < params.count) %s", common.store_complex(ctx,
            "(col0 + r) * params.out_stride + j",
            io.scaled(ctx, X.shared_load(ctx, string.format("r * %s + j", u(ctx.row_stride))))))
    end)
end

local function emit_store(c, ctx, out)
    if ctx.rows_staged then return emit_rows_store(c, ctx, out) end
    c:blank()
    if ctx.bpass then
        -- Bluestein's passes 1 and 2 store into a scratch, times a four-step plan's twiddles.
        c:comment(string.format("Store: the last stage's output m of butterfly i is element x = i + %d m, " ..
            "in natural order, times exp(%s2 pi i %s x / %d) (the %s four-step twiddles), into scratch %d.",
            ctx.plan.n // ctx.plan.stages[#ctx.plan.stages].radix, ctx.bpass == 1 and "-" or "+",
            ctx.bpass == 1 and "j0" or "k1", ctx.m, ctx.bpass == 1 and "forward" or "inverse", ctx.bpass))
    else
        c:comment(string.format("Store: the last stage's output m of butterfly i is frequency i + %d m, in " ..
            "natural order%s.", ctx.plan.n // ctx.plan.stages[#ctx.plan.stages].radix,
            ctx.scale ~= 1 and ", times the norm's scale" or ""))
    end
    each_output(ctx, out, function(reg, x, q, m, bound)
        local function store() io.store(c, ctx, reg, x) end
        local cond = {}
        if bound then cond[#cond + 1] = string.format("it < %s", u(bound)) end
        if ctx.live then cond[#cond + 1] = ctx.live end
        if #cond > 0 then c:block(string.format("if (%s)", table.concat(cond, " && ")), store) else store() end
    end)
end

-- Real rows: Z[f] and Z[N - f] meet; X[f] = (Z[f] + conj Z[N-f]) / 2, Y[f] = (Z[f] - conj Z[N-f])
-- / 2i for f < N/2, element 0 packing the real X[0], X[N/2] (and Y's). Register k holds
-- f = it + W k (every radix divides E); Z[N - f] is register E - 1 - k of invocation W - it,
-- or for it = 0 this invocation's register (E - k) mod E.
local function emit_real_unpack(c, ctx, out)
    local D, plan, E, W, N = ctx.dialect, ctx.plan, ctx.f.ept, ctx.plan.w, ctx.plan.n
    local byk = {}
    each_output(ctx, out, function(reg, x, q, m)
        local st = plan.stages[#plan.stages]
        byk[q + m * st.b] = reg
    end)
    local Q = ctx.real_rounds
    local size = N // Q
    c:blank()
    c:comment(string.format("Unpack two real rows: Z[N - f] of register k (f = it + %d k) is register %d - k " ..
        "of invocation %d - it (for it = 0 this invocation's register (%d - k) mod %d); through shared " ..
        "memory in %d round%s of %d slots, each storing the half spectra it completes.", W, E - 1, W, E, E,
        Q, Q == 1 and "" or "s", size * ctx.ffts))
    local half = ctx.scale * 0.5
    c:block("", function()
        c:line("uint wa = %s;", steps.slot_thread(ctx, "it", size))
        c:line("uint ra = %s;", steps.slot_thread(ctx, string.format("(%s - it) %% %s", u(W), u(W)), size))
        for a = 0, Q - 1 do
            if ctx.shared_used then c:line(D.barrier()) end
            for k = a * E // Q, (a + 1) * E // Q - 1 do
                local at = W * k - a * size
                c:line(X.shared_store(ctx, at == 0 and "wa" or "wa + " .. u(steps.slot_const(ctx, at)), byk[k]))
            end
            c:line(D.barrier())
            ctx.shared_used = true
            for k = 0, E // 2 - 1 do
                local pk = E - 1 - k
                if pk >= a * E // Q and pk < (a + 1) * E // Q then
                    local at = W * pk - a * size
                    c:block("", function()
                        c:line("$float2 z = %s;", byk[k])
                        c:line("$float2 p = it == 0u ? %s : %s;", byk[(E - k) % E],
                            X.shared_load(ctx, at == 0 and "ra" or "ra + " .. u(steps.slot_const(ctx, at))))
                        c:line("$float2 zc = $float2(p.x, -p.y);")
                        c:line("$float2 x = (z + zc) * %s;", twiddle.literal(half))
                        c:line("$float2 y = $float2(z.y - zc.y, zc.x - z.x) * %s;", twiddle.literal(half))
                        if k == 0 then
                            c:comment("f = 0 (it = 0): X[0], Y[0] real; X[N/2], Y[N/2] (also real) packed in y.")
                            c:line("x = it == 0u ? $float2(z.x, %s.x) * %s : x;", byk[E // 2], twiddle.literal(ctx.scale))
                            c:line("y = it == 0u ? $float2(z.y, %s.y) * %s : y;", byk[E // 2], twiddle.literal(ctx.scale))
                        end
                        local f = io.plus("it", W * k)
                        local store = function()
                            c:line(io.store_complex(ctx, "x_out + " .. f, "x"))
                            c:line(io.store_complex(ctx, "y_out + " .. f, "y"))
                        end
                        if ctx.live then c:block("if (live)", store) else store() end
                    end)
                end
            end
        end
    end)
end

-- Bluestein's product of the last stage's outputs with the kernel's spectrum at
-- spectrum_at(x); returns them as the next FFT's first-stage registers (every radix divides
-- E, so output x of register k is the next FFT's input in register k).
local function emit_product(c, ctx, out, comment)
    c:blank()
    c:comment(comment)
    local st = ctx.plan.stages[#ctx.plan.stages]
    local nxt = {}
    each_output(ctx, out, function(reg, x, q, m, bound)
        local line = string.format("%s = fft_mul(%s, spectrum[%s]);", reg, reg, ctx.spectrum_at and ctx.spectrum_at(x) or x)
        if bound then c:line("if (it < %s) %s", u(bound), line) else c:line(line) end
        nxt[q + m * st.b] = reg
    end)
    return nxt
end

-- Bluestein's store: X[f] = c[f] times the convolution, for f = chirp_at(x) < N.
local function emit_chirp_store(c, ctx, out)
    local stride = ctx.bpass and ctx.cols or 1
    c:blank()
    c:comment(string.format("Store X[f] = c[f] times the convolution for f < N = %d%s.", ctx.big_n,
        ctx.bpass and string.format(" (f = n2 + %d x: this FFT is column n2 of the output)", ctx.cols) or ""))
    each_output(ctx, out, function(reg, x, q, m)
        local thread, const = steps.output_element(ctx, q, m)
        if const * stride >= ctx.big_n then return end
        local cond = {}
        if (const + ctx.plan.w) * stride > ctx.big_n then
            local f = ctx.chirp_at and ctx.chirp_at(x) or x
            cond[#cond + 1] = string.format("%s < %s", X.factor(f), u(ctx.big_n))
        end
        if ctx.live then cond[#cond + 1] = ctx.live end
        local store = function() io.store(c, ctx, reg, x) end
        if #cond > 0 then c:block(string.format("if (%s)", table.concat(cond, " && ")), store) else store() end
    end)
end

-- One pass of Bluestein's plan (ctx.bpass), after its load.
local function emit_bluestein_pass(c, ctx, phys)
    local M1, M2 = ctx.bpass == 2 and ctx.cols or ctx.plan.n, ctx.bpass == 2 and ctx.plan.n or ctx.cols
    if ctx.bpass == 1 then
        local out = steps.run(c, ctx, phys, -1, string.format("Forward FFT of %d points (the convolution's " ..
            "M = %d x %d). ", M1, M1, M2))
        emit_store(c, ctx, out)
    elseif ctx.bpass == 2 then
        local out = steps.run(c, ctx, phys, -1, string.format("Forward FFT of %d points. ", M2))
        out = emit_product(c, ctx, out, string.format("The product with the convolution kernel's spectrum " ..
            "(divided by M = %d) at frequency k1 + %d k2: k1 is this FFT's column, k2 = it + %d k in " ..
            "register k.", ctx.m, M1, ctx.plan.w))
        ctx.twiddle_fn, ctx.run_prefix = "fft_twiddle_inverse", "i"
        out = steps.run(c, ctx, out, 1, string.format("Inverse FFT of %d points. ", M2))
        emit_store(c, ctx, out)
    else
        local out = steps.run(c, ctx, phys, 1, string.format("Inverse FFT of %d points. ", M1))
        emit_chirp_store(c, ctx, out)
    end
end

local function emit_main(c, ctx)
    local f = ctx.f
    ctx.interface:emit_entry_open(c)
    io.setup(c, ctx)
    local regs = {}
    for k = 0, ctx.plan.registers - 1 do regs[#regs + 1] = steps.reg_name(k) end
    c:line("$float2 %s;", table.concat(regs, ", "))
    c:blank()
    local phys = emit_load(c, ctx)
    if ctx.bpass then
        emit_bluestein_pass(c, ctx, phys)
    elseif ctx.rader then
        rader.emit(c, ctx, phys, emit_product)
    elseif ctx.bluestein then
        local out = steps.run(c, ctx, phys, -1, "Forward FFT of M points. ")
        out = emit_product(c, ctx, out, string.format("The product with the convolution kernel's spectrum " ..
            "(divided by M = %d), frequency f = it + %d k in register k.", ctx.m, ctx.plan.w))
        ctx.twiddle_fn, ctx.run_prefix = "fft_twiddle_inverse", "i"
        out = steps.run(c, ctx, out, 1, "Inverse FFT of M points. ")
        emit_chirp_store(c, ctx, out)
    else
        local out = steps.run(c, ctx, phys, ctx.sign)
        if f.real and ctx.forward then emit_real_unpack(c, ctx, out) else emit_store(c, ctx, out) end
    end
    c.depth = c.depth - 1
    c:line("}")
end

function mixed.generate(cfg, dialect)
    local ctx = make_context(cfg, dialect)
    ctx.contract = contract.make(ctx)
    ctx.interface = contract.interface(ctx)
    return common.write_shader(ctx, contract.header_comment, emit_helpers, emit_main)
end

return mixed
