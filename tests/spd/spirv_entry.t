#!/bin/sh
# Every emitted module's SPIR-V has a GLCompute entry point "main" with LocalSize 256 1 1,
# checked with SPIRV-Tools' own disassembler (independent of spdgen's internal check).
# glslang's C API once produced empty HLSL modules that spirv-val accepted; this guards it.
. "$(dirname "$0")/../lib.sh"

for from in glsl hlsl; do
    for env in vulkan1.1 vulkan1.2 vulkan1.3; do
        [ $from = hlsl ] && [ $env != vulkan1.1 ] && continue
        for sg in 0 4 8 32; do
            for array in "" --array; do
                for mips in 4 12; do
                    "$SPDGEN" --spd --target spirv --spirv-from $from --target-env $env \
                        --subgroup $sg $array --mips $mips -o "$WORK/m.spv" &&
                        spirv-dis "$WORK/m.spv" -o "$WORK/m.dis"
                    grep -Eq 'OpEntryPoint GLCompute %[A-Za-z0-9_]+ "main"' "$WORK/m.dis" &&
                        grep -Eq 'OpExecutionMode(Id)? %[A-Za-z0-9_]+ LocalSize(Id)? (256|%uint_256) (1|%uint_1) (1|%uint_1)$' "$WORK/m.dis" &&
                        spirv-val --target-env $env "$WORK/m.spv"
                    ok $? "$from $env --subgroup $sg $array --mips $mips: entry main, LocalSize 256 1 1, spirv-val"
                done
            done
        done
    done
done
done_testing
