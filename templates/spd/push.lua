-- spd_push.lua: the SPD push-constant block, listed once for the shader's declaration, its
-- opening comment and the contract (--emit-header, the runtime, the MSL harness).
--
-- 32 bytes. The first 16 are the original block; tile_offset and tile_count make a
-- sub-rectangle update (FidelityFX SPD's workGroupOffset idea): the host dispatches only the
-- tiles over a changed rectangle of level 0, and the counter counts to that many
-- workgroups. tile_count 0 means the whole grid, so a caller that zero-fills the block gets
-- a full regenerate. tiles_per_workgroup lets one workgroup reduce several tiles before its
-- one hand-off (whose fence and atomic leave the workgroup waiting); 0 means one, the
-- original behaviour.
local spd_push = {}

-- Fields in declaration order. `type` is a dialect type name; `fields` names the contract's
-- 32-bit members (a uint2 is two of them).
local FIELDS = {
    { type = "uint2", name = "src_size", fields = {
        { "src_width", "width of level 0" },
        { "src_height", "height of level 0" } } },
    { type = "uint", name = "mip_count", fields = {
        { "mip_count", "levels to write: min(%d, floor(log2(max(w, h)))), >= 1" } } },
    { type = "uint", name = "tile_count", fields = {
        { "tile_count", "workgroups per slice in this dispatch: 0 = the whole grid; an update " ..
          "passes grid x * grid y of its dispatch" } } },
    { type = "uint2", name = "tile_offset", fields = {
        { "tile_offset_x", "first tile of an update (the dispatch's workgroup (0, 0, z)); 0 otherwise" },
        { "tile_offset_y", "first tile row of an update; 0 otherwise" } } },
    { type = "uint", name = "tiles_per_workgroup", fields = {
        { "tiles_per_workgroup", "whole-image dispatches: tiles each workgroup reduces, " ..
          "consecutive along its row (grid x = ceil(tiles x / it); --tail hierarchy: a power of " ..
          "two up to --tile); 0 or 1 = one; updates: 0" } } },
    { type = "uint", name = "unused", fields = {
        { "unused", "padding to 32 bytes" } } },
}

spd_push.BYTES = 32

-- The declaration: { type, name } per member of the shader's parameter struct.
function spd_push.params()
    local params = {}
    for _, f in ipairs(FIELDS) do params[#params + 1] = { type = f.type, name = f.name } end
    return params
end

-- The contract: one 32-bit field per entry, with its byte offset and what it holds.
function spd_push.contract(mips)
    local out, offset = {}, 0
    for _, f in ipairs(FIELDS) do
        for _, field in ipairs(f.fields) do
            out[#out + 1] = { name = field[1], type = "uint", offset = offset,
                              doc = string.format(field[2], mips) }
            offset = offset + 4
        end
    end
    return out
end

-- The members' names as the opening comment lists them.
function spd_push.names()
    local names = {}
    for _, f in ipairs(FIELDS) do names[#names + 1] = f.type .. " " .. f.name end
    return table.concat(names, ", ")
end

return spd_push
