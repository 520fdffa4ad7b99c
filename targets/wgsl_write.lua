-- wgsl_write.lua: the templates' C-like subset (read by targets/wgsl_parse.lua) written as
-- WGSL, line for line: each construct is written on the line it came from, with the same
-- indentation and comments, so the WGSL reads like the other targets' output.
--
-- What changes: declarations (`float4 v = e;` -> `var v: vec4<f32> = e;`), functions
-- (`fn f(a: f32) -> f32`; a parameter the body assigns is copied into a var, WGSL's
-- parameters being constant), type names, ?: (select(): both sides are evaluated, which
-- the templates' side-effect-free operands allow), do-while (a loop whose continuing
-- block tests the condition), braces around every conditional body, parentheses where
-- WGSL requires them (it has no precedence between bitwise operators, nor between them or
-- shifts and other operators), integer and vector conversions C makes implicitly, scalars
-- splatted where WGSL's bitwise operators and built-ins want two vectors, non-bool
-- conditions compared with zero, and identifiers WGSL reserves renamed (name_).
local T = require("targets.wgsl_types")

local write = {}

-- The longest line (templates/lib/emit.lua's WIDTH, which wraps code but not a note after it).
local WIDTH = 100

-- WGSL's reserved words (the WGSL specification's list) and keywords a template might use
-- as a name.
local RESERVED = {}
for word in ([[alias const const_assert continuing default diagnostic discard enable fn let loop
    override requires struct switch var abstract active alignas alignof as asm asm_fragment async
    attribute auto await become cast catch class co_await co_return co_yield coherent
    column_major common compile compile_fragment concept const_cast consteval constexpr constinit
    crate debugger decltype delete demote demote_to_helper do dynamic_cast enum explicit export
    extends extern external fallthrough filter final finally friend from fxgroup get goto
    groupshared highp impl implements import inline instanceof interface layout lowp macro
    macro_rules match mediump meta mod module move mut mutable namespace new nil noexcept
    noinline nointerpolation non_coherent noncoherent noperspective null nullptr of operator
    package packoffset partition pass patch pixelfragment precise precision premerge priv
    protected pub public readonly ref regardless register reinterpret_cast require resource
    restrict self set shared sizeof smooth snorm static static_assert static_cast std subroutine
    super target template this thread_local throw trait try type typedef typeid typename typeof
    union unless unorm unsafe unsized use using varying virtual volatile wgsl where with
    writeonly yield]]):gmatch("%S+") do
    RESERVED[word] = true
end
local function name_of(name) return RESERVED[name] and name .. "_" or name end

local ARITHMETIC = { ["+"] = 2, ["-"] = 2, ["*"] = 3, ["/"] = 3, ["%"] = 3 }
local SHIFT = { ["<<"] = true, [">>"] = true }
local RELATIONAL = { ["<"] = true, [">"] = true, ["<="] = true, [">="] = true, ["=="] = true, ["!="] = true }
local BITWISE = { ["&"] = true, ["|"] = true, ["^"] = true }
local LOGICAL = { ["&&"] = true, ["||"] = true }

-- May an operand of class `inner` (an operator, or "primary") stand unparenthesized as
-- operand `side` of operator `outer`? WGSL's grammar: bitwise and shift operands are unary
-- expressions (a chain of one bitwise operator aside), relational operands are shift or
-- arithmetic expressions, logical operands relational ones (one chain operator aside).
local function fits(outer, inner, side)
    if inner == "primary" then return true end
    if ARITHMETIC[outer] then
        return ARITHMETIC[inner] ~= nil and (ARITHMETIC[inner] > ARITHMETIC[outer] or
            (ARITHMETIC[inner] == ARITHMETIC[outer] and side == "l"))
    elseif SHIFT[outer] then
        return false
    elseif RELATIONAL[outer] then
        return ARITHMETIC[inner] ~= nil or SHIFT[inner] ~= nil
    elseif BITWISE[outer] then
        return inner == outer and side == "l"
    elseif LOGICAL[outer] then
        return RELATIONAL[inner] ~= nil or (inner == outer and side == "l")
    end
    return false
end

local function wrap(text, class, outer, side)
    if fits(outer, class, side) then return text end
    return "(" .. text .. ")"
end

-- ---- the writer's state: scopes and functions -----------------------------------------------

local W = {}
W.__index = W

function W:fail(line, what)
    error(string.format("wgsl: line %d: %s: %s", line, what, self.lines[line] or ""), 0)
end

function W:push() self.scopes[#self.scopes + 1] = {} end
function W:pop() self.scopes[#self.scopes] = nil end
function W:declare(name, type) self.scopes[#self.scopes][name] = type end
function W:lookup(name)
    for i = #self.scopes, 1, -1 do
        local t = self.scopes[i][name]
        if t ~= nil then return t end
    end
    return self.globals[name]
end

-- ---- expressions: each returns its WGSL text, type and class ------------------------------

-- A value used as a condition: non-bool values compare with zero.
function W:condition(e)
    local text, type, class = self:expr(e)
    if type == "bool" then return text, class end
    local kind, n = T.shape(type)
    if n ~= 1 or not kind then self:fail(e.line, "a condition that is not a scalar") end
    local zero = kind == "uint" and "0u" or (kind == "float" or kind == "afloat") and "0.0" or "0"
    return wrap(text, class, "!=", "l") .. " != " .. zero, "!="
end

-- The common type of operands (vectors win; kinds meet per wgsl_types.common_kind).
local function common(types_list)
    local kind, n
    for _, t in ipairs(types_list) do
        local k, m = T.shape(t)
        if not k then return nil end
        kind = kind and T.common_kind(kind, k) or k
        n = math.max(n or 1, m)
    end
    return T.make(kind, n)
end

function W:binary(e)
    local op = e.op
    local lt, ltype, lclass = self:expr(e.l)
    local rt, rtype, rclass = self:expr(e.r)
    if LOGICAL[op] then
        lt, lclass = self:condition(e.l)
        rt, rclass = self:condition(e.r)
        return wrap(lt, lclass, op, "l") .. " " .. op .. " " .. wrap(rt, rclass, op, "r"), "bool", op
    end
    local lk, ln = T.shape(ltype)
    local rk, rn = T.shape(rtype)
    if not lk or not rk then self:fail(e.line, "operator " .. op .. " on a value that is not a number") end
    local result
    if SHIFT[op] then
        -- The amount is u32 (a vector of them for a vector).
        local amount = T.make(T.is_abstract(rk) and rk or "uint", ln)
        if not T.is_abstract(rk) or ln > 1 then
            local converted, changed = T.convert(rt, rtype, amount)
            if changed then rt, rclass = converted, "primary" end
        end
        result = ltype
    else
        -- Both sides at the common type; arithmetic keeps a scalar beside a vector.
        local kind = T.common_kind(lk, rk)
        local n = math.max(ln, rn)
        local keep_scalar = ARITHMETIC[op] ~= nil
        local lto = T.make(kind, (keep_scalar and ln == 1) and 1 or n)
        local rto = T.make(kind, (keep_scalar and rn == 1) and 1 or n)
        local c1, ch1 = T.convert(lt, ltype, lto)
        local c2, ch2 = T.convert(rt, rtype, rto)
        if ch1 then lt, lclass = c1, "primary" end
        if ch2 then rt, rclass = c2, "primary" end
        result = RELATIONAL[op] and "bool" or T.make(kind, n)
        if RELATIONAL[op] and n > 1 then self:fail(e.line, "a comparison of vectors") end
    end
    return wrap(lt, lclass, op, "l") .. " " .. op .. " " .. wrap(rt, rclass, op, "r"), result, op
end

-- Arguments converted to one type (`to`), each text.
function W:args_as(args, to)
    local out = {}
    for i, a in ipairs(args) do
        local text, type = self:expr(a)
        out[i] = (T.convert(text, type, to))
    end
    return out
end

function W:call(e)
    if e.fn.k ~= "id" then self:fail(e.line, "a call of something that is not a name") end
    local name = e.fn.name
    -- Constructors and conversions: each argument converted to the components it fills.
    if T.is_value(name) and not T.is_abstract(name) then
        local kind, n = T.shape(name)
        local out = {}
        if #e.args == 1 then
            local text, type = self:expr(e.args[1])
            local _, an = T.shape(type)
            if n > 1 and an == n then
                out[1] = type == name and text or (T.spell(name) .. "(" .. text .. ")")
                return out[1], name, "primary"
            end
            out[1] = (T.convert(text, type, T.make(kind, an)))
            if n == 1 and an == 1 then return T.spell(name) .. "(" .. out[1] .. ")", name, "primary" end
        else
            for i, a in ipairs(e.args) do
                local text, type = self:expr(a)
                local _, an = T.shape(type)
                out[i] = (T.convert(text, type, T.make(kind, an)))
            end
        end
        return T.spell(name) .. "(" .. table.concat(out, ", ") .. ")", name, "primary"
    end
    local f = self.functions[name]
    if f then
        local out = {}
        if #e.args ~= #f.params then self:fail(e.line, name .. " takes " .. #f.params .. " arguments") end
        for i, a in ipairs(e.args) do
            local text, type = self:expr(a)
            if f.params[i].inout then
                -- A pointer to the caller's var (function address space).
                if a.k ~= "id" or type ~= f.params[i].type then
                    self:fail(e.line, name .. "'s in-out argument " .. i .. " is not a var of its type")
                end
                out[i] = "&" .. text
            else
                out[i] = (T.convert(text, type, f.params[i].type))
            end
        end
        return name_of(name) .. "(" .. table.concat(out, ", ") .. ")", f.ret, "primary"
    end
    local rule = T.BUILTINS[name]
    if not rule then self:fail(e.line, "unknown function " .. name) end
    local texts, types_list = {}, {}
    for i, a in ipairs(e.args) do texts[i], types_list[i] = self:expr(a) end
    local result
    if rule == "same" or rule == "mix" then
        local group = rule == "mix" and #e.args == 3 and { types_list[1], types_list[2] } or types_list
        local to = common(group)
        if not to then self:fail(e.line, name .. " of a value that is not a number") end
        for i = 1, #group do texts[i] = (T.convert(texts[i], types_list[i], to)) end
        if rule == "mix" and #e.args == 3 then
            local kind = T.shape(to)
            local _, an = T.shape(types_list[3])
            texts[3] = (T.convert(texts[3], types_list[3], T.make(kind, an)))
        end
        result = to
    elseif rule == "scalar" then
        result = (T.shape(types_list[1]))
    elseif rule == "first" then
        result = types_list[1]
    elseif rule == "pointee" then
        result = type(types_list[1]) == "table" and types_list[1].pointer or nil
    elseif rule == "texel" then
        local tex = types_list[1]
        result = type(tex) == "table" and tex.texture and tex.texture .. "4" or nil
    else
        result = rule
    end
    if result == nil then self:fail(e.line, "cannot type the call of " .. name) end
    return name .. "(" .. table.concat(texts, ", ") .. ")", result, "primary"
end

function W:expr(e)
    local k = e.k
    if k == "num" then
        local v = e.v
        local body, suffix = v:match("^(.-)([uUfFhH]?[fF]?)$")
        if v:match("^0[xX]") then body, suffix = v:match("^(0[xX]%x+)([uU]?)$") end
        suffix = suffix:lower()
        if suffix == "hf" then suffix = "h" end
        local float = body:match("[%.eE]") and not v:match("^0[xX]")
        local type = suffix == "u" and "uint" or suffix == "f" and "float" or suffix == "h" and "half"
            or (float and "afloat" or "aint")
        return body .. suffix, type, "primary"
    elseif k == "bool" then
        return e.v, "bool", "primary"
    elseif k == "id" then
        local t = self:lookup(e.name)
        if t == nil then self:fail(e.line, "unknown name " .. e.name) end
        return name_of(e.name), t, "primary"
    elseif k == "paren" then
        local text, type = self:expr(e.e)
        return "(" .. text .. ")", type, "primary"
    elseif k == "call" then
        return self:call(e)
    elseif k == "index" then
        local text, type, class = self:expr(e.base)
        local index = self:expr(e.index)
        local elem
        if type == nil then self:fail(e.line, "an index of an unknown value") end
        if _G.type(type) == "table" then elem = type.array
        else elem = (T.shape(type)) end
        return wrap(text, class, "[]") .. "[" .. index .. "]", elem, "primary"
    elseif k == "member" then
        local text, type, class = self:expr(e.base)
        local t
        if _G.type(type) == "table" and type.struct then
            t = type.fields[e.name]
            if not t then self:fail(e.line, "no member " .. e.name) end
        else
            local kind = T.shape(type)
            if not kind or not e.name:match("^[xyzwrgba]+$") then self:fail(e.line, "a member of a value") end
            t = T.make(kind, #e.name)
        end
        return text .. "." .. e.name, t, "primary"
    elseif k == "unary" then
        if e.op == "&" then
            local text, type = self:expr(e.e)
            return "&" .. text, { pointer = type }, "primary"
        elseif e.op == "!" then
            local text, type, class = self:expr(e.e)
            if type ~= "bool" then
                text, class = self:condition(e.e)
                return "!(" .. text .. ")", "bool", "primary"
            end
            return "!" .. wrap(text, class, "unary"), "bool", "primary"
        end
        local text, type, class = self:expr(e.e)
        if e.op == "+" then return text, type, class end
        return e.op .. wrap(text, class, "unary"), type, "primary"
    elseif k == "binary" then
        return self:binary(e)
    elseif k == "ternary" then
        local c = self:condition(e.c)
        local at, atype = self:expr(e.a)
        local bt, btype = self:expr(e.b)
        local to = common({ atype, btype }) or atype
        at = T.convert(at, atype, to)
        bt = T.convert(bt, btype, to)
        return string.format("select(%s, %s, %s)", bt, at, c), to, "primary"
    end
    self:fail(e.line, "an expression the writer does not know (" .. tostring(k) .. ")")
end

-- ---- statements: written as pieces of their source lines ---------------------------------

-- A piece of WGSL on source line `line`; `indent` starts a new output line that many levels
-- deeper than the source line.
function W:put(line, text, indent)
    local pieces = self.pieces[line]
    if not pieces then pieces = {}; self.pieces[line] = pieces end
    pieces[#pieces + 1] = { text = text, indent = indent }
end

function W:assignment(s)
    local lt, ltype = self:expr(s.l)
    local rt, rtype = self:expr(s.r)
    if s.l.k == "member" and #s.l.name > 1 then self:fail(s.line, "an assignment to a swizzle") end
    if s.op == "=" then
        return lt .. " = " .. (T.convert(rt, rtype, ltype))
    end
    local op = s.op:sub(1, -2)
    local lk, ln = T.shape(ltype)
    local rk, rn = T.shape(rtype)
    if SHIFT[op] then
        if not T.is_abstract(rk) or ln > 1 then rt = (T.convert(rt, rtype, T.make("uint", ln))) end
    else
        local keep_scalar = ARITHMETIC[op] ~= nil and rn == 1
        rt = (T.convert(rt, rtype, T.make(lk, keep_scalar and 1 or ln)))
    end
    return lt .. " " .. s.op .. " " .. rt
end

-- The text of a for loop's init or step, or a statement's, without its semicolon.
function W:simple(s)
    if s.k == "assign" then return self:assignment(s) end
    if s.k == "incr" then
        local text = self:expr(s.e)
        return text .. s.op
    end
    if s.k == "decl" then return self:declaration(s) end
    local text, _, class = self:expr(s.e)
    if s.e.k ~= "call" then self:fail(s.line, "an expression statement that is not a call") end
    return text
end

function W:declaration(s)
    local out = {}
    for _, v in ipairs(s.vars) do
        local type = s.type
        if v.count then
            if v.count.k ~= "num" then self:fail(s.line, "an array size that is not a number") end
            type = { array = s.type, count = tonumber(v.count.v:match("^%d+")) }
        end
        local text = "var " .. name_of(v.name) .. ": " .. T.spell(type)
        if v.init then
            local it, itype = self:expr(v.init)
            text = text .. " = " .. (T.convert(it, itype, type))
        end
        self:declare(v.name, type)
        out[#out + 1] = text
    end
    return table.concat(out, "; ")
end

-- Does statement s contain a `continue` of its own loop (not of a loop inside it)?
local function continues(s)
    if type(s) ~= "table" then return false end
    if s.k == "continue" then return true end
    if s.k == "for" or s.k == "while" or s.k == "do" then return false end
    for _, v in pairs(s) do
        if type(v) == "table" and continues(v) then return true end
    end
    return false
end

-- Writes a statement's body as braced statements: a block's statements, or one statement
-- in braces. Returns the last source line written.
function W:body(s, open_line)
    self:push()
    local last
    if s.k == "block" then
        for _, st in ipairs(s.stmts) do self:statement(st) end
        last = s.close
    else
        last = self:statement(s)
    end
    self:pop()
    return last
end

-- Writes statement s; returns the last source line it took.
function W:statement(s)
    local k, line = s.k, s.line
    if k == "block" then
        self:put(line, "{")
        local last = self:body(s)
        self:put(last, "}")
        return last
    elseif k == "decl" then
        self:put(line, self:declaration(s) .. ";")
    elseif k == "assign" or k == "incr" or k == "expr" then
        self:put(line, self:simple(s) .. ";")
    elseif k == "empty" then
        return line
    elseif k == "return" then
        if s.e then
            local text, type = self:expr(s.e)
            self:put(line, "return " .. (T.convert(text, type, self.ret)) .. ";")
        else
            self:put(line, "return;")
        end
    elseif k == "break" or k == "continue" then
        self:put(line, k .. ";")
    elseif k == "if" then
        local cond = self:condition(s.cond)
        self:put(line, "if (" .. cond .. ") {")
        local last = self:body(s.body)
        self:put(last, "}")
        if s.else_body then
            if s.else_body.k == "if" then
                self:put(s.else_line, "else")
                return self:statement(s.else_body)
            end
            self:put(s.else_line, "else {")
            last = self:body(s.else_body)
            self:put(last, "}")
        end
        return last
    elseif k == "for" then
        self:push()
        local init = s.init and self:simple(s.init) or ""
        local cond = s.cond and (self:condition(s.cond)) or ""
        local step = s.step and self:simple(s.step) or ""
        self:put(line, string.format("for (%s; %s; %s) {", init, cond, step))
        local last = self:body(s.body)
        self:put(last, "}")
        self:pop()
        return last
    elseif k == "while" then
        self:put(line, "while (" .. self:condition(s.cond) .. ") {")
        local last = self:body(s.body)
        self:put(last, "}")
        return last
    elseif k == "switch" then
        self:put(line, "switch (" .. (self:expr(s.e)) .. ") {")
        local default = false
        for _, clause in ipairs(s.clauses) do
            local labels = {}
            for i, l in ipairs(clause.labels) do labels[i] = (self:expr(l)) end
            if clause.default then labels[#labels + 1] = "default"; default = true end
            local head = clause.default and #labels == 1 and "default" or ("case " .. table.concat(labels, ", "))
            self:put(clause.line, head .. ": {")
            self:push()
            local last = clause.line
            for _, st in ipairs(clause.stmts) do last = self:statement(st) end
            self:pop()
            self:put(last, "}")
        end
        -- WGSL requires a default clause.
        if not default then self:put(s.close, "default: {}", 1) end
        self:put(s.close, "}", 0)
        return s.close
    elseif k == "do" then
        -- do { body } while (c): a loop whose continuing block leaves once c is false; with
        -- c = false and no continue, a break at the end of the body.
        self:put(line, "loop {")
        self:body(s.body)
        local constant_false = s.cond.k == "bool" and s.cond.v == "false"
        if constant_false and not continues(s.body) then
            self:put(s.end_line, "break;", 1)
        else
            local cond = constant_false and "true" or ("!(" .. self:condition(s.cond) .. ")")
            self:put(s.end_line, "continuing { break if " .. cond .. "; }", 1)
        end
        self:put(s.end_line, "}", 0)
        return s.end_line
    else
        self:fail(line, "a statement the writer does not know (" .. tostring(k) .. ")")
    end
    return line
end

-- Does the body assign parameter `name` (so it needs a var)?
local function assigns(s, name)
    if type(s) ~= "table" then return false end
    if (s.k == "assign" or s.k == "incr") then
        local target = s.k == "assign" and s.l or s.e
        while target.k == "member" or target.k == "index" do target = target.base end
        if target.k == "id" and target.name == name then return true end
    end
    for _, v in pairs(s) do
        if type(v) == "table" and assigns(v, name) then return true end
    end
    return false
end

-- Does the body return (anywhere)?
local function returns(s)
    if type(s) ~= "table" then return false end
    if s.k == "return" then return true end
    for _, v in pairs(s) do
        if type(v) == "table" and returns(v) then return true end
    end
    return false
end

-- A function. An in-out parameter (WGSL has none) is a pointer to the caller's var, copied
-- into a var of its name on entry and back through the pointer at the end, so the body
-- reads as the template wrote it. A signature longer than a line continues on the next
-- lines, its parameters indented.
function W:func(f)
    local params, copies, backs = {}, {}, {}
    self:push()
    for _, p in ipairs(f.params) do
        local pname = name_of(p.name)
        if p.inout then
            if returns(f.body) then self:fail(f.line, "a return in a function with in-out parameters") end
            copies[#copies + 1] = string.format("var %s = *%s_io;", pname, pname)
            backs[#backs + 1] = string.format("*%s_io = %s;", pname, pname)
            params[#params + 1] = string.format("%s_io: ptr<function, %s>", pname, T.spell(p.type))
        else
            if assigns(f.body, p.name) then
                copies[#copies + 1] = string.format("var %s = %s_in;", pname, pname)
                pname = pname .. "_in"
            end
            params[#params + 1] = pname .. ": " .. T.spell(p.type)
        end
        self:declare(p.name, p.type)
    end
    local ret = f.ret == "void" and "" or (" -> " .. T.spell(f.ret))
    local indent = #(self.lines[f.line]:match("^ *"))
    local head = string.format("fn %s(", name_of(f.name))
    local tail = ")" .. ret .. " {"
    local rows, row = {}, head
    for i, p in ipairs(params) do
        local piece = p .. (i < #params and "," or tail)
        local lead = indent + (#rows > 0 and 4 or 0)
        if row ~= head and lead + #row + 1 + #piece > WIDTH then
            rows[#rows + 1], row = row, piece
        else
            row = row .. (row == head and "" or " ") .. piece
        end
    end
    rows[#rows + 1] = #params == 0 and row .. tail or row
    for i, r in ipairs(rows) do self:put(f.line, r, i > 1 and 1 or nil) end
    for _, c in ipairs(copies) do self:put(f.line, c, 1) end
    self.ret = f.ret
    local last = self:body(f.body)
    for _, b in ipairs(backs) do self:put(last, b, 1) end
    self:put(last, "}", #backs > 0 and 0 or nil)
    self:pop()
end

-- lines: the shader's lines (comments, WGSL declarations, the subset); tree: wgsl_parse's;
-- globals: name -> type of what the interface declares; returns the WGSL lines.
function write.lines(lines, tree, globals)
    local w = setmetatable({ lines = lines, scopes = {}, globals = globals, pieces = {},
        functions = {} }, W)
    local verbatim = {}
    for _, item in ipairs(tree.items) do
        if item.k == "func" then
            local params = {}
            for i, p in ipairs(item.params) do params[i] = { type = p.type, inout = p.inout } end
            w.functions[item.name] = { params = params, ret = item.ret }
        end
    end
    for _, item in ipairs(tree.items) do
        if item.k == "wgsl" then
            for n = item.first, item.last do verbatim[n] = true end
        elseif item.k == "func" then
            w:func(item)
        elseif item.k == "entry" then
            w.ret = "void"
            local last = w:body(item.body)
            w:put(last, "}")
        end
    end
    local out = {}
    for n, text in ipairs(lines) do
        local indent = text:match("^ *")
        local pieces = w.pieces[n]
        if verbatim[n] then
            out[#out + 1] = text
        elseif pieces then
            local first, current = #out + 1, nil
            for _, p in ipairs(pieces) do
                if current == nil or p.indent then
                    current = #out + 1
                    out[current] = indent .. string.rep("    ", p.indent or 0) .. p.text
                else
                    out[current] = out[current] .. " " .. p.text
                end
            end
            -- A note after the code where it fits in a line (emit.WIDTH), else above it: the
            -- WGSL is longer than the line the note was placed on.
            local note = tree.comments[n]
            if note and #out[current] + 1 + #note <= WIDTH then
                out[current] = out[current] .. " " .. note
            elseif note then
                table.insert(out, first, indent .. note)
            end
        elseif tree.comments[n] then
            out[#out + 1] = indent .. tree.comments[n]
        elseif not tree.code[n] then
            out[#out + 1] = text
        end
    end
    return out
end

return write
