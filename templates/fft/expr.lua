-- fft_expr.lua: the index arithmetic the FFT template writes into shaders: where an
-- element's index bits come from (an invocation's t, a register number), shared-memory
-- addresses and their bank swizzle, and small expression helpers. No dialect here.
local fft_plan = require("templates.fft.plan")

local log2 = fft_plan.log2
local function u(n) return string.format("%du", n) end

-- Calls fn(q, d, len) for each run of bits (a layout's list: L.thr for t's, L.reg for a
-- register number's) that `map` (index bit -> destination bit, or nil to drop it) sends to
-- consecutive places: bits q..q+len-1 to bits d..d+len-1.
local function each_run(bits, map, fn)
    local q, w = 0, #bits
    while q < w do
        local d = map(bits[q + 1])
        if d == nil then
            q = q + 1
        else
            local len = 1
            while q + len < w and map(bits[q + len + 1]) == d + len do len = len + 1 end
            fn(q, d, len)
            q = q + len
        end
    end
end
local function each_thread_run(L, map, fn) each_run(L.thr, map, fn) end

-- The expression that places bits of variable `var` (its bits listed by `bits`) where `map`
-- says. Consecutive runs become one mask and shift.
local function bits_part(bits, map, var)
    local terms = {}
    local w = #bits
    each_run(bits, map, function(q, d, len)
        local mask = ((1 << len) - 1) << q
        local expr = (q == 0 and len == w) and var or string.format("(%s & %s)", var, u(mask))
        if d > q then expr = string.format("(%s << %s)", expr, u(d - q))
        elseif d < q then expr = string.format("(%s >> %s)", expr, u(q - d)) end
        terms[#terms + 1] = expr
    end)
    if #terms == 0 then return nil end
    local text = table.concat(terms, " | ")
    if #terms == 1 then text = text:gsub("^%((.*)%)$", "%1") end
    return text
end

-- The expression that places bits of t (or of `var`, an invocation index of the same layout)
-- where `map` says: map(index bit) gives the destination bit, or nil to drop it.
local function thread_part(L, map, var) return bits_part(L.thr, map, var or "t") end

-- The same for a register number held in a variable (a loop over registers): where `map`
-- places the bits of register number `var`.
local function register_part_expr(L, map, var) return bits_part(L.reg, map, var) end

-- What thread_part(L, map) moves, in words: "t bits 3-5 -> <unit> 7-9, t bit 0 -> 0" (nil:
-- nothing).
local function thread_part_note(L, map, unit)
    local parts = {}
    each_thread_run(L, map, function(q, d, len)
        local to = #parts == 0 and unit .. " " or ""
        parts[#parts + 1] = len == 1 and string.format("t bit %d -> %s%d", q, to:gsub("bits ", "bit "), d)
            or string.format("t bits %d-%d -> %s%d-%d", q, q + len - 1, to, d, d + len - 1)
    end)
    return #parts > 0 and table.concat(parts, ", ") or nil
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

-- XOR-folds the `bits`-bit groups of a shared address above its low `bits` bits into them
-- (bits = 5: the bank on 32-bank hardware). A bijection; every power-of-two stride lands in
-- 2^bits distinct values. In the lanes layout the low log2(C) bits of a slot are the column
-- and only the address above them is swizzled, with bits = 5 - log2(C) (swizzle_bits).
local function swizzle(a, bits)
    bits = bits or 5
    local mask = (1 << bits) - 1
    local fold, x = 0, a >> bits
    while x > 0 do fold, x = fold ~ (x & mask), x >> bits end
    return a ~ fold
end

-- The bits a swizzle folds into, for slots whose low `column_bits` bits are the column.
local function swizzle_bits(column_bits) return 5 - column_bits end

-- Bank conflicts of one access: the lanes of a 32-wide subgroup (thread bits 0..4) and the
-- banks (slot mod 32) their slots land in, `place` mapping an address to its slot; returns
-- the worst "ways" (distinct slots in one bank).
local function conflict_ways(L, addr_of, place)
    local lanes = math.min(5, #L.thr)
    local in_bank, worst = {}, 1
    for lane = 0, (1 << lanes) - 1 do
        local a = 0
        for q = 0, lanes - 1 do
            if (lane >> q) & 1 == 1 then a = a | (1 << addr_of[L.thr[q + 1]]) end
        end
        local slot = place(a)
        local bank = slot & 31
        in_bank[bank] = in_bank[bank] or {}
        if not in_bank[bank][slot] then
            in_bank[bank][slot] = true
            local count = 0
            for _ in pairs(in_bank[bank]) do count = count + 1 end
            if count > worst then worst = count end
        end
    end
    return worst
end

local function reg_name(k) return "v" .. k end

-- expr + constant, with expr parenthesized unless it is a name ("<<" and "|" bind more
-- loosely than "+"); a nil expr is the constant alone (mixed_io.lua's element indices).
local function plus(expr, constant)
    if expr == nil then return u(constant) end
    local grouped = expr:match("^[%w_]+$") and expr or "(" .. expr .. ")"
    if constant == 0 then return grouped end
    return string.format("%s + %s", grouped, u(constant))
end
-- A plus() result as a factor of a product.
local function factor(expr) return expr:find(" %+ ") and "(" .. expr .. ")" or expr end

-- Index bit b of the element as a bit of j (nil for column bits).
local function j_bit(ctx) return function(b) if b < ctx.g.n then return b end end end

-- A four-step pass's FFTs per transform: pass 1 runs N2 FFTs of N1 points (the columns of
-- the transform read as an N1 x N2 matrix), pass 2 N1 FFTs of N2 points.
local function n_total_columns(f)
    return f.pass.n_total // f.n
end

-- Shared-memory slot i holding complex value v: two float arrays, fft_re and fft_im (split:
-- 32-bit accesses, the layout the bank-conflict counts are made for), or one float2 array,
-- fft_c (--shared-layout paired: one 64-bit access per value, half the instructions).
local function shared_store(ctx, i, v)
    if ctx.paired then return string.format("fft_c[%s] = %s;", i, v) end
    return string.format("fft_re[%s] = %s.x; fft_im[%s] = %s.y;", i, v, i, v)
end
local function shared_load(ctx, i)
    if ctx.paired then return string.format("fft_c[%s]", i) end
    return string.format("$float2(fft_re[%s], fft_im[%s])", i, i)
end
-- An exchange by component (stockham.lua): one float array, fft_part, holding one component
-- ("x" or "y") of every value at a time.
local function shared_store_part(i, v, part)
    return string.format("fft_part[%s] = %s.%s;", i, v, part)
end
local function shared_load_part(i)
    return string.format("fft_part[%s]", i)
end

return {
    shared_store = shared_store, shared_load = shared_load,
    shared_store_part = shared_store_part, shared_load_part = shared_load_part,
    u = u, log2 = log2, thread_part = thread_part, thread_part_note = thread_part_note,
    register_part = register_part, register_part_expr = register_part_expr, swizzle = swizzle,
    swizzle_bits = swizzle_bits, conflict_ways = conflict_ways, reg_name = reg_name, plus = plus, factor = factor, j_bit = j_bit,
    n_total_columns = n_total_columns,
}
