-- emit.lua: the code writer every template uses.
--
-- Templates write shader text in the C-like subset GLSL, HLSL and MSL share (if, for,
-- arithmetic, uint literals with u, float literals with f, functional casts). What the
-- languages spell differently comes in two ways:
--   * type names as $tokens ("$float4 v = ..."), expanded from the dialect's types table
--     and any names the template adds (e.g. $value for the per-format value type);
--   * everything else (barriers, shuffles, image access, atomics) as calls into the
--     dialect module, whose results are spliced into the line with string.format.
-- An unknown $token is an error, so a typo never reaches a shader.
-- No emitted line is longer than emit.WIDTH: comments are wrapped as they are written and
-- emit:text() breaks longer code lines at spaces (whitespace in every target), so the
-- break never changes what a line means.
local emit = {}
emit.__index = emit

emit.WIDTH = 100

-- A writer for one block of code. `names` maps $token -> text.
function emit.new(names)
    return setmetatable({ lines = {}, depth = 0, names = names }, emit)
end

function emit:expand(text)
    return (text:gsub("%$([%a_][%w_]*)", function(name)
        local value = self.names[name]
        if value == nil then error("emit: unknown $" .. name .. " in: " .. text, 2) end
        return value
    end))
end

-- Appends a line (after string.format when arguments are given), indented to the
-- current depth. Multi-line text is split so every line gets the indentation.
function emit:line(fmt, ...)
    local text = select("#", ...) > 0 and string.format(fmt, ...) or fmt
    text = self:expand(text)
    for piece in (text .. "\n"):gmatch("(.-)\n") do
        if piece == "" then
            self.lines[#self.lines + 1] = ""
        else
            self.lines[#self.lines + 1] = string.rep("    ", self.depth) .. piece
        end
    end
end

function emit:blank()
    if self.lines[#self.lines] ~= "" then self.lines[#self.lines + 1] = "" end
end

-- A comment: text is wrapped at 92 columns and prefixed with "// " (all targets).
function emit:comment(text)
    local width = 92 - 4 * self.depth
    local line = ""
    for word in text:gmatch("%S+") do
        if #line > 0 and #line + 1 + #word > width then
            self.lines[#self.lines + 1] = string.rep("    ", self.depth) .. "// " .. line
            line = word
        else
            line = #line > 0 and (line .. " " .. word) or word
        end
    end
    if #line > 0 then self.lines[#self.lines + 1] = string.rep("    ", self.depth) .. "// " .. line end
end

-- A comment line starting with `head` (which begins with "//"), its text wrapped at
-- `width` columns (92 unless given) under the text's start.
function emit:hanging(head, text, width)
    local pad = "//" .. string.rep(" ", #head - 2)
    local line = head
    for word in text:gmatch("%S+") do
        if #line + 1 + #word > (width or 92) and #line > #head then
            self:line(line)
            line = pad .. word
        else
            line = line .. ((#line > #head or line ~= head) and line:sub(-1) ~= " " and " " or "") .. word
        end
    end
    self:line(line)
end

-- The command's words as a shell splits them: spaces inside a single-quoted path stay in its
-- word ('\'' in a path is a close quote, an escaped quote and an open quote).
local function shell_words(command)
    local words, word, quoted, i = {}, nil, false, 1
    while i <= #command do
        local ch = command:sub(i, i)
        if ch == " " and not quoted then
            if word then words[#words + 1] = word end
            word = nil
        else
            if ch == "\\" and not quoted then
                ch = command:sub(i, i + 1)
                i = i + 1
            elseif ch == "'" then
                quoted = not quoted
            end
            word = (word or "") .. ch
        end
        i = i + 1
    end
    if word then words[#words + 1] = word end
    return words
end

-- The regenerate command in a block comment, as shell lines broken before an option (kept
-- with its value) with continuations (" \\"): the lines between the markers paste into a shell
-- as they are. Not "//" lines: one ending in "\\" continues the comment onto the next line in
-- a language with a C preprocessor (GLSL, HLSL, MSL), and glslang warns of it.
function emit:command(command)
    local head, pad = "    ", "        "
    local groups = {}
    for _, word in ipairs(shell_words(command)) do
        if word:sub(1, 2) == "--" or #groups == 0 then groups[#groups + 1] = word
        else groups[#groups] = groups[#groups] .. " " .. word end
    end
    self.lines[#self.lines + 1] = "/*"
    local line = head
    for _, group in ipairs(groups) do
        if #line + 1 + #group + 2 > emit.WIDTH and #line > #head then
            self.lines[#self.lines + 1] = line .. " \\"
            line = pad .. group
        else
            line = line .. (line == head and "" or " ") .. group
        end
    end
    self.lines[#self.lines + 1] = line
    self.lines[#self.lines + 1] = "*/"
end

-- A line of code with a one-line note: after it ("code // note") where that fits in
-- emit.WIDTH columns, else as a comment line above it.
function emit:note(code, note)
    local text = self:expand(code)
    if 4 * self.depth + #text + 4 + #note <= emit.WIDTH then
        self:line(text .. " // " .. note)
    else
        self:comment(note)
        self:line(text)
    end
end

-- Emits `header {`, runs body() one level deeper, then `}`.
function emit:block(header, body)
    self:line(header .. " {")
    self.depth = self.depth + 1
    body()
    self.depth = self.depth - 1
    self:line("}")
end

-- Where a code line may break (the space at `at`): after "; " and ", ", after the ") " that
-- closes an if/for/while condition, and before a binary operator (a product's last). Each point knows the
-- bracket it lies in (`open`: its index and character; nil at depth 0).
local OPERATORS = { ["+"] = true, ["-"] = true, ["*"] = true, ["/"] = true, ["?"] = true, [":"] = true,
    ["&&"] = true, ["||"] = true, ["|"] = true, ["^"] = true, ["&"] = true, ["<<"] = true, [">>"] = true,
    ["=="] = true, ["!="] = true, ["<"] = true, [">"] = true, ["<="] = true, [">="] = true }
-- A break before a product's operator splits a term: sums and conditions break first.
local MULTIPLICATIVE = { ["*"] = true, ["/"] = true }
local function break_points(line, indent)
    local points, stack, closed = {}, {}, nil
    for i = indent + 1, #line do
        local ch = line:sub(i, i)
        if ch == "(" or ch == "[" or ch == "{" then
            stack[#stack + 1] = { ch = ch, at = i, head = line:sub(indent + 1, i - 1) }
        elseif ch == ")" or ch == "]" or ch == "}" then
            closed = table.remove(stack)
        elseif ch == " " then
            local prev, word = line:sub(i - 1, i - 1), line:sub(i + 1):match("^(%S+) ")
            local rank
            if prev == ";" then rank = 0
            elseif prev == "," then rank = 5
            elseif prev == ")" and closed and #stack == 0 and (closed.head:match("^%s*if%s*$")
                or closed.head:match("^%s*for%s*$") or closed.head:match("^%s*while%s*$")) then
                rank = 0
            elseif word and OPERATORS[word] then rank = MULTIPLICATIVE[word] and 25 or 10 end
            -- Never leave only closing brackets for the next line.
            if rank and not line:sub(i + 1):match("^[%)%]}]*;?$") then
                points[#points + 1] = { at = i, depth = #stack, rank = rank, open = stack[#stack] }
            end
        end
    end
    return points
end

-- A code line broken into lines of at most emit.WIDTH columns where it can be: at the
-- shallowest bracket depth, at statement and argument boundaries first, filling lines. A
-- continuation aligns after the bracket the break lies in (4 deeper at depth 0, 8 where
-- that bracket sits far right).
local function wrap_code(line)
    local indent = #line:match("^ *")
    local points = break_points(line, indent)
    local segments = {} -- { from, lead }: the line's characters from `from` on start at column lead
    local function column(k) -- 0-based column of character k of the line, once placed
        for i = #segments, 1, -1 do
            if k >= segments[i].from then return segments[i].lead + k - segments[i].from end
        end
        return k - 1
    end
    local function align(p)
        if not p.open then return indent + 4 end
        local a = column(p.open.at) + 1 + (p.open.ch == "{" and 1 or 0)
        return a > emit.WIDTH * 0.6 and indent + 8 or a
    end
    local out, start, lead = {}, 1, 0
    segments[1] = { from = 1, lead = 0 }
    while lead + #line - start + 1 > emit.WIDTH do
        local best, best_cost
        for _, p in ipairs(points) do
            local len = lead + p.at - start
            if p.at > start and len <= emit.WIDTH then
                local cost = p.depth * 30 + p.rank + (emit.WIDTH - len) * 0.5
                if not best or cost < best_cost then best, best_cost = p, cost end
            end
        end
        if not best then break end
        out[#out + 1] = string.rep(" ", lead) .. line:sub(start, best.at - 1)
        start, lead = best.at + 1, align(best)
        segments[#segments + 1] = { from = start, lead = lead }
    end
    out[#out + 1] = string.rep(" ", lead) .. line:sub(start)
    return out
end

-- A comment line broken at spaces, the continuation indented 4 past the comment's text.
local function wrap_comment(line)
    local head, text = line:match("^(%s*//%s*)(.*)$")
    local pad = head:gsub("//(%s*)$", "//%1    ")
    local out, current = {}, head
    for word in text:gmatch("%S+") do
        if #current + 1 + #word > emit.WIDTH and current ~= head and current ~= pad then
            out[#out + 1] = current
            current = pad .. word
        else
            current = current .. ((current == head or current == pad) and "" or " ") .. word
        end
    end
    out[#out + 1] = current
    return out
end

-- Lines of at most emit.WIDTH columns, broken where needed.
function emit.wrap(line)
    if #line <= emit.WIDTH then return { line } end
    if line:match("^%s*//") then return wrap_comment(line) end
    return wrap_code(line)
end

-- The finished text. Blocks opened with an empty header (a bare scope) leave " {" on
-- their line; write them as "{". The target's `finish` (set by interface:emit_preamble)
-- sees the lines first, before they are wrapped.
function emit:text()
    local lines = {}
    local source = self.finish and self.finish(self.lines) or self.lines
    for _, line in ipairs(source) do
        for _, piece in ipairs(emit.wrap(line)) do lines[#lines + 1] = piece end
    end
    return (table.concat(lines, "\n") .. "\n"):gsub("\n(%s*) {\n", "\n%1{\n")
end

-- log2 of a power of two (the exponent), for the templates' index arithmetic.
function emit.log2(n)
    local k = 0
    while n > 1 do n, k = n // 2, k + 1 end
    return k
end

return emit
