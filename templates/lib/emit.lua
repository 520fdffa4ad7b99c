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
local emit = {}
emit.__index = emit

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

-- A comment: text is wrapped at 92 columns and prefixed with "// " (all three targets).
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

-- Emits `header {`, runs body() one level deeper, then `}`.
function emit:block(header, body)
    self:line(header .. " {")
    self.depth = self.depth + 1
    body()
    self.depth = self.depth - 1
    self:line("}")
end

-- The finished text. Blocks opened with an empty header (a bare scope) leave " {" on
-- their line; write them as "{".
function emit:text()
    return (table.concat(self.lines, "\n") .. "\n"):gsub("\n(%s*) {\n", "\n%1{\n")
end

-- log2 of a power of two (the exponent), for the templates' index arithmetic.
function emit.log2(n)
    local k = 0
    while n > 1 do n, k = n // 2, k + 1 end
    return k
end

return emit
