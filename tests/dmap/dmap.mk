# Builds the programs the tests in tests/dmap/ run (each .t calls this):
#
#   make -f tests/dmap/dmap.mk B=DIR SPDGEN_BUILD=DIR TARGET...
#
#   B/model         the turnip model's property test (model.c)
#   B/gen           the generator against its reference on the device: gen glsl|hlsl (gen.c)
#   B/known         the generator against answers derived by hand (known.c)
#   B/resolve       the resolve shader on CPU-rendered subsampled input: resolve glsl|hlsl
#   B/fsr_hw        the real-hardware check of the shading-rate attachment (fsr_hw.c), with
#                   its shaders B/fsr_hw*.spv (glslangValidator); links the Vulkan loader
#   B/msl/CONFIG/dmap_msl   one configuration's MSL on the CPU executor of tests/msl
#                   (dmap_msl.cpp), CONFIG being spdgen's --dmap flags without dashes,
#                   words joined by _ (dmap_fsr_texel_16_foveation_gaze_views_1_max-rate_4)
# Every program links SPDGEN_BUILD/libspdrt.a and is rebuilt when it or its headers change.
M := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ROOT := $(M)/../..
CC ?= cc
LIBSPDRT := $(SPDGEN_BUILD)/libspdrt.a
ifeq ($(B),)
$(error B (the build directory) is required)
endif
DMAP_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-I$(ROOT)/runtime/include -I$(ROOT)/runtime -I$(ROOT)/tests -I$(M) -MMD -MP

$(B)/%: $(M)/%.c $(wildcard $(M)/*.h) $(LIBSPDRT)
	@mkdir -p $(@D)
	$(CC) $(DMAP_CFLAGS) -o $@ $< $(LIBSPDRT) -ldl -lm

GLSLANG ?= glslangValidator
$(B)/%.spv: $(M)/%
	@mkdir -p $(@D)
	$(GLSLANG) -V --target-env vulkan1.2 -o $@ $<
$(B)/fsr_hw: $(M)/fsr_hw.c $(M)/fsr_hw_vulkan.h $(LIBSPDRT) $(B)/fsr_hw.vert.spv $(B)/fsr_hw.frag.spv \
		$(B)/fsr_hw_dry.frag.spv
	$(CC) $(DMAP_CFLAGS) -o $@ $< $(LIBSPDRT) -lvulkan -ldl -lm

# ---- MSL on the CPU executor (the rules of tests/msl/msl.mk, for this kernel) ----------------
CLANGXX ?= clang++
LUA ?= lua5.4
SPDGEN := $(SPDGEN_BUILD)/spdgen
MSL_DIR := $(ROOT)/tests/msl
MSL_CXXFLAGS := -std=c++17 -O2 -Wall -Wextra -Wno-unused-parameter -Wno-unknown-attributes \
	-flax-vector-conversions=none -Xclang -fnative-half-type \
	-Xclang -fnative-half-arguments-and-returns -DMSL_SHIM_EXTERNAL_RUNTIME \
	-I$(MSL_DIR) -I$(MSL_DIR)/exec -I$(ROOT)/runtime/include -MMD -MP
DMAP_FLAG_NAMES := dmap texel foveation content combine views max-rate subgroup rate-map
dmap_args = $(foreach w,$(subst _, ,$(1)),$(if $(filter $(DMAP_FLAG_NAMES),$(w)),--$(w),$(w)))

$(B)/msl/exec/%.o: $(MSL_DIR)/exec/%.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@
$(B)/msl/dmap_msl.o: $(M)/dmap_msl.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@
$(B)/msl/%/kernel.metal: $(SPDGEN)
	@mkdir -p $(@D)
	$(SPDGEN) $(call dmap_args,$*) --target msl -o $@
$(B)/msl/%/kernel.attrs.h: $(B)/msl/%/kernel.metal $(MSL_DIR)/exec/kernel-attrs.lua
	$(LUA) $(MSL_DIR)/exec/kernel-attrs.lua $< >$@
$(B)/msl/%/unit.o: $(B)/msl/%/kernel.metal $(B)/msl/%/kernel.attrs.h $(MSL_DIR)/exec/unit.cpp
	$(CLANGXX) $(MSL_CXXFLAGS) -DMSL_UNIT=dmap_kernel -DMSL_KERNEL_SOURCE='"$(abspath $<)"' \
		-DMSL_KERNEL_ATTRS='"$(abspath $(@D)/kernel.attrs.h)"' -c $(MSL_DIR)/exec/unit.cpp -o $@
$(B)/msl/%/dmap_msl: $(B)/msl/%/unit.o $(B)/msl/dmap_msl.o $(B)/msl/exec/executor.o $(B)/msl/exec/fiber.o \
		$(LIBSPDRT)
	$(CLANGXX) -o $@ $^ -ldl -lm
.PRECIOUS: $(B)/msl/%/kernel.metal $(B)/msl/%/kernel.attrs.h $(B)/msl/%/unit.o

-include $(wildcard $(B)/*.d $(B)/msl/*.d $(B)/msl/*/*.d $(B)/msl/exec/*.d)
