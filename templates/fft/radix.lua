-- radix.lua: DFTs of R points written out in registers, for the mixed-radix stages.
--
-- dft(c, regs, sign) computes X[m] = sum_l x[l] exp(sign 2 pi i l m / R) of the values in
-- the registers `regs` (x[l] in regs[l + 1]) in place and returns where each output is:
-- out[m + 1] names the register holding X[m] (a composite R leaves its outputs permuted;
-- the caller reads them where they are instead of moving them). The kernels:
--   2, 4: sums and differences, the products by +-i as swaps;
--   the odd primes 3 to 31: pairs x[l] +- x[R - l], so each of the (R - 1) / 2 cosines and sines
--     multiplies a sum or a difference once for an output pair (X[m] and X[R - m] share
--     them): (R - 1)^2 / 2 real-by-complex products instead of (R - 1)^2 complex ones;
--   any other R (8 = 4 x 2, 16 = 4 x 4, 12, 48, ...): Cooley-Tukey over its largest kernel
--     radix and the rest, with constant twiddles: +-1 and +-i as swaps, the odd eighth turns
--     (1 +- i) / sqrt 2 in two multiplies, the others a complex product.
local twiddle = require("templates.fft.twiddle")

local radix = {}

local L = twiddle.literal
local KERNELS = { 31, 29, 23, 19, 17, 13, 11, 7, 5, 4, 3, 2 }
-- The odd primes among them: each written as pairs (dft_odd).
local ODD_PRIME = { [3] = true, [5] = true, [7] = true, [11] = true, [13] = true, [17] = true,
    [19] = true, [23] = true, [29] = true, [31] = true }

-- v (a name) times i^q as an expression: a swap and signs, no multiply.
local function times_i(v, q)
    q = q % 4
    if q == 0 then return v end
    if q == 1 then return string.format("$float2(-%s.y, %s.x)", v, v) end
    if q == 2 then return string.format("-%s", v) end
    return string.format("$float2(%s.y, -%s.x)", v, v)
end
radix.times_i = times_i

-- Multiplies register v in place by the constant exp(sign 2 pi i k / n).
function radix.rotate(c, v, k, n, sign)
    k = k % n
    if k == 0 then return end
    if (4 * k) % n == 0 then
        c:line("%s = %s;", v, times_i(v, sign * (4 * k // n)))
    elseif (8 * k) % n == 0 then
        -- exp(i o pi / 4), o odd: (1 + i) / sqrt 2 times i^((o - 1) / 2).
        local o, h = (sign * (8 * k // n)) % 8, L(math.sqrt(0.5))
        local x, y = v .. ".x", v .. ".y"
        local forms = {
            [1] = string.format("$float2(%s - %s, %s + %s)", x, y, x, y),
            [3] = string.format("$float2(-%s - %s, %s - %s)", x, y, x, y),
            [5] = string.format("$float2(%s - %s, -%s - %s)", y, x, x, y),
            [7] = string.format("$float2(%s + %s, %s - %s)", x, y, y, x),
        }
        c:line("%s = %s * %s;", v, forms[o], h)
    else
        local cs, sn = twiddle.value(k, n, sign)
        c:line("%s = fft_mul(%s, $float2(%s, %s));", v, v, L(cs), L(sn))
    end
end

-- Routines: routines[sign][k] names the routine that runs the k-point kernel in place
-- (radix.emit_routines declares them); without one, the kernel is written inline.
local routines = { [-1] = {}, [1] = {} }

local function call(c, r, sign)
    local name = routines[sign][#r]
    if not name then return false end
    c:line("%s(%s);", name, table.concat(r, ", "))
    return true
end

local function dft2(c, r)
    c:line("{ $float2 d = %s - %s; %s += %s; %s = d; }", r[1], r[2], r[1], r[2], r[2])
end

local function dft4_body(c, r, sign)
    c:line("$float2 s0 = %s + %s, s1 = %s - %s, s2 = %s + %s, s3 = %s - %s;", r[1], r[3], r[1], r[3],
        r[2], r[4], r[2], r[4])
    local d = times_i("s3", sign)
    c:line("%s = s0 + s2; %s = s0 - s2; %s = s1 + %s; %s = s1 - %s;", r[1], r[3], r[2], d, r[4], d)
end

local function dft4(c, r, sign)
    if call(c, r, sign) then return end
    c:block("", function() dft4_body(c, r, sign) end)
end

-- An odd prime R: X[m] = A_m + sign i B_m and X[R - m] = A_m - sign i B_m, with
-- A_m = x0 + sum_l cos(2 pi l m / R) (x_l + x_(R-l)) and B_m = sum_l sin(2 pi l m / R)
-- (x_l - x_(R-l)), l and m = 1..(R - 1) / 2.
local function dft_odd_body(c, r, sign)
    local R = #r
    local h = (R - 1) // 2
    do
        for l = 1, h do
            c:line("$float2 s%d = %s + %s, d%d = %s - %s;", l, r[l + 1], r[R - l + 1], l, r[l + 1], r[R - l + 1])
        end
        for m = 1, h do
            local a, b = { r[1] }, {}
            for l = 1, h do
                local angle = 2 * math.pi * ((l * m) % R) / R
                a[#a + 1] = string.format("s%d * %s", l, L(math.cos(angle)))
                b[#b + 1] = string.format("d%d * %s", l, L(math.sin(angle)))
            end
            c:line("$float2 a%d = %s;", m, table.concat(a, " + "))
            c:line("$float2 b%d = %s;", m, table.concat(b, " + "))
        end
        local sum = {}
        for l = 1, h do sum[#sum + 1] = "s" .. l end
        c:line("%s += %s;", r[1], table.concat(sum, " + "))
        for m = 1, h do
            local ib = times_i("b" .. m, sign)
            c:line("%s = a%d + %s; %s = a%d - %s;", r[m + 1], m, ib, r[R - m + 1], m, ib)
        end
    end
end

local function dft_odd(c, r, sign)
    if call(c, r, sign) then return end
    c:block("", function() dft_odd_body(c, r, sign) end)
end

local function kernel_of(R)
    for _, k in ipairs(KERNELS) do
        if R % k == 0 then return k end
    end
    error("radix: no kernel divides " .. R)
end

function radix.dft(c, regs, sign)
    local R = #regs
    if R == 1 then return regs end
    if R == 2 then dft2(c, regs) return regs end
    if R == 4 then dft4(c, regs, sign) return regs end
    if ODD_PRIME[R] then dft_odd(c, regs, sign) return regs end
    -- R = R1 x R2, x[l1 R2 + l2]: R2 DFTs of R1 points over l1, twiddles w_R^(l2 m1), then R1
    -- DFTs of R2 points over l2; X[m1 + R1 m2] ends where the second DFT of m1 puts m2.
    local r1 = kernel_of(R)
    local r2 = R // r1
    local y = {} -- y[m1][l2]: the register holding the first DFTs' output m1 of column l2
    for m1 = 0, r1 - 1 do y[m1] = {} end
    for l2 = 0, r2 - 1 do
        local sub = {}
        for l1 = 0, r1 - 1 do sub[l1 + 1] = regs[l1 * r2 + l2 + 1] end
        local out = radix.dft(c, sub, sign)
        for m1 = 0, r1 - 1 do y[m1][l2] = out[m1 + 1] end
    end
    for m1 = 1, r1 - 1 do
        for l2 = 1, r2 - 1 do radix.rotate(c, y[m1][l2], l2 * m1, R, sign) end
    end
    local result = {}
    for m1 = 0, r1 - 1 do
        local sub = {}
        for l2 = 0, r2 - 1 do sub[l2 + 1] = y[m1][l2] end
        local out = radix.dft(c, sub, sign)
        for m2 = 0, r2 - 1 do result[m1 + r1 * m2 + 1] = out[m2 + 1] end
    end
    return result
end

-- The kernels (4 and the odd primes; 2 stays inline) that the DFTs of `radices` use, ascending.
function radix.kernels(radices)
    local seen, list = {}, {}
    local function walk(R)
        if R == 1 or R == 2 then return end
        if R == 4 or ODD_PRIME[R] then
            if not seen[R] then seen[R], list[#list + 1] = true, R end
            return
        end
        local r1 = kernel_of(R)
        walk(r1)
        walk(R // r1)
    end
    for _, R in ipairs(radices) do walk(R) end
    table.sort(list)
    return list
end

-- Declares one routine per kernel of `radices` and sign in `signs` (the k-point DFT in place
-- on its k in-out arguments), named fft_dft<k> (fft_idft<k> for the inverse sign where both
-- are used); later dft calls use them. dialect.inout spells an in-out parameter.
function radix.emit_routines(c, dialect, radices, signs)
    routines = { [-1] = {}, [1] = {} }
    for _, k in ipairs(radix.kernels(radices)) do
        for _, sign in ipairs(signs) do
            local name = (sign > 0 and #signs > 1) and "fft_idft" .. k or "fft_dft" .. k
            local args, regs = {}, {}
            for l = 0, k - 1 do
                regs[#regs + 1] = "x" .. l
                args[#args + 1] = dialect.inout("$float2", "x" .. l)
            end
            c:comment(string.format("The %d-point DFT in place: x[m] <- sum_l x[l] exp(%s2 pi i l m / %d)%s.",
                k, sign < 0 and "-" or "+", k, k == 4 and " (the products by +-i as swaps)" or
                ", each cosine and sine multiplying a sum or a difference once per output pair"))
            c:block(string.format("void %s(%s)", name, table.concat(args, ", ")), function()
                if k == 4 then dft4_body(c, regs, sign) else dft_odd_body(c, regs, sign) end
            end)
            c:blank()
            routines[sign][k] = name
        end
    end
end

-- How R is written out, for comments: "16 = 4 x 4", "5".
function radix.describe(R)
    if R <= 5 or ODD_PRIME[R] then return tostring(R) end
    local parts, rest = {}, R
    while rest > 1 do
        local k = kernel_of(rest)
        parts[#parts + 1] = k
        rest = rest // k
    end
    return string.format("%d = %s", R, table.concat(parts, " x "))
end

return radix
