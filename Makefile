# spdgen: the one build entry.
#   make          build spdgen and the runtime library
#   make demo     install missing dependencies, then emit, validate and run an SPD on the local device
#   make test     install missing dependencies, build, run the whole suite with prove
#   make install  PREFIX=/usr/local
# Dependencies are Debian packages; scripts/install-deps.sh installs the missing ones.

CC      ?= cc
CXX     ?= c++
CLANGXX ?= clang++
PREFIX  ?= /usr/local
BUILD   ?= build
CFLAGS  ?= -O2 -g
CXXFLAGS ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
LUA_LIBDIR := $(shell pkg-config --variable=libdir lua5.4 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)

# glslang + SPIRV-Tools + Lua linked statically so the binary runs where none is installed
# (the GPU machine). Order matters; -lOGLCompiler holds glslang::InitThread (FACTS.md).
STATIC_LIBS := -Wl,-Bstatic -lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -lglslang \
	-lMachineIndependent -lGenericCodeGen -lOGLCompiler -lOSDependent \
	-lglslang-default-resource-limits $(LUA_LIBDIR)/liblua5.4.a -Wl,-Bdynamic \
	-static-libstdc++ -static-libgcc -lstdc++ -lm -ldl -lpthread

LUA_SOURCES := $(sort $(wildcard templates/*.lua targets/*.lua))
# C the templates copy into their output (--emit-header): one definition for the runtime too.
EMBED_C     := runtime/spd_passes.h
GEN_C       := $(sort $(wildcard gen/*.c))
GEN_CXX     := $(sort $(wildcard gen/*.cpp))
RT_C        := $(sort $(wildcard runtime/*.c))
TEST_C      := $(sort $(wildcard tests/*.c))
DEVICE_C    := $(sort $(wildcard tests/device/*.c))
EXAMPLE_C   := $(sort $(wildcard examples/*.c))

GEN_OBJ := $(GEN_C:%.c=$(BUILD)/%.o) $(GEN_CXX:%.cpp=$(BUILD)/%.o) $(BUILD)/gen/embedded.o
RT_OBJ  := $(RT_C:%.c=$(BUILD)/%.o)
TESTS   := $(TEST_C:tests/%.c=$(BUILD)/t/%.t)
# Device test programs take arguments; tests/*.t wrappers run them in shards.
DEVICE_TESTS := $(DEVICE_C:tests/device/%.c=$(BUILD)/tests/%)
EXAMPLES := $(EXAMPLE_C:examples/%.c=$(BUILD)/examples/%)

SPDGEN  := $(BUILD)/spdgen
LIBSPDRT := $(BUILD)/libspdrt.a

.PHONY: all deps demo test install clean
all: $(SPDGEN) $(LIBSPDRT) $(TESTS) $(DEVICE_TESTS) $(EXAMPLES)

deps:
	@scripts/install-deps.sh

$(BUILD)/gen/%.o: gen/%.c | $(BUILD)/gen
	$(CC) -std=c11 $(CFLAGS) $(WARN) $(LUA_CFLAGS) -Igen -Iruntime -MMD -c $< -o $@
$(BUILD)/gen/%.o: gen/%.cpp | $(BUILD)/gen
	$(CXX) -std=c++17 $(CXXFLAGS) $(WARN) -Igen -MMD -c $< -o $@
# Templates are embedded as Lua source (not bytecode, which loses line numbers).
$(BUILD)/gen/embedded.c: scripts/embed.lua $(LUA_SOURCES) $(EMBED_C) | $(BUILD)/gen
	lua5.4 scripts/embed.lua $@ $(LUA_SOURCES) $(EMBED_C)
$(BUILD)/gen/embedded.o: $(BUILD)/gen/embedded.c
	$(CC) -std=c11 $(CFLAGS) -Igen -c $< -o $@
# spdgen uses the runtime for --selftest; libspdrt loads Vulkan only when a context is made.
$(SPDGEN): $(GEN_OBJ) $(LIBSPDRT)
	$(CXX) $(CXXFLAGS) -o $@ $(GEN_OBJ) $(LIBSPDRT) $(STATIC_LIBS)

$(BUILD)/runtime/%.o: runtime/%.c | $(BUILD)/runtime
	$(CC) -std=c11 $(CFLAGS) $(WARN) -Iruntime -MMD -c $< -o $@
$(LIBSPDRT): $(RT_OBJ)
	ar rcs $@ $^

$(BUILD)/t/%.t: tests/%.c tests/tap.h $(LIBSPDRT) | $(BUILD)/t
	$(CC) -std=c11 $(CFLAGS) $(WARN) -Iruntime -Itests -o $@ $< $(LIBSPDRT) -ldl -lm
$(BUILD)/tests/%: tests/device/%.c $(wildcard tests/device/*.h) tests/tap.h $(LIBSPDRT) | $(BUILD)/tests
	$(CC) -std=c11 $(CFLAGS) $(WARN) -Iruntime -Itests -o $@ $< $(LIBSPDRT) -ldl -lm
$(BUILD)/examples/%: examples/%.c $(LIBSPDRT) | $(BUILD)/examples
	$(CC) -std=c11 $(CFLAGS) $(WARN) -Iruntime -o $@ $< $(LIBSPDRT) -ldl -lm

$(BUILD)/gen $(BUILD)/runtime $(BUILD)/t $(BUILD)/tests $(BUILD)/examples:
	mkdir -p $@

# The main job: emit the SPD for every target, validate it, run it on the local Vulkan
# device and compare every level with the CPU reference.
demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh $(BUILD)

# The whole suite (TAP, run by prove). Tests find the binaries through SPDGEN_BUILD.
test: deps
	@$(MAKE) --no-print-directory all bench
	SPDGEN_BUILD=$(abspath $(BUILD)) prove -j2 tests/*.t $(TESTS)

install: $(SPDGEN) $(LIBSPDRT)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/spdgen
	install -m 755 $(SPDGEN) $(DESTDIR)$(PREFIX)/bin/spdgen
	install -m 644 $(LIBSPDRT) $(DESTDIR)$(PREFIX)/lib/libspdrt.a
	install -m 644 runtime/*.h $(DESTDIR)$(PREFIX)/include/spdgen/

clean:
	rm -rf $(BUILD)

# make bench: the GPU benchmarks (bench/README.md); run on the GPU machine.
include bench/bench.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
