-- interface.lua: a kernel's interface (resources, parameter block, workgroup memory, entry
-- point), composed from the target's generic hooks (targets/README.md lists them).
--
-- A kernel describes what its shader needs as data (interface.new's spec); the target only
-- spells each piece. A declaration hook answers where its text goes, because the languages
-- put the same thing in different places: at file scope (GLSL, HLSL; WGSL), as an argument
-- of the entry point (Metal's resources and builtins) or as the entry point's first lines
-- (Metal's threadgroup memory, GLSL's builtins).
local interface = {}
interface.__index = interface

-- The hooks that declare one piece, by the spec's field they serve.
local RESOURCE_HOOK = {
    storage_buffer = "storage_buffer", sampled_image = "sampled_image",
    storage_image_array = "storage_image_array", sampler = "sampler",
}

-- spec: kernel ("spd", "fft": the entry point's name in targets that need one per kernel),
-- local_size { x, y, z }, resources (in binding order), params { block, name, fields =
-- { { type, name } } }, shared { { type, name, count (nil: a scalar) } }, builtins
-- ("t", "group", "lane"), features (what the preamble enables: shuffle, shuffle_xor, quad,
-- half).
function interface.new(D, spec)
    local m = setmetatable({ D = D, kernel = spec.kernel, local_size = spec.local_size,
        resources = spec.resources, params = spec.params, shared = spec.shared or {},
        builtins = spec.builtins, features = spec.features or {} }, interface)
    table.sort(m.resources, function(a, b) return a.binding < b.binding end)
    -- Each declaration, in order: resources, parameter block, workgroup memory, builtins.
    local decls = {}
    for _, r in ipairs(m.resources) do
        decls[#decls + 1] = { group = "resource", d = D[RESOURCE_HOOK[r.kind]](r, m) }
    end
    decls[#decls + 1] = { group = "resource", d = D.push_constants(m.params, m) }
    for _, a in ipairs(m.shared) do decls[#decls + 1] = { group = "shared", d = D.shared_array(a, m) } end
    for _, b in ipairs(m.builtins) do decls[#decls + 1] = { group = "builtin", d = D.builtin(b, m) } end
    m.decls = decls
    -- Helper functions see what is declared at file scope; where workgroup memory lives in
    -- the entry point (Metal), a routine that uses it is written inline at each call.
    m.shared_at_file_scope = true
    for _, e in ipairs(decls) do
        if e.group ~= "builtin" and e.d.file == nil then m.shared_at_file_scope = false end
    end
    return m
end

-- The entry point's name ("main", or per kernel where a library holds several kernels).
function interface:entry_name() return self.D.entry_name(self.kernel) end

-- How the opening comment names resource `binding`, and the parameter block.
function interface:binding_label(binding)
    for _, r in ipairs(self.resources) do
        if r.binding == binding then return self.D.binding_label(r, self) end
    end
    error("interface: no resource at binding " .. tostring(binding))
end
function interface:params_label() return self.D.params_label(self) end

-- Version, extensions or includes, and the local size where the target states it there.
-- The writer also gets the target's `finish`, which its text() applies to every line (WGSL
-- rewrites the templates' C-like statements; the other targets keep them).
function interface:emit_preamble(c)
    local preamble = self.D.preamble(self)
    if preamble ~= "" then c:line(preamble) end
    c.finish = function(lines) return self.D.finish(lines, self) end
end

-- The file-scope declarations: resources and the parameter block, then workgroup memory.
function interface:emit_declarations(c)
    local function lines(group)
        for _, e in ipairs(self.decls) do
            if e.group == group and e.d.file then c:line(e.d.file) end
        end
    end
    lines("resource")
    local shared = false
    for _, e in ipairs(self.decls) do shared = shared or (e.group == "shared" and e.d.file ~= nil) end
    if shared then
        c:blank()
        lines("shared")
    end
end

-- The entry point's signature and first lines; the caller writes the body one level deeper
-- and closes it with "}".
function interface:emit_entry_open(c)
    local args, body = {}, {}
    for _, e in ipairs(self.decls) do
        if e.d.argument then args[#args + 1] = e.d.argument end
    end
    for _, group in ipairs({ "builtin", "shared" }) do
        for _, e in ipairs(self.decls) do
            if e.group == group and e.d.body then body[#body + 1] = e.d.body end
        end
    end
    c:line(self.D.entry_open(self, args))
    c.depth = c.depth + 1
    for _, line in ipairs(body) do c:line(line) end
end

return interface
