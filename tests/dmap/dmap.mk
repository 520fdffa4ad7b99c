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

-include $(wildcard $(B)/*.d)
