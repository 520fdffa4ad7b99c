# The MSL part of tests/dmap/msl.t (the Makefile builds the other test programs, as for
# every kernel, into build/tests/dmap/):
#
#   make -f tests/dmap/dmap.mk B=DIR SPDGEN_BUILD=DIR B/msl/CONFIG/dmap_msl
#
# one configuration's MSL on the CPU executor of tests/msl (dmap_msl.cpp), CONFIG being
# spdgen's --dmap flags without dashes, words joined by _
# (dmap_fsr_texel_16_foveation_gaze_views_1_max-rate_4).
M := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ROOT := $(M)/../..
LIBSPDRT := $(SPDGEN_BUILD)/libspdrt.a
ifeq ($(B),)
$(error B (the build directory) is required)
endif

# ---- MSL on the CPU executor (the rules of tests/msl/msl.mk, for this kernel) ----------------
CLANGXX ?= clang++
LUA ?= lua5.4
SPDGEN := $(SPDGEN_BUILD)/spdgen
MSL_DIR := $(ROOT)/tests/msl
MSL_CXXFLAGS := -std=c++17 -O2 -Wall -Wextra -Wno-unused-parameter -Wno-unknown-attributes \
	-flax-vector-conversions=none -Xclang -fnative-half-type \
	-Xclang -fnative-half-arguments-and-returns -DMSL_SHIM_EXTERNAL_RUNTIME \
	-I$(MSL_DIR) -I$(MSL_DIR)/exec -I$(ROOT)/runtime/include -MMD -MP
DMAP_FLAG_NAMES := dmap texel foveation content combine views max-rate subgroup batch fetch fence ring \
	inputs rate-map
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
