-- twiddle_any.lua: the device twiddle w^k = exp(sign 2 pi i k / N) for any N (the
-- power-of-two path's fft_twiddle, templates/fft/twiddle.lua, reduces by exact binary
-- fractions, which needs 8 | N). The angle is 2 pi k / N = (pi / 4)(octant + r / N) with
-- 8k = octant N + r, both exact integers; an odd octant turns r into N - r, so the
-- polynomials (twiddle.lua's Taylor coefficients, accurate to about one ulp up to an eighth
-- turn) see x = r / (8N) <= 1/8 of a turn, and quarter turns and a reflection place it.
-- x = float(r) * (1 / 8N) rounds 1/(8N) once more than a power of two would: half an ulp.
local twiddle = require("templates.fft.twiddle")

local any = {}

local L = twiddle.literal

-- Taylor coefficients of cos(2 pi x) and sin(2 pi x), twiddle.lua's.
local coefficients = twiddle.coefficients

-- `name`(k) = exp(sign 2 pi i k / n) for 0 <= k < n (8 n < 2^32), into writer c.
function any.emit_device_function(c, n, sign, name)
    local sin_c, cos_c = coefficients()
    local function horner(var, coef, last) twiddle.emit_horner(c, var, coef, last) end
    c:comment(string.format("w^k = exp(%s2 pi i k / %d) for 0 <= k < %d, from the integer k rather " ..
        "than a rounded angle: 8k = octant x %d + r exactly, an odd octant reflects r to %d - r, so " ..
        "x = r / %d is at most an eighth of a turn, where Taylor polynomials of cos and sin of 2 pi x " ..
        "are accurate to about one ulp; quarter turns and the reflection place the result. Not the " ..
        "built-in sin/cos: Vulkan allows them 2^-11 of absolute error.", sign < 0 and "-" or "", n, n,
        n, n, 8 * n))
    c:block(string.format("$float2 %s(uint k)", name), function()
        c:line("uint octant = (k * 8u) / %du;", n)
        c:note(string.format("uint r = k * 8u - octant * %du;", n), "8k mod N")
        c:line("bool odd = (octant & 1u) != 0u;")
        c:line("float x = float(odd ? %du - r : r) * %s;", n, L(1 / (8 * n)))
        c:line("float x2 = x * x;")
        horner("s", sin_c, "x * (%s)")
        horner("c", cos_c, "1.0f + x2 * (%s)")
        c:comment("An odd octant is the next quarter turn minus x; then whole quarter turns.")
        c:line("$float2 w = odd ? $float2(c, -s) : $float2(c, s);")
        c:line("uint quarter = (octant + 1u) >> 1u;")
        c:line("w = (quarter & 1u) != 0u ? $float2(-w.y, w.x) : w;")
        c:line("w = (quarter & 2u) != 0u ? -w : w;")
        c:line(sign < 0 and "return $float2(w.x, -w.y);" or "return w;")
    end)
end

-- The stage twiddles of an n-point FFT: fft_twiddle of `sign`, or with both (a forward FFT and
-- an inverse in one shader) fft_twiddle (forward) and fft_twiddle_inverse; then a blank line.
function any.emit_stage_functions(c, n, sign, both)
    if both then
        any.emit_device_function(c, n, -1, "fft_twiddle")
        c:blank()
        any.emit_device_function(c, n, 1, "fft_twiddle_inverse")
    else
        any.emit_device_function(c, n, sign, "fft_twiddle")
    end
    c:blank()
end

return any
