-- wgsl_parse.lua: reads the C-like subset the templates write (templates/lib/emit.lua) into
-- a tree, for targets/wgsl_write.lua to spell as WGSL, whose declarations, functions,
-- conditionals and loops read differently. It keeps each construct's source line so the
-- WGSL keeps the template's layout and comments.
--
-- The subset: functions `T name(T a, inout T b, ...) { ... }`; declarations `T a = e, b[N];`;
-- assignments (=, op=, ++, --); if/else, for, while, do-while, blocks, return, break,
-- continue; expressions with C's operators and precedence, ?:, calls, [], and `.`. Lines
-- that begin with WGSL's own declarations (what targets/wgsl.lua's declaration hooks
-- write: @, enable, diagnostic, var<, struct, fn) are kept as they are. Anything else is
-- an error naming the line, so nothing outside the subset reaches a shader unnoticed.
local parse = {}

-- Longest first.
local OPERATORS = { "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->" }

local function fail(line, text, what)
    error(string.format("wgsl: line %d: %s: %s", line, what, text), 0)
end

-- Tokens of one line: { k = "id" | "num" | "op", v = text, line = n }.
local function tokenize(text, line, out)
    local i = 1
    while i <= #text do
        local c = text:sub(i, i)
        if c:match("%s") then
            i = i + 1
        elseif text:sub(i, i + 1) == "//" then
            return text:sub(i)
        elseif c:match("[%a_]") then
            local word = text:match("^[%w_]+", i)
            out[#out + 1] = { k = "id", v = word, line = line }
            i = i + #word
        elseif c:match("%d") or (c == "." and text:sub(i + 1, i + 1):match("%d")) then
            local num = text:match("^0[xX]%x+[uU]?", i)
                or text:match("^%d*%.?%d*[eE][-+]?%d+[%a]*", i) or text:match("^%d*%.?%d*[%a]*", i)
            out[#out + 1] = { k = "num", v = num, line = line }
            i = i + #num
        else
            local op
            for _, o in ipairs(OPERATORS) do
                if text:sub(i, i + #o - 1) == o then op = o break end
            end
            op = op or c
            if not op:match("^[-+*/%%<>=!&|^~?:;,.(){}%[%]@]") then fail(line, text, "unexpected '" .. c .. "'") end
            out[#out + 1] = { k = "op", v = op, line = line }
            i = i + #op
        end
    end
    return nil
end

-- The first word of a line that WGSL's own declarations start with.
local WGSL_LINE = { ["@"] = true, enable = true, diagnostic = true, requires = true, struct = true,
    fn = true, alias = true }

local function is_wgsl_line(text)
    local head = text:match("^%s*([%a_@][%w_]*)") or text:match("^%s*(@)")
    if head == "var" then return text:match("^%s*var%s*<") ~= nil end
    return head ~= nil and (WGSL_LINE[head] or text:match("^%s*@") ~= nil)
end

-- ---- expressions ---------------------------------------------------------------------------

-- Binary operators by precedence (C's), lowest first.
local BINARY = {
    ["||"] = 1, ["&&"] = 2, ["|"] = 3, ["^"] = 4, ["&"] = 5, ["=="] = 6, ["!="] = 6,
    ["<"] = 7, [">"] = 7, ["<="] = 7, [">="] = 7, ["<<"] = 8, [">>"] = 8, ["+"] = 9, ["-"] = 9,
    ["*"] = 10, ["/"] = 10, ["%"] = 10,
}
parse.BINARY = BINARY
local ASSIGN = { ["="] = true, ["+="] = true, ["-="] = true, ["*="] = true, ["/="] = true, ["%="] = true,
    ["<<="] = true, [">>="] = true, ["&="] = true, ["|="] = true, ["^="] = true }

local P = {}
P.__index = P

function P:peek(k) return self.toks[self.pos + (k or 0)] end
function P:at(v) local t = self.toks[self.pos] return t and t.v == v end
function P:next()
    local t = self.toks[self.pos]
    if not t then fail(self.last_line, self.source(self.last_line), "unexpected end") end
    self.pos = self.pos + 1
    self.last_line = t.line
    return t
end
function P:expect(v)
    local t = self:next()
    if t.v ~= v then fail(t.line, self.source(t.line), "expected '" .. v .. "', got '" .. t.v .. "'") end
    return t
end
function P:error(t, what) fail(t.line, self.source(t.line), what) end

function P:primary()
    local t = self:next()
    local e
    if t.k == "num" then
        e = { k = "num", v = t.v }
    elseif t.k == "id" then
        if t.v == "true" or t.v == "false" then e = { k = "bool", v = t.v }
        else e = { k = "id", name = t.v } end
    elseif t.v == "(" then
        e = { k = "paren", e = self:expr() }
        self:expect(")")
    else
        self:error(t, "expected an expression, got '" .. t.v .. "'")
    end
    e.line = t.line
    -- Postfix: calls, indexing, members.
    while true do
        if self:at("(") then
            self:next()
            local args = {}
            if not self:at(")") then
                repeat args[#args + 1] = self:expr() until not (self:at(",") and self:next())
            end
            self:expect(")")
            e = { k = "call", fn = e, args = args, line = e.line }
        elseif self:at("[") then
            self:next()
            e = { k = "index", base = e, index = self:expr(), line = e.line }
            self:expect("]")
        elseif self:at(".") then
            self:next()
            local name = self:next()
            if name.k ~= "id" then self:error(name, "expected a member name") end
            e = { k = "member", base = e, name = name.v, line = e.line }
        else
            return e
        end
    end
end

function P:unary()
    local t = self:peek()
    if t and t.k == "op" and (t.v == "-" or t.v == "!" or t.v == "~" or t.v == "+" or t.v == "&") then
        self:next()
        return { k = "unary", op = t.v, e = self:unary(), line = t.line }
    end
    return self:primary()
end

function P:binary(min)
    local l = self:unary()
    while true do
        local t = self:peek()
        local prec = t and t.k == "op" and BINARY[t.v]
        if not prec or prec < min then return l end
        self:next()
        l = { k = "binary", op = t.v, l = l, r = self:binary(prec + 1), line = l.line }
    end
end

-- Conditional expressions (?:, right to left).
function P:expr()
    local c = self:binary(1)
    if not self:at("?") then return c end
    self:next()
    local a = self:expr()
    self:expect(":")
    return { k = "ternary", c = c, a = a, b = self:expr(), line = c.line }
end

-- ---- statements ----------------------------------------------------------------------------

-- Is the token at pos + k a type name (one of the abstract names, or declared types)?
function P:is_type(k)
    local t = self:peek(k)
    return t and t.k == "id" and self.types[t.v] ~= nil
end

-- A declaration starts with a type and a name (`float4 v`), not a constructor call.
function P:at_declaration()
    local t = self:peek()
    if t and t.k == "id" and (t.v == "const" or t.v == "precise") then return true end
    return self:is_type(0) and self:peek(1) and self:peek(1).k == "id"
end

-- `T a = e, b[N], c;` (const and precise qualifiers are dropped: WGSL has neither in
-- this sense; its `var` holds what C's does).
function P:declaration(line, no_semicolon)
    while self:at("const") or self:at("precise") do self:next() end
    local type = self:next().v
    local vars = {}
    repeat
        local name = self:next()
        if name.k ~= "id" then self:error(name, "expected a variable name") end
        local v = { name = name.v }
        if self:at("[") then
            self:next()
            v.count = self:expr()
            self:expect("]")
        end
        if self:at("=") then
            self:next()
            v.init = self:expr()
        end
        vars[#vars + 1] = v
    until not (self:at(",") and self:next())
    if not no_semicolon then self:expect(";") end
    return { k = "decl", type = type, vars = vars, line = line }
end

-- An assignment, increment or expression; no semicolon.
function P:simple()
    local t = self:peek()
    if t.v == "++" or t.v == "--" then
        self:next()
        return { k = "incr", op = t.v, e = self:unary(), line = t.line }
    end
    local e = self:expr()
    local op = self:peek()
    if op and ASSIGN[op.v] then
        self:next()
        return { k = "assign", op = op.v, l = e, r = self:expr(), line = e.line }
    end
    if op and (op.v == "++" or op.v == "--") then
        self:next()
        return { k = "incr", op = op.v, e = e, line = e.line }
    end
    return { k = "expr", e = e, line = e.line }
end

function P:block(open)
    local stmts = {}
    while not self:at("}") do stmts[#stmts + 1] = self:statement() end
    local close = self:next()
    return { k = "block", stmts = stmts, line = open.line, close = close.line }
end

function P:statement()
    local t = self:peek()
    if not t then fail(self.last_line, self.source(self.last_line), "unexpected end of a block") end
    local line = t.line
    if t.v == "{" then
        self:next()
        return self:block(t)
    elseif t.v == ";" then
        self:next()
        return { k = "empty", line = line }
    elseif t.v == "if" then
        self:next()
        self:expect("(")
        local s = { k = "if", cond = self:expr(), line = line }
        self:expect(")")
        s.body = self:statement()
        if self:at("else") then
            s.else_line = self:next().line
            s.else_body = self:statement()
        end
        return s
    elseif t.v == "for" then
        self:next()
        self:expect("(")
        local s = { k = "for", line = line }
        if not self:at(";") then
            s.init = self:at_declaration() and self:declaration(line, true) or self:simple()
        end
        self:expect(";")
        if not self:at(";") then s.cond = self:expr() end
        self:expect(";")
        if not self:at(")") then s.step = self:simple() end
        self:expect(")")
        s.body = self:statement()
        return s
    elseif t.v == "while" then
        self:next()
        self:expect("(")
        local s = { k = "while", cond = self:expr(), line = line }
        self:expect(")")
        s.body = self:statement()
        return s
    elseif t.v == "do" then
        self:next()
        local s = { k = "do", body = self:statement(), line = line }
        s.end_line = self:expect("while").line
        self:expect("(")
        s.cond = self:expr()
        self:expect(")")
        self:expect(";")
        return s
    elseif t.v == "return" then
        self:next()
        local s = { k = "return", line = line }
        if not self:at(";") then s.e = self:expr() end
        self:expect(";")
        return s
    elseif t.v == "break" or t.v == "continue" then
        self:next()
        self:expect(";")
        return { k = t.v, line = line }
    elseif t.v == "switch" then
        return self:switch()
    elseif t.v == "goto" or t.v == "case" or t.v == "default" then
        self:error(t, "'" .. t.v .. "' is outside the subset targets/wgsl_parse.lua reads")
    elseif self:at_declaration() then
        return self:declaration(line)
    end
    local s = self:simple()
    self:expect(";")
    return s
end

-- switch (e) { case A: case B: ... break; default: ... }: clauses of labels (nil: default)
-- and statements, each ending in break (dropped), return or continue; WGSL has no
-- fallthrough.
function P:switch()
    local line = self:next().line
    self:expect("(")
    local s = { k = "switch", e = self:expr(), clauses = {}, line = line }
    self:expect(")")
    self:expect("{")
    local clause
    while not self:at("}") do
        local t = self:peek()
        if t.v == "case" or t.v == "default" then
            self:next()
            if not clause or #clause.stmts > 0 then
                if clause and not clause.closed then self:error(t, "a case that falls through") end
                clause = { labels = {}, stmts = {}, line = t.line }
                s.clauses[#s.clauses + 1] = clause
            end
            if t.v == "case" then clause.labels[#clause.labels + 1] = self:expr()
            else clause.default = true end
            self:expect(":")
        elseif not clause then
            self:error(t, "a statement before the first case")
        elseif t.v == "break" then
            self:next()
            self:expect(";")
            clause.closed = true
        else
            local st = self:statement()
            clause.stmts[#clause.stmts + 1] = st
            clause.closed = st.k == "return" or st.k == "continue"
        end
    end
    s.close = self:next().line
    return s
end

-- `T name(T a, ...) {`, the function's body and its closing line.
function P:func()
    local ret = self:next()
    local name = self:next()
    if name.k ~= "id" then self:error(name, "expected a function name") end
    self:expect("(")
    local params = {}
    if not self:at(")") then
        repeat
            local type = self:next()
            local inout = type.v == "inout"
            if inout then type = self:next() end
            if not self.types[type.v] then self:error(type, "expected a parameter type") end
            params[#params + 1] = { type = type.v, name = self:next().v, inout = inout }
        until not (self:at(",") and self:next())
    end
    self:expect(")")
    local open = self:expect("{")
    return { k = "func", ret = ret.v, name = name.v, params = params, body = self:block(open), line = ret.line }
end

-- lines: the shader's lines; types: the type names (abstract and the interface's). Returns
-- { items = { { k = "wgsl", first, last } | { k = "func", ... } | { k = "entry", first,
-- body } }, comments = { [line] = text }, code = { [line] = true } }.
function parse.read(lines, types)
    local toks, comments, code = {}, {}, {}
    local items = {}
    local function source(n) return lines[n] or "" end
    local p = setmetatable({ toks = toks, pos = 1, types = types, source = source, last_line = 1 }, P)
    local n = 1
    while n <= #lines do
        local text = lines[n]
        if text == "/*" then
            -- A block comment (the header's regenerate command): kept as it is.
            local first = n
            while lines[n] and lines[n] ~= "*/" do n = n + 1 end
            if not lines[n] then fail(first, text, "a block comment without its end") end
            items[#items + 1] = { k = "wgsl", first = first, last = n }
            n = n + 1
        elseif is_wgsl_line(text) and not text:match("^%s*fn%s") and not text:match("^%s*struct%s") then
            items[#items + 1] = { k = "wgsl", first = n, last = n }
            n = n + 1
        elseif text:match("^%s*struct%s") then
            local first = n
            while lines[n] and not lines[n]:match("^%s*}") do n = n + 1 end
            items[#items + 1] = { k = "wgsl", first = first, last = n }
            n = n + 1
        elseif text:match("^%s*fn%s") then
            -- The entry point (targets/wgsl.lua's entry_open): its signature as written, its
            -- body in the subset, to the end of the file.
            items[#items + 1] = { k = "wgsl", first = n, last = n }
            local first = #toks + 1
            for m = n + 1, #lines do
                comments[m] = tokenize(lines[m], m, toks)
            end
            local entry = { k = "entry", line = n }
            p.pos = first
            local open = { line = n }
            entry.body = p:block(open)
            if p.pos <= #toks then p:error(toks[p.pos], "text after the entry point") end
            items[#items + 1] = entry
            n = #lines + 1
        else
            local before = #toks
            comments[n] = tokenize(text, n, toks)
            if #toks > before then
                -- A function: parse once its closing brace is in.
                p.pos = before + 1
                local depth, closed = 0, nil
                for i = before + 1, #toks do
                    if toks[i].v == "{" then depth = depth + 1
                    elseif toks[i].v == "}" then depth = depth - 1; if depth == 0 then closed = i break end end
                end
                while not closed do
                    n = n + 1
                    if not lines[n] then fail(n - 1, source(n - 1), "a function without its closing brace") end
                    local from = #toks
                    comments[n] = tokenize(lines[n], n, toks)
                    for i = from + 1, #toks do
                        if toks[i].v == "{" then depth = depth + 1
                        elseif toks[i].v == "}" then depth = depth - 1; if depth == 0 then closed = i break end end
                    end
                end
                p.pos = before + 1
                items[#items + 1] = p:func()
                if p.pos <= #toks then p:error(toks[p.pos], "text after a function") end
            end
            n = n + 1
        end
    end
    for _, t in ipairs(toks) do code[t.line] = true end
    return { items = items, comments = comments, code = code }
end

return parse
