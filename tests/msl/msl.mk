# Builds the MSL CPU executor and the programs tests/msl/exec.t, tests/msl/spd.t,
# tests/msl/fft.t and tests/msl/conv.t run:
#
#   make -f tests/msl/msl.mk B=DIR SPDGEN_BUILD=DIR TARGET...
#
#   B/exec/selftest, B/exec/selftest-ucontext   the executor's self-tests (selftest/),
#                                               with the assembly and the ucontext fibers
#   B/spd/CONFIG/spd_msl          the SPD harness for one configuration, CONFIG being
#                                 OP_SUBGROUP_FORMAT_2d|array[_EDGE] (e.g. max_8_r32f_array,
#                                 max_0_r32f_2d_conservative):
#                                 spdgen's MSL and contract header for it, the kernel bound
#                                 by attribute (exec/unit.cpp), the contract (spd/contract.cpp)
#   B/spd/CONFIG/glsl.spv, hlsl.spv   the same configuration's SPIR-V (parity checks)
#   DIR/spd_msl                   for any DIR holding kernel.metal and contract.h (the
#                                 .t writes mutants of a configuration that way)
#   B/fft/CONFIG/fft_msl          the FFT harness for one configuration, CONFIG being
#                                 spdgen's --fft flags without dashes, words joined by _
#                                 (e.g. fft_1024_ept_4_wg_256_subgroup_8_direction_forward):
#                                 spdgen's MSL and contract header for it, the kernel bound
#                                 by attribute (exec/unit.cpp), the contract (fft/contract.cpp)
#   DIR/fft_msl                   likewise for any DIR holding an FFT kernel.metal and contract.h
#   B/conv/CONFIG/conv_msl        the conv harness for one job, CONFIG being spdgen's --conv
#                                 flags without dashes, words joined by _ (e.g.
#                                 conv_image_64x48_psf_16x16_channels_1_format_rgba32f):
#                                 spdgen's MSL shaders (job.ROLE.metal) and plan (job.convplan),
#                                 one unit per shader (exec/unit.cpp), the harness (conv/)
#   DIR/conv_msl                  likewise for any DIR holding a job's job.convplan and
#                                 job.ROLE.metal (the .t writes mutants that way)
# Everything is rebuilt when spdgen, the shim or the executor changes (depfiles).
M := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ROOT := $(M)/../..
CLANGXX ?= clang++
LUA ?= lua5.4
SPDGEN := $(SPDGEN_BUILD)/spdgen
LIBSPDRT := $(SPDGEN_BUILD)/libspdrt.a

ifeq ($(B),)
$(error B (the build directory) is required)
endif

# -O2: the executor runs every SPD configuration at every size; -O1 would do as well.
# The half flags are the shim's (shim/core.h); MSL_SHIM_EXTERNAL_RUNTIME selects the
# executor's hooks and threadgroup storage.
MSL_CXXFLAGS := -std=c++17 -O2 -Wall -Wextra -Wno-unused-parameter -Wno-unknown-attributes \
	-flax-vector-conversions=none -Xclang -fnative-half-type \
	-Xclang -fnative-half-arguments-and-returns -DMSL_SHIM_EXTERNAL_RUNTIME \
	-I$(M) -I$(M)/exec -I$(ROOT)/runtime/include -MMD -MP
EXEC_OBJ := $(B)/exec/executor.o $(B)/exec/fiber.o
SELFTEST_UNITS := neighbour last_group divergent simd_ops bindings
SELFTEST_OBJ := $(B)/exec/selftest.o $(SELFTEST_UNITS:%=$(B)/exec/%.o)

.SUFFIXES:
.DELETE_ON_ERROR:

# ---- the executor and its self-tests -----------------------------------------------------
$(B)/exec/%.o: $(M)/exec/%.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@
# The ucontext fibers: fiber_context differs, so the executor is compiled again with them.
$(B)/exec/%-ucontext.o: $(M)/exec/%.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -DMSL_EXEC_UCONTEXT -c $< -o $@
$(B)/exec/selftest.o: $(M)/selftest/selftest.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@
$(B)/exec/%.attrs.h: $(M)/selftest/%.metal $(M)/exec/kernel-attrs.lua
	@mkdir -p $(@D)
	$(LUA) $(M)/exec/kernel-attrs.lua $< >$@
$(B)/exec/%.o: $(M)/selftest/%.metal $(B)/exec/%.attrs.h $(M)/exec/unit.cpp
	$(CLANGXX) $(MSL_CXXFLAGS) -DMSL_UNIT=$*_kernel -DMSL_KERNEL_SOURCE='"$(abspath $<)"' \
		-DMSL_KERNEL_ATTRS='"$(abspath $(B)/exec/$*.attrs.h)"' -c $(M)/exec/unit.cpp -o $@
$(B)/exec/selftest: $(SELFTEST_OBJ) $(EXEC_OBJ)
	$(CLANGXX) -o $@ $^
$(B)/exec/selftest-ucontext: $(SELFTEST_OBJ) $(B)/exec/executor-ucontext.o $(B)/exec/fiber-ucontext.o
	$(CLANGXX) -o $@ $^

# ---- SPD configurations ------------------------------------------------------------------
# CONFIG = OP_SUBGROUP_FORMAT_DIM[_EDGE] -> spdgen arguments.
spd_args = --spd --op $(word 1,$(subst _, ,$(1))) --subgroup $(word 2,$(subst _, ,$(1))) \
	--format $(word 3,$(subst _, ,$(1))) $(if $(filter array,$(word 4,$(subst _, ,$(1)))),--array) \
	$(if $(word 5,$(subst _, ,$(1))),--edge $(word 5,$(subst _, ,$(1))))

$(B)/spd/%/kernel.metal $(B)/spd/%/contract.h: $(SPDGEN)
	@mkdir -p $(@D)
	$(SPDGEN) $(call spd_args,$*) --target msl --name spd -o $(@D)/kernel.metal --emit-header $(@D)/contract.h
$(B)/spd/%/glsl.spv: $(SPDGEN)
	@mkdir -p $(@D)
	$(SPDGEN) $(call spd_args,$*) --target spirv --spirv-from glsl -o $@
$(B)/spd/%/hlsl.spv: $(SPDGEN)
	@mkdir -p $(@D)
	$(SPDGEN) $(call spd_args,$*) --target spirv --spirv-from hlsl -o $@

$(B)/spd/spd_msl.o: $(M)/spd/spd_msl.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@

# Any directory with kernel.metal and contract.h: bind, compile, link.
%/kernel.attrs.h: %/kernel.metal $(M)/exec/kernel-attrs.lua
	$(LUA) $(M)/exec/kernel-attrs.lua $< >$@
%/unit.o: %/kernel.metal %/kernel.attrs.h $(M)/exec/unit.cpp
	$(CLANGXX) $(MSL_CXXFLAGS) -DMSL_UNIT=spd_kernel -DMSL_KERNEL_SOURCE='"$(abspath $<)"' \
		-DMSL_KERNEL_ATTRS='"$(abspath $*/kernel.attrs.h)"' -c $(M)/exec/unit.cpp -o $@
%/contract.o: %/contract.h $(M)/spd/contract.cpp
	$(CLANGXX) $(MSL_CXXFLAGS) -DSPD_CONTRACT_HEADER='"$(abspath $<)"' -c $(M)/spd/contract.cpp -o $@
%/spd_msl: %/unit.o %/contract.o $(B)/spd/spd_msl.o $(EXEC_OBJ) $(LIBSPDRT)
	$(CLANGXX) -o $@ $*/unit.o $*/contract.o $(B)/spd/spd_msl.o $(EXEC_OBJ) $(LIBSPDRT) -ldl -lm

.PRECIOUS: %/kernel.attrs.h %/unit.o %/contract.o $(B)/spd/%/kernel.metal $(B)/spd/%/contract.h

# ---- FFT configurations ------------------------------------------------------------------
# CONFIG -> spdgen arguments: the words that are FFT flag names get their dashes back.
FFT_FLAG_NAMES := fft ept wg subgroup direction order storage real stride twiddles norm rows-per-wg \
	column-layout columns-per-wg shared-layout prefetch-rows
fft_args = $(foreach w,$(subst _, ,$(1)),$(if $(filter $(FFT_FLAG_NAMES),$(w)),--$(w),$(w)))

$(B)/fft/%/kernel.metal $(B)/fft/%/contract.h: $(SPDGEN)
	@mkdir -p $(@D)
	$(SPDGEN) $(call fft_args,$*) --target msl --name fft -o $(@D)/kernel.metal --emit-header $(@D)/contract.h

$(B)/fft/fft_msl.o: $(M)/fft/fft_msl.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@

# Any directory with an FFT kernel.metal and contract.h: bind, compile, link.
%/fft_unit.o: %/kernel.metal %/kernel.attrs.h $(M)/exec/unit.cpp
	$(CLANGXX) $(MSL_CXXFLAGS) -DMSL_UNIT=fft_kernel -DMSL_KERNEL_SOURCE='"$(abspath $<)"' \
		-DMSL_KERNEL_ATTRS='"$(abspath $*/kernel.attrs.h)"' -c $(M)/exec/unit.cpp -o $@
%/fft_contract.o: %/contract.h $(M)/fft/contract.cpp
	$(CLANGXX) $(MSL_CXXFLAGS) -DFFT_CONTRACT_HEADER='"$(abspath $<)"' -c $(M)/fft/contract.cpp -o $@
%/fft_msl: %/fft_unit.o %/fft_contract.o $(B)/fft/fft_msl.o $(EXEC_OBJ) $(LIBSPDRT)
	$(CLANGXX) -o $@ $*/fft_unit.o $*/fft_contract.o $(B)/fft/fft_msl.o $(EXEC_OBJ) $(LIBSPDRT) -ldl -lm

.PRECIOUS: %/fft_unit.o %/fft_contract.o $(B)/fft/%/kernel.metal $(B)/fft/%/contract.h

# ---- conv jobs ---------------------------------------------------------------------------
# CONFIG -> spdgen arguments, as for the FFT.
CONV_FLAG_NAMES := conv image psf channels padding spectrum first-axis input output format storage padded pad-to \
	ept max-wg subgroup columns-per-wg
CONV_ROLES := spectrum1 spectrum2 resample pass1 pass2 pass3
conv_args = $(foreach w,$(subst _, ,$(1)),$(if $(filter $(CONV_FLAG_NAMES),$(w)),--$(w),$(w)))

# The plan stands for every shader spdgen writes beside it.
$(B)/conv/%/job.convplan: $(SPDGEN)
	@mkdir -p $(@D)
	$(SPDGEN) $(call conv_args,$*) --target msl -o $(@D)/job.metal

$(B)/conv/conv_msl.o: $(M)/conv/conv_msl.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@
$(B)/conv/plan.o: $(M)/conv/plan.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(MSL_CXXFLAGS) -c $< -o $@

# One unit per shader, conv_ROLE; a role the job lacks (an exact job's resample) is an
# empty object, and the harness's weak reference finds no kernel.
define conv_unit
%/conv_$(1).o: %/job.convplan $(M)/exec/unit.cpp $(M)/exec/kernel-attrs.lua
	if [ -f $$*/job.$(1).metal ]; then \
		$(LUA) $(M)/exec/kernel-attrs.lua $$*/job.$(1).metal >$$*/conv_$(1).attrs.h && \
		$(CLANGXX) $(MSL_CXXFLAGS) -DMSL_UNIT=conv_$(1) -DMSL_KERNEL_SOURCE='"$$(abspath $$*/job.$(1).metal)"' \
			-DMSL_KERNEL_ATTRS='"$$(abspath $$*/conv_$(1).attrs.h)"' -c $(M)/exec/unit.cpp -o $$@; \
	else printf '' | $(CLANGXX) -x c++ -c - -o $$@; fi
endef
$(foreach r,$(CONV_ROLES),$(eval $(call conv_unit,$(r))))

%/conv_msl: %/conv_spectrum1.o %/conv_spectrum2.o %/conv_resample.o %/conv_pass1.o %/conv_pass2.o %/conv_pass3.o \
	$(B)/conv/conv_msl.o $(B)/conv/plan.o $(EXEC_OBJ) $(LIBSPDRT)
	$(CLANGXX) -o $@ $(CONV_ROLES:%=$*/conv_%.o) $(B)/conv/conv_msl.o $(B)/conv/plan.o $(EXEC_OBJ) $(LIBSPDRT) -ldl -lm

.PRECIOUS: %/conv_spectrum1.o %/conv_spectrum2.o %/conv_resample.o %/conv_pass1.o %/conv_pass2.o %/conv_pass3.o \
	$(B)/conv/%/job.convplan

-include $(shell find $(B) -name '*.d' 2>/dev/null)
