-- spd_resources.lua: what the SPD shader declares, as data for templates/lib/interface.lua:
-- the source and the mips, the sampler, the counter and hand-off buffers, the parameter
-- block, shared memory and the builtins. The targets only spell them (targets/README.md).
local interface = require("templates.lib.interface")
local spd_push = require("templates.spd.push")

local resources = {}

-- The interface of the shader ctx describes (templates/spd/kernel.lua's make_context).
function resources.interface(ctx)
    local cfg = ctx.cfg
    local scalar = ctx.uint and "uint" or "float"
    local list = {
        { kind = "sampled_image", binding = 0, name = "src_level0", array = cfg.array, scalar = scalar,
          filtered = cfg.sampler_linear },
        { kind = "storage_image_array", binding = 1, name = "dst_mips", count = cfg.mips, format = cfg.format,
          array = cfg.array, scalar = scalar, access = "write" },
    }
    if cfg.sampler_linear then list[#list + 1] = { kind = "sampler", binding = 4, name = "src_sampler" } end
    if ctx.handoff then
        list[#list + 1] = { kind = "storage_buffer", binding = 2, name = "counters", block = "SpdCounters",
            element = "uint", access = "read_write", atomic = true }
        -- coherent: the last workgroup reads values other workgroups wrote in this dispatch.
        list[#list + 1] = { kind = "storage_buffer", binding = 3, name = ctx.handoff.name,
            block = ctx.handoff.block, element = ctx.value_abstract, access = "read_write", coherent = true }
    end
    local shared = {}
    for _, a in ipairs(ctx.shared) do
        shared[#shared + 1] = { type = ctx.value_abstract, name = a.name, count = a.count }
    end
    if ctx.handoff then shared[#shared + 1] = { type = "uint", name = "lds_is_last" } end
    local quad = false
    for _, s in ipairs(ctx.steps) do quad = quad or s.kind == "quad" end
    return interface.new(ctx.dialect, {
        kernel = "spd", local_size = { ctx.shape.wg, 1, 1 }, resources = list,
        params = { block = "SpdParams", name = "params", fields = spd_push.params() },
        shared = shared,
        builtins = ctx.uses_lane and { "t", "group", "lane" } or { "t", "group" },
        features = { shuffle = ctx.uses_lane, quad = quad, half = cfg.half },
    })
end

return resources
