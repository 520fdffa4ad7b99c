-- fft.lua: the workgroup FFT (--fft N), written once for every target.
--
-- After Nabla's workgroup FFT: one workgroup transforms one row (or, with --stride, C
-- neighbouring columns) of N = E x W complex points held in registers, E per invocation
-- (columns: in C x W invocations, the lanes layout, or E x C registers of W invocations;
-- with --prefetch-rows R, R rows in turn, the next one's loads in flight).
-- Butterflies whose partners sit in one invocation run in registers; partners in lanes of
-- one subgroup trade values by XOR shuffles; everything else moves through shared memory,
-- which holds only what one round of an exchange needs. templates/fft_plan.lua decides the
-- steps (it is the algorithm's structure, as data); this file spells them with the target's
-- dialect and writes the contract, with fft_steps.lua (butterflies and exchanges), fft_io.lua
-- (loads and stores), fft_expr.lua (index arithmetic), fft_twiddle.lua (twiddles) and
-- common.lua (the contract's parts and the file's order, shared with mixed.lua).
local fft_plan = require("templates.fft.plan")
local twiddle = require("templates.fft.twiddle")
local X = require("templates.fft.expr")
local steps = require("templates.fft.steps")
local io = require("templates.fft.io")
local common = require("templates.fft.common")

local fft = {}

local u, log2, reg_name = X.u, X.log2, X.reg_name
local column_access = io.column_access

-- FFTs per workgroup, and whether they sit in lanes. Columns (--stride, a plan's passes):
-- with f.lanes = C (gen/fft_cli.c decides) invocation t runs column t mod C, so the C
-- invocations in a row load the same element of C neighbouring columns (8C contiguous
-- bytes per load of a subgroup); otherwise (--column-layout registers) each invocation
-- loads C = 16/E (at most 4) columns side by side, E x C <= 16 values in registers. Rows
-- (--rows-per-wg R): R rows in registers.
local function columns_per_workgroup(f)
    if f.lanes and f.lanes > 0 then return f.lanes, true end
    if not f.strided and not f.pass then return f.rows_per_wg or 1, false end
    return math.max(1, math.min(4, 16 // f.ept)), false
end

-- ---- context and contract --------------------------------------------------------------

local function make_context(cfg, dialect)
    local f = cfg
    local C, lanes = columns_per_workgroup(f)
    local g = {
        n = log2(f.n), e = log2(f.ept), w = log2(f.wg),
        cb = lanes and 0 or log2(C), tc = lanes and log2(C) or 0,
        -- Slots of shared memory one exchange may use (common.lua).
        budget = common.budget_slots(cfg),
    }
    -- Butterflies by shuffles: on j's bits held by the lanes of one subgroup above the
    -- column lanes (lanes layout: S / C lanes per column; none when C >= S).
    g.s = math.max(0, math.min(log2(math.max(cfg.subgroup, 1)) - g.tc, g.w))
    local forward = f.direction == "forward"
    -- DIF unless this is a native-order inverse: its input is bit-reversed (a forward's
    -- native output) and DIT turns that into natural order with no reorder at all.
    local dif = forward or f.order == "natural"
    local p = fft_plan.build(g, {
        dif = dif, natural = dif and f.order == "natural", real_unpack = f.real and forward,
        -- Real rows of halves: two samples share a uint, so one invocation writes both.
        pair_output = f.real and not forward and f.storage == "f16",
        -- Pass 1 of a plan writes its columns into the scratch's tiles of T frequencies
        -- (fft_io.lua's column_access): in lanes, the reorder puts the lowest log2 T
        -- frequency bits in the lowest invocation bits, then the column bits, so the
        -- invocations of a subgroup write C x T contiguous values (with T = N1, whole rows).
        columns_after = lanes and f.pass ~= nil and f.pass.index == 1
            and math.min(log2(f.pass.scratch_tile), g.w) or 0,
    })
    local slots = p.shared_slots
    for _, s in ipairs(p.steps) do
        if s.kind == "real_unpack" and s.slots > slots then slots = s.slots end
    end
    local ctx = {
        cfg = cfg, f = f, dialect = dialect, g = g, plan = p, dif = dif, forward = forward,
        sign = forward and -1 or 1, columns = C, lanes = lanes, registers = lanes and f.ept or f.ept * C,
        scale = common.scale_of(f), wg = f.wg, invocations = lanes and f.wg * C or f.wg,
        -- The subgroup size the shader's shuffles need (0: it has none).
        subgroup = g.s > 0 and cfg.subgroup or 0,
        slots = slots, lut = f.twiddles == "lut", squared = f.twiddles == "squared", swizzles = {},
        shared_used = false,
        paired = f.paired_shared,
        -- --prefetch-rows R: R rows per workgroup one after another (plain complex rows only).
        rows_in_turn = math.max(1, f.prefetch_rows or 1),
    }
    common.set_storage(ctx)
    ctx.access_in, ctx.access_out = column_access(f)
    for _, s in ipairs(p.steps) do
        local helper = s.kind == "exchange" and steps.swizzle_helper(ctx, s)
        if helper then ctx.swizzles[helper] = true end
    end
    return ctx
end

local function make_contract(ctx)
    local f = ctx.f
    local bindings = common.buffer_bindings(common.describe_buffers(ctx))
    if ctx.lut then
        bindings[3] = { binding = 2, macro = "TWIDDLES", name = "twiddle_lut", kind = "storage buffer",
            doc = string.format("%d float2: exp(-2 pi i k / %d) for k = 0..%d, computed in double " ..
                "on the host and rounded to float", f.n // 2, f.n, f.n // 2 - 1) }
    end
    local per_wg = ctx.columns * ctx.rows_in_turn
    local flag = common.flag
    local k = {
        title = f.pass and string.format("pass %d of a four-step FFT plan", f.pass.index) or "a workgroup FFT",
        entry = ctx.dialect.entry_name("fft"),
        workgroup = { ctx.invocations, 1, 1 },
        n = f.n, ept = f.ept, wg = f.wg, subgroup = ctx.subgroup, direction = f.direction,
        norm = f.norm, order = f.order, storage = f.storage, real = f.real, strided = f.strided,
        columns = per_wg, rows_in_turn = ctx.rows_in_turn > 1, lanes = ctx.lanes,
        twiddles = f.twiddles, scale = ctx.scale,
        shared_bytes = ctx.slots * common.SLOT_BYTES,
        element_bytes = common.element_bytes(ctx),
        bindings = bindings,
        values = common.values(ctx, per_wg, {
            native_order = { name = "NATIVE_ORDER", value = flag(f.order == "native"),
              doc = string.format("1: the %s is in bit-reversed order (fft_native_index)",
                  f.direction == "inverse" and "input" or "output") },
            twiddle_lut = { name = "TWIDDLE_LUT", value = flag(ctx.lut),
              doc = "binding 2 holds N/2 float2 exp(-2 pi i k / N)" },
            rows_in_turn = { name = "ROWS_IN_TURN", value = flag(ctx.rows_in_turn > 1),
              doc = "1: those rows run one after another (--prefetch-rows); 0: together, in registers or lanes" },
            columns_in_lanes = { name = "COLUMNS_IN_LANES", value = flag(ctx.lanes),
              doc = "1: the columns sit in lanes (WORKGROUP_SIZE_X = COLUMNS_PER_WORKGROUP x N / " ..
                  "ELEMENTS_PER_INVOCATION; invocation t runs column t mod COLUMNS_PER_WORKGROUP); 0: in " ..
                  "each invocation's registers" },
        }),
        push_constants = common.push_constants(ctx),
        push_constant_bytes = 16,
    }
    common.set_grid(k, per_wg)
    return k
end

-- What the shader declares, as data for templates/lib/interface.lua: the source and
-- destination buffers, the twiddle table, the parameter block (the contract's push
-- constants), the exchange arrays and the builtins.
local function fft_interface(ctx)
    local resources = common.buffer_resources(ctx)
    if ctx.lut then
        resources[3] = { kind = "storage_buffer", binding = 2, name = "twiddle_lut", block = "FftTwiddles",
            element = "float2", access = "read" }
    end
    return common.interface(ctx, resources, { shuffle_xor = ctx.subgroup >= 8, quad = ctx.subgroup == 4 })
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
    parts[#parts + 1] = string.format("%d shared-memory exchange%s (%d round%s)", exchanges, exchanges == 1 and "" or "s", rounds,
        rounds == 1 and "" or "s")
    if swaps > 0 then parts[#parts + 1] = string.format("%d lane/register swap%s by shuffles", swaps, swaps == 1 and "" or "s") end
    return table.concat(parts, ", ")
end

-- The phase map: the plan's steps in order, consecutive ones of a kind on one line, each
-- saying where it runs (registers, subgroup shuffles, shared memory).
local function emit_phase_map(c, ctx)
    local f, n = ctx.f, ctx.g.n
    local shuffles = ctx.subgroup == 4 and "quad swaps" or "subgroup shuffles"
    local function bits(list)
        local names = {}
        for i, b in ipairs(list) do names[i] = b end
        return (#list == 1 and "bit " or "bits ") .. steps.bit_names(ctx, names):gsub(",", ", ")
    end
    -- The index bits an exchange brings into registers (those not there before).
    local function incoming(step)
        local had, list = {}, {}
        for _, b in ipairs(step.from.reg) do had[b] = true end
        for _, b in ipairs(step.to.reg) do if not had[b] and b < n then list[#list + 1] = b end end
        table.sort(list, function(x, y) return x > y end)
        return list
    end
    local lines = {}
    local function add(kind, text, key)
        local last = lines[#lines]
        if key and last and last.key == key then last.items[#last.items + 1] = text; return end
        lines[#lines + 1] = { kind = kind, text = text, key = key, items = { text } }
    end
    for _, s in ipairs(ctx.plan.steps) do
        if s.kind == "load" then
            lines[#lines + 1] = { text = "load: " .. steps.layout_text(ctx, s.layout) }
        elseif s.kind == "stage" then add("registers", s.bit, "stage")
        elseif s.kind == "shuffle_stage" then add(shuffles, s.bit, "shuffle_stage")
        elseif s.kind == "lane_swap" then add(shuffles, s, "lane_swap" .. (s.why or ""))
        elseif s.kind == "permute" then lines[#lines + 1] = { text = "registers: renamed, no data moves" }
        elseif s.kind == "exchange" then
            local what = s.what == "reorder" and "reorder into natural order"
                or s.what == "return" and "back to the load layout"
                or s.what == "pair" and "samples f and f + 1 into one invocation"
                or string.format("index %s into registers%s", bits(incoming(s)),
                    s.what == "butterfly_reorder" and ", in the natural-order layout" or "")
            lines[#lines + 1] = { text = string.format("shared memory: %s (%d round%s of %d slots)", what,
                s.rounds, s.rounds == 1 and "" or "s", s.slots) }
        elseif s.kind == "real_unpack" then
            lines[#lines + 1] = { text = "shared memory: Z[f] meets Z[N - f]; unpack and store two real rows' " ..
                "half spectra" }
        elseif s.kind == "store" and not (f.real and ctx.forward) then
            lines[#lines + 1] = { text = "store" }
        end
    end
    c:comment(string.format("Phases, in order%s:", ctx.rows_in_turn > 1
        and " (per row; the next row's loads are in flight meanwhile)" or ""))
    for i, l in ipairs(lines) do
        local text = l.text
        if l.key == "stage" or l.key == "shuffle_stage" then
            text = string.format("%s: butterflies on %s", l.kind, bits(l.items))
        elseif l.key and l.key:match("^lane_swap") then
            local lanes, regs = {}, {}
            for _, s in ipairs(l.items) do lanes[#lanes + 1], regs[#regs + 1] = s.lane, s.reg end
            text = string.format("%s: lane bit%s %s trade%s places with register bit%s %s%s", l.kind,
                #lanes == 1 and "" or "s", table.concat(lanes, ", "), #lanes == 1 and "s" or "",
                #regs == 1 and "" or "s", table.concat(regs, ", "),
                l.items[1].why == "pair" and " (samples f and f + 1 into one invocation)" or "")
        end
        c:hanging(string.format("//   %d. ", i), text)
    end
end

local function emit_header_comment(c, ctx)
    local cfg, f, k = ctx.cfg, ctx.f, ctx.contract
    common.comment_opening(c, ctx)
    if f.pass then
        common.comment_pass_transform(c, ctx, "FFTs")
    else
        common.comment_transform(c, ctx, f.order == "natural" and "input and output in natural order" or (ctx.dif
            and "input natural, output in native order (element j holds X[bitreverse(j)] over log2 N bits)"
            or "input in native order (element j holds X[bitreverse(j)] over log2 N bits), output natural"))
    end
    common.comment_contract(c, ctx)
    if ctx.lanes then
        c:hanging("//   ", string.format("workgroup %dx1x1 = %d columns x %d invocations, dispatch " ..
            "(%s, 1, 1): invocation t runs column col0 + t mod %d as the FFT's invocation t / %d, so " ..
            "the %d invocations in a row load and store the same element of %d neighbouring columns " ..
            "(%d contiguous bytes)", ctx.invocations, ctx.columns, f.wg, k.grid_text[1], ctx.columns,
            ctx.columns, ctx.columns, ctx.columns, ctx.columns * k.element_bytes.src))
    else
        c:hanging("//   ", string.format("workgroup %dx1x1, dispatch (%s, 1, 1): %s", f.wg, k.grid_text[1],
            ctx.columns > 1 and string.format("%d neighbouring %s per workgroup", ctx.columns,
                (f.strided or f.pass) and "columns" or "rows")
            or ctx.rows_in_turn > 1 and string.format("%d consecutive rows per workgroup, one " ..
                "after another", ctx.rows_in_turn) or "one FFT per workgroup"))
    end
    c:hanging("//   ", string.format("shared memory %d bytes; %s", k.shared_bytes, ctx.subgroup >= 8 and
        string.format("needs full subgroups of %d invocations (%s; larger subgroups also work)",
            ctx.subgroup, ctx.dialect.subgroup_requirement
                and string.format(ctx.dialect.subgroup_requirement, ctx.subgroup)
                or string.format("Vulkan: requiredSubgroupSize = %d and full subgroups", ctx.subgroup))
        or ctx.subgroup == 4 and "needs quad operations in compute (subgroups of at least 4, full)"
        or "no subgroup operations"))
    if ctx.subgroup >= 4 then
        c:line("//   assumes each subgroup is consecutive invocations of the workgroup (lane = t % size)")
    elseif cfg.subgroup > 0 then
        c:hanging("//   ", string.format("--subgroup %d is not used: %d consecutive invocations " ..
            "hold the same element of %d columns, so no butterfly partners share a subgroup of %d; " ..
            "every exchange goes through shared memory", cfg.subgroup, cfg.subgroup, cfg.subgroup, cfg.subgroup))
    end
    c:line("//")
    c:comment(string.format("Plan: %d elements per invocation x %d invocations%s; %s. Twiddles: %s.",
        f.ept, f.wg, ctx.lanes and string.format(" per column, %d columns", ctx.columns) or "", describe_plan(ctx), ctx.lut and "read from twiddle_lut" or
        ctx.squared and "computed on the device from integer exponents (fft_twiddle) for every other " ..
        "register stage, the stage after it squaring that twiddle (--twiddles squared)" or
        "computed on the device from integer exponents (fft_twiddle)"))
    emit_phase_map(c, ctx)
    c:blank()
end

local function emit_helpers(c, ctx)
    common.emit_complex_product(c)
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
    io.scratch_index(c, ctx)
    steps.emit_swizzles(c, ctx, function(bits)
        return string.format("Swizzle of the address above the column (slot = address x %d + " ..
            "column, so the %d columns of a subgroup take %d banks): XORs its higher %d-bit groups " ..
            "into its low %d bits (the rest of the bank), a bijection that spreads power-of-two " ..
            "strides over the 32 banks.", ctx.columns, ctx.columns, ctx.columns, bits, bits)
    end)
end

-- The plan's steps in order (the load and store included), spelled for the target.
local function emit_steps(c, ctx, plan_steps)
    local f = ctx.f
    for _, step in ipairs(plan_steps) do
        c:blank()
        if step.kind == "load" then io.load(c, ctx, step)
        elseif step.kind == "stage" then steps.stage(c, ctx, step)
        elseif step.kind == "shuffle_stage" then steps.shuffle_stage(c, ctx, step)
        elseif step.kind == "permute" then steps.permute(c, ctx, step)
        elseif step.kind == "exchange" then steps.exchange(c, ctx, step)
        elseif step.kind == "lane_swap" then steps.lane_swap(c, ctx, step)
        elseif step.kind == "real_unpack" then io.real_unpack(c, ctx, step)
        elseif step.kind == "store" then
            if not (f.real and ctx.forward) then io.store(c, ctx, step) end
        else error("fft: unknown step " .. step.kind) end
    end
end

-- --prefetch-rows R: the workgroup's R rows one after another. Each invocation loads its
-- values of the first row into next0.., then per row: takes them over, starts the next
-- row's loads into next0.. (in flight while this row's butterflies and exchanges run: the
-- exchanges' barriers no longer leave the memory system idle), and transforms and stores
-- this row.
local function emit_rows_in_turn(c, ctx, next_regs)
    local D = ctx.dialect
    local load = ctx.plan.steps[1]
    assert(load.kind == "load", "fft: the plan starts with its load")
    local function reg_next(k) return next_regs[k + 1] end
    c:blank()
    io.load(c, ctx, load, { row = "fft0", reg = reg_next, base = "in_base", comment = string.format(
        "Load the first row: next k holds element j = k * %d + t (consecutive invocations read " ..
        "consecutive elements).", ctx.f.wg) })
    c:blank()
    c:block("for (uint fft = fft0; fft < fft_end; fft++)", function()
        for k = 0, ctx.registers - 1, 4 do
            local copies = {}
            for i = k, math.min(k + 3, ctx.registers - 1) do
                copies[#copies + 1] = string.format("%s = %s;", reg_name(i), reg_next(i))
            end
            c:line(table.concat(copies, " "))
        end
        c:block("if (fft + 1u < fft_end)", function()
            io.load(c, ctx, load, { row = "fft + 1u", reg = reg_next, base = "next_base",
                comment = "The next row's loads, in flight while this row is transformed." })
        end)
        local rest = {}
        for i = 2, #ctx.plan.steps do rest[#rest + 1] = ctx.plan.steps[i] end
        emit_steps(c, ctx, rest)
        c:blank()
        c:comment("The next row's first exchange overwrites the shared array this row read last.")
        c:line("if (fft + 1u < fft_end) %s", D.barrier())
    end)
end

local function emit_main(c, ctx)
    local D, f = ctx.dialect, ctx.f
    ctx.interface:emit_entry_open(c)
    if ctx.columns > 1 or f.strided or f.pass then
        c:line("uint col0 = group.x * %s;", u(ctx.columns))
        c:line("if (col0 >= params.count) return;")
    elseif ctx.rows_in_turn > 1 then
        c:line("uint fft0 = group.x * %s;", u(ctx.rows_in_turn))
        c:line("if (fft0 >= params.count) return;")
        c:line("uint fft_end = min(fft0 + %s, params.count);", u(ctx.rows_in_turn))
    else
        c:line("uint fft = group.x;")
        c:line("if (fft >= params.count) return;")
    end
    local regs, next_regs = {}, {}
    for k = 0, ctx.registers - 1 do regs[#regs + 1], next_regs[#next_regs + 1] = reg_name(k), "next" .. k end
    c:line("$float2 %s;", table.concat(regs, ", "))
    if ctx.rows_in_turn > 1 then
        c:line("$float2 %s;", table.concat(next_regs, ", "))
        emit_rows_in_turn(c, ctx, next_regs)
    else
        emit_steps(c, ctx, ctx.plan.steps)
    end
    c.depth = c.depth - 1
    c:line("}")
end

-- Entry point for the host: returns the shader text and the dispatch contract.
function fft.generate(cfg, dialect)
    -- Lengths that are not powers of two: mixed radix or Bluestein (templates/fft/mixed.lua).
    if cfg.radices then return require("templates.fft.mixed").generate(cfg, dialect) end
    local ctx = make_context(cfg, dialect)
    ctx.contract = make_contract(ctx)
    ctx.interface = fft_interface(ctx)
    return common.write_shader(ctx, emit_header_comment, emit_helpers, emit_main)
end

return fft
