-- fft_twiddle.lua: twiddle factors w^k = exp(sign 2 pi i k / N) for the FFT template:
-- exact compile-time constants where k is known when the shader is generated, the
-- device function where it depends on the invocation, and the host table for --twiddles lut.
local twiddle = {}

-- A float literal that reads back as exactly the float nearest to x in every target (the
-- value is rounded to binary32 first, then printed with enough digits to round-trip).
function twiddle.literal(x)
    x = string.unpack("<f", string.pack("<f", x))
    if x == 0 then return "0.0f" end
    local s = string.format("%.9g", x)
    if not s:find("[.eEn]") then s = s .. ".0" end
    return s .. "f"
end

-- (cos, sin) of 2 pi k / N in double, with the sign of the transform on sin.
function twiddle.value(k, n_points, sign)
    local a = 2 * math.pi * k / n_points
    return math.cos(a), sign * math.sin(a)
end

-- How to multiply value expression `v` by the constant w^k: nil when w^k = 1 (no
-- multiplication), else an expression. w^(N/4) = -i (forward) or +i (inverse) is a swap.
function twiddle.times_constant(v, k, n_points, sign, float2)
    k = k % n_points
    if k == 0 then return nil end
    if 4 * k == n_points then
        return sign < 0 and string.format("%s(%s.y, -%s.x)", float2, v, v)
            or string.format("%s(-%s.y, %s.x)", float2, v, v)
    end
    local c, s = twiddle.value(k, n_points, sign)
    return string.format("fft_mul(%s, %s(%s, %s))", v, float2, twiddle.literal(c), twiddle.literal(s))
end

-- Taylor coefficients of cos(2 pi x) and sin(2 pi x) in x (turns), through x^10 and x^9:
-- on |x| <= 1/8 the first omitted terms are below 1.2e-10 and 1.7e-9.
local function coefficients()
    local tau = 2 * math.pi
    local sin_c, cos_c = {}, {}
    local fact = 1
    for p = 1, 10 do
        fact = fact * p
        local term = tau ^ p / fact
        if p % 2 == 1 then
            sin_c[#sin_c + 1] = ((p // 2) % 2 == 0 and 1 or -1) * term
        else
            cos_c[#cos_c + 1] = ((p // 2) % 2 == 0 and 1 or -1) * term
        end
    end
    return sin_c, cos_c
end
twiddle.coefficients = coefficients

-- Horner's rule into writer c, one step per line: var = c_i + x2 * var from the highest
-- coefficient down; `last` wraps the lowest step (the same operations, in the same order,
-- as one nested expression). Both device twiddles (here and twiddle_any.lua) use it.
function twiddle.emit_horner(c, var, coef, last)
    local L = twiddle.literal
    c:line("float %s = %s;", var, L(coef[#coef]))
    for i = #coef - 1, 2, -1 do c:line("%s = %s + x2 * %s;", var, L(coef[i]), var) end
    c:line("%s = %s;", var, string.format(last, string.format("%s + x2 * %s", L(coef[1]), var)))
end

-- The device function `name`(k) = w^k: for 0 <= k < N/2, or with full_circle for
-- 0 <= k < N (the four-step twiddle between passes), emitted into writer c.
function twiddle.emit_device_function(c, n_points, sign, name, full_circle)
    local L = twiddle.literal
    local sin_c, cos_c = coefficients()
    local function horner(var, coef, last) twiddle.emit_horner(c, var, coef, last) end
    local range = full_circle and n_points or n_points // 2
    c:comment(string.format("w^k = exp(%s2 pi i k / %d) for 0 <= k < %d, from the integer k rather " ..
        "than a rounded angle: exact integer steps reduce k to m <= N/8 (an angle of at most pi/4) " ..
        "by cos(pi/2 - a) = sin(a) and quarter turns, x = m / N is exact, and Taylor polynomials " ..
        "of cos and sin of 2 pi x are accurate to about one ulp there. Not the built-in sin/cos: " ..
        "Vulkan allows them 2^-11 of absolute error, far above the FFT's accuracy bar.",
        sign < 0 and "-" or "", n_points, range))
    c:block(string.format("$float2 %s(uint k)", name), function()
        local quarter, eighth = n_points // 4, n_points // 8
        if full_circle then
            c:line("uint quadrant = k / %du;", quarter)
        else
            c:line("bool second_quadrant = k >= %du;", quarter)
        end
        c:note(string.format("uint r = k & %du;", quarter - 1), string.format("k mod %d: the step within its quarter turn",
            quarter))
        c:line("bool past_octant = r > %du;", eighth)
        c:line("uint m = past_octant ? %du - r : r;", quarter)
        c:line("float x = float(m) * %s;", L(1 / n_points))
        c:line("float x2 = x * x;")
        c:comment("sin(2 pi x) = x * (s0 + x2 * (s1 + ...)) and cos(2 pi x) = 1 + x2 * (c1 + ...), " ..
            "by Horner's rule.")
        horner("s", sin_c, "x * (%s)")
        horner("c", cos_c, "1.0f + x2 * (%s)")
        c:line("$float2 w = past_octant ? $float2(s, c) : $float2(c, s);")
        if full_circle then
            c:note("w = (quadrant & 1u) != 0u ? $float2(-w.y, w.x) : w;", "an odd quarter turn: times i")
            c:line("w = quadrant >= 2u ? -w : w;")
        else
            c:line("w = second_quadrant ? $float2(-w.y, w.x) : w;")
        end
        c:line(sign < 0 and "return $float2(w.x, -w.y);" or "return w;")
    end)
end

return twiddle
