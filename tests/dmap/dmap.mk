# Builds the programs the tests in tests/dmap/ run (each .t calls this):
#
#   make -f tests/dmap/dmap.mk B=DIR SPDGEN_BUILD=DIR TARGET...
#
#   B/model         the turnip model's property test (model.c)
#   B/gen           the generator against its reference on the device: gen glsl|hlsl (gen.c)
#   B/known         the generator against answers derived by hand (known.c)
#   B/resolve       the resolve shader on CPU-rendered subsampled input: resolve glsl|hlsl
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

-include $(wildcard $(B)/*.d)
