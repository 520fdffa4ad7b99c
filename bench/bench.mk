# bench/bench.mk: `make bench` builds the benchmarks (bench/README.md). Included from the
# Makefile after its own rules (it uses BUILD, CC, CFLAGS, WARN, SPDGEN and LIBSPDRT).
#
#   build/bench/spd_bench       the SPD benchmark; runs spdgen (build/spdgen) for its shaders
#   build/bench/fft_bench       the FFT benchmark (bench/fft_*.c); the same harness and floor
#   build/bench/dmap_bench      the density-map benchmark (bench/dmap/); the same harness and floor
#   build/bench/conv_bench      the FFT convolution benchmark (bench/conv/); the same harness and floor
#   build/bench/copy.spv        the floor: a vec4 copy kernel (also the SPD-shaped floor)
#   build/bench/scrub.spv       the harness's cache scrub and GPU heat (bench/gpu.h)
#   build/bench/level_*.spv     the per-level baseline, one per (op, format)
#   build/bench/dmap_fetch.spv, dmap_gather.spv   dmap_bench's texel-load floors
# The program loads its .spv files from its own directory.

BENCH_DIR     := $(BUILD)/bench
BENCH_FFT_C   := $(sort $(wildcard bench/fft_*.c))
BENCH_C       := $(filter-out $(BENCH_FFT_C),$(sort $(wildcard bench/*.c)))
BENCH_OBJ     := $(BENCH_C:bench/%.c=$(BENCH_DIR)/%.o)
# fft_bench: its own files plus the SPD benchmark's harness (gpu.c), floor kernel (kernels.c,
# which needs workload.c and source.c), spdgen runner (tools.c), the command line both share
# (timing_options.c, args.c) and the report pieces both share (run_info.c, report_cells.c).
BENCH_FFT_OBJ := $(BENCH_FFT_C:bench/%.c=$(BENCH_DIR)/%.o) \
                 $(addprefix $(BENCH_DIR)/,gpu.o kernels.o workload.o source.o tools.o \
                   timing_options.o args.o run_info.o report_cells.o)
BENCH_FORMATS := rgba8 rgba16f r32f rgba32f
BENCH_SPV     := $(BENCH_DIR)/copy.spv $(BENCH_DIR)/scrub.spv \
                 $(foreach f,$(BENCH_FORMATS),$(BENCH_DIR)/level_mean_$(f).spv $(BENCH_DIR)/level_max_$(f).spv) \
                 $(BENCH_DIR)/dmap_fetch.spv $(BENCH_DIR)/dmap_gather.spv
# libspdrt opens Vulkan with dlopen where runtime/core/vulkan_loader.c exists, else it links it.
BENCH_LIBS    := $(if $(wildcard runtime/core/vulkan_loader.c),-ldl,-lvulkan) -lm
GLSLANG       ?= glslangValidator
BENCH_GLSL    := $(GLSLANG) -V --target-env vulkan1.1

# dmap_bench: spdgen --dmap against the same floor, beside the SPD (bench/dmap/, the harness's
# pieces it shares with the SPD benchmark).
BENCH_DMAP_OBJ := $(BENCH_DIR)/dmap/dmap_bench.o \
                  $(addprefix $(BENCH_DIR)/,gpu.o kernels.o workload.o source.o tools.o \
                    timing_options.o args.o run_info.o report_cells.o)

# conv_bench: spdgen --conv kept on the device (runtime/conv's conv_job) against the same
# floor, with the harness's pieces it shares with the SPD benchmark (bench/conv/).
BENCH_CONV_OBJ := $(patsubst bench/%.c,$(BENCH_DIR)/%.o,$(sort $(wildcard bench/conv/*.c))) \
                  $(addprefix $(BENCH_DIR)/,gpu.o kernels.o workload.o source.o tools.o \
                    timing_options.o args.o run_info.o report_cells.o)

.PHONY: bench
bench: $(SPDGEN) $(BENCH_DIR)/spd_bench $(BENCH_DIR)/fft_bench $(BENCH_DIR)/dmap_bench $(BENCH_DIR)/conv_bench \
       $(BENCH_SPV)

$(BENCH_DIR)/%.o: bench/%.c | $(BENCH_DIR)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(CFLAGS) $(WARN) $(RT_PRIVATE) -Ibench -MMD -MP -c $< -o $@
$(BENCH_DIR)/spd_bench: $(BENCH_OBJ) $(LIBSPDRT)
	$(CC) $(CFLAGS) -o $@ $(BENCH_OBJ) $(LIBSPDRT) $(BENCH_LIBS)
$(BENCH_DIR)/fft_bench: $(BENCH_FFT_OBJ) $(LIBSPDRT)
	$(CC) $(CFLAGS) -o $@ $(BENCH_FFT_OBJ) $(LIBSPDRT) $(BENCH_LIBS)
$(BENCH_DIR)/dmap_bench: $(BENCH_DMAP_OBJ) $(LIBSPDRT)
	$(CC) $(CFLAGS) -o $@ $(BENCH_DMAP_OBJ) $(LIBSPDRT) $(BENCH_LIBS)
$(BENCH_DIR)/conv_bench: $(BENCH_CONV_OBJ) $(LIBSPDRT)
	$(CC) $(CFLAGS) -o $@ $(BENCH_CONV_OBJ) $(LIBSPDRT) $(BENCH_LIBS)

$(BENCH_DIR)/copy.spv: bench/shaders/copy.comp | $(BENCH_DIR)
	$(BENCH_GLSL) -o $@ $<
$(BENCH_DIR)/scrub.spv: bench/shaders/scrub.comp | $(BENCH_DIR)
	$(BENCH_GLSL) -o $@ $<
$(BENCH_DIR)/dmap_fetch.spv: bench/shaders/dmap_fetch.comp | $(BENCH_DIR)
	$(BENCH_GLSL) -DGATHER=0 -o $@ $<
$(BENCH_DIR)/dmap_gather.spv: bench/shaders/dmap_fetch.comp | $(BENCH_DIR)
	$(BENCH_GLSL) -DGATHER=1 -o $@ $<
$(BENCH_DIR)/level_mean_%.spv: bench/shaders/level.comp | $(BENCH_DIR)
	$(BENCH_GLSL) -DFORMAT=$* -DOP_MAX=0 -o $@ $<
$(BENCH_DIR)/level_max_%.spv: bench/shaders/level.comp | $(BENCH_DIR)
	$(BENCH_GLSL) -DFORMAT=$* -DOP_MAX=1 -o $@ $<

# `make bench-peers FFX_SPD_DIR=...`: FidelityFX SPD 2.0 for spd_bench's comparison rows
# (bench/peers/README.md); ffx_a.h and ffx_spd.h are not in this repository.
FFX_SPD_FORMATS := rgba8 rgba16f r32f
.PHONY: bench-peers
bench-peers: bench
	@test -f "$(FFX_SPD_DIR)/ffx_spd.h" || { echo "bench-peers: FFX_SPD_DIR=$(FFX_SPD_DIR) has no \
	ffx_spd.h (bench/peers/README.md says where to get it)" >&2; exit 2; }
	for f in $(FFX_SPD_FORMATS); do \
	  $(BENCH_GLSL) -I"$(FFX_SPD_DIR)" -DFFX_FORMAT=$$f -o $(BENCH_DIR)/ffx_spd_$$f.spv \
	    bench/peers/ffx_spd.comp || exit 1; done
	$(BENCH_GLSL) -I"$(FFX_SPD_DIR)" -DFFX_FORMAT=rgba16f -DA_HALF \
	  -o $(BENCH_DIR)/ffx_spd_rgba16f_packed.spv bench/peers/ffx_spd.comp

$(BENCH_DIR):
	mkdir -p $@
