-- wgsl_types.lua: the types of the templates' C-like subset as targets/wgsl_write.lua
-- tracks them, and how WGSL spells and converts them. WGSL converts nothing implicitly
-- (a u32 never becomes an f32, a scalar never a vector) where C, GLSL, HLSL and MSL do, so
-- the writer needs each expression's type to spell the conversions the others imply.
--
-- A type is a string for scalars and vectors ("float", "uint3", "half4", "bool"; "aint"
-- and "afloat" for unsuffixed literals, which WGSL converts to whatever they meet) or a
-- table: { array = type, count = n }, { struct = name, fields = { name = type } },
-- { texture = "float" | "uint" }, { sampler = true }, { atomic = true }, { pointer = type }.
local types = {}

local SCALAR = { float = "f32", half = "f16", uint = "u32", int = "i32", bool = "bool" }
-- C's usual arithmetic conversions: the operand of lower rank converts to the other's kind.
local RANK = { bool = 0, int = 1, uint = 2, half = 3, float = 4 }

-- Is `name` an abstract scalar or vector type name the templates use?
function types.is_value(name)
    if type(name) ~= "string" then return false end
    local kind, n = name:match("^(%a+)([234]?)$")
    return kind ~= nil and (SCALAR[kind] ~= nil or kind == "aint" or kind == "afloat") and
        (n == "" or kind ~= "aint" and kind ~= "afloat")
end

-- The scalar kind and the component count (1 for a scalar) of a value type.
function types.shape(t)
    if type(t) ~= "string" then return nil, 0 end
    local kind, n = t:match("^(%a+)([234]?)$")
    return kind, tonumber(n) or 1
end

function types.make(kind, n)
    if n == 1 then return kind end
    if kind == "aint" then kind = "int" elseif kind == "afloat" then kind = "float" end
    return kind .. n
end

function types.is_abstract(t) return t == "aint" or t == "afloat" end

-- WGSL's spelling of a type.
function types.spell(t)
    if type(t) == "table" then
        if t.array then return string.format("array<%s, %d>", types.spell(t.array), t.count) end
        error("wgsl: no spelling for a " .. (t.struct and "struct" or "resource") .. " type")
    end
    local kind, n = types.shape(t)
    if kind == "aint" then kind = "int" elseif kind == "afloat" then kind = "float" end
    local s = SCALAR[kind]
    if not s then error("wgsl: unknown type " .. tostring(t)) end
    return n == 1 and s or string.format("vec%d<%s>", n, s)
end

-- The kind two operands of an arithmetic operator meet at (abstract literals take the
-- other's; otherwise C's ranks).
function types.common_kind(a, b)
    if a == b then return a end
    if types.is_abstract(a) and types.is_abstract(b) then return "afloat" end
    if types.is_abstract(a) then return b == "bool" and a or b end
    if types.is_abstract(b) then return a == "bool" and b or a end
    return RANK[a] >= RANK[b] and a or b
end

-- Text of expression `text` (of type `from`) converted to type `to`: unchanged where WGSL
-- takes it as it is (the same type, or an abstract literal of a numeric type).
function types.convert(text, from, to)
    if type(from) ~= "string" or type(to) ~= "string" or from == to then return text, false end
    local fk, fn = types.shape(from)
    local tk, tn = types.shape(to)
    if types.is_abstract(from) and tk ~= "bool" and (fn == tn or tn > 1) then
        if tn == 1 then return text, false end
        return types.spell(to) .. "(" .. text .. ")", true
    end
    if fk == tk and fn == tn then return text, false end
    if fn == 1 and tn > 1 then
        -- A scalar meeting a vector: splat it (converted first where the kinds differ).
        local scalar = fk == tk and text or (types.spell(tk) .. "(" .. text .. ")")
        return types.spell(to) .. "(" .. scalar .. ")", true
    end
    return types.spell(types.make(tk, fn)) .. "(" .. text .. ")", true
end

-- Built-in functions by what they return: the arguments' common type (`same`; vectors
-- win, scalars are splatted), the component kind of the first (`scalar`), the first
-- argument's type (`first`), or a fixed type.
types.BUILTINS = {
    min = "same", max = "same", clamp = "same", abs = "same", floor = "same", ceil = "same",
    round = "same", fract = "same", sqrt = "same", exp = "same", exp2 = "same", log = "same",
    log2 = "same", pow = "same", sin = "same", cos = "same", tan = "same", sign = "same",
    trunc = "same", saturate = "same", fma = "same", step = "same", smoothstep = "same",
    atan = "same", asin = "same", acos = "same", inverseSqrt = "same", reverseBits = "same",
    countOneBits = "same", normalize = "first", mix = "mix",
    dot = "scalar", length = "scalar", distance = "scalar",
    -- What targets/wgsl.lua's hooks write.
    subgroupShuffle = "first", subgroupShuffleXor = "first", quadBroadcast = "first",
    quadSwapX = "first", quadSwapY = "first", quadSwapDiagonal = "first",
    workgroupUniformLoad = "pointee",
    textureLoad = "texel", textureSampleLevel = "float4", textureStore = "void",
    atomicAdd = "uint", atomicMin = "uint", atomicMax = "uint", atomicLoad = "uint",
    atomicStore = "void", workgroupBarrier = "void", storageBarrier = "void",
    pack2x16float = "uint", unpack2x16float = "float2",
}

return types
