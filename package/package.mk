# package/package.mk: libspdrt as a shared library, and `make install` / `make uninstall`.
# Included from the Makefile after its own rules (it uses BUILD, CC, CFLAGS, RT_OBJ,
# LIBSPDRT and SPDGEN).
#
#   make install   PREFIX=/usr/local (BINDIR, LIBDIR, INCLUDEDIR, PKGCONFIGDIR, CMAKEDIR
#                  default below it; DESTDIR stages the whole tree elsewhere)
#   make uninstall the same variables: removes exactly the files install wrote
#
# Layout: BINDIR/spdgen; INCLUDEDIR/spdgen/ the public headers (runtime/include, so
# #include <spdgen/spdrt.h>); LIBDIR/libspdrt.a (PIC), libspdrt.so.VERSION with its soname
# link and libspdrt.so; PKGCONFIGDIR/spdgen.pc; CMAKEDIR/spdgenConfig.cmake and
# spdgenConfigVersion.cmake.

VERSION       := $(shell sed -n 's/^\#define SPDGEN_VERSION "\(.*\)"$$/\1/p' gen/cli.h)
VERSION_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
VERSION_MINOR := $(word 2,$(subst ., ,$(VERSION)))
# The soname changes when the ABI may: every major version, and below 1.0 every minor one.
SOVERSION     := $(if $(filter 0,$(VERSION_MAJOR)),$(VERSION_MAJOR).$(VERSION_MINOR),$(VERSION_MAJOR))
LIBSPDRT_SO   := $(BUILD)/libspdrt.so.$(VERSION)

BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR     ?= $(LIBDIR)/cmake/spdgen
PUBLIC_H     := $(notdir $(wildcard runtime/include/*.h))

all: $(LIBSPDRT_SO)

# The public API only (package/libspdrt.map); -ldl -lm recorded as its needs.
$(LIBSPDRT_SO): $(RT_OBJ) package/libspdrt.map
	$(CC) -shared $(CFLAGS) -Wl,-soname,libspdrt.so.$(SOVERSION) -Wl,--no-undefined \
		-Wl,--version-script=package/libspdrt.map -o $@ $(RT_OBJ) -ldl -lm
	ln -sf $(notdir $@) $(BUILD)/libspdrt.so.$(SOVERSION)
	ln -sf $(notdir $@) $(BUILD)/libspdrt.so

# @NAME@ in the package's templates -> this install's paths and version.
PACKAGE_SED = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@BINDIR@|$(BINDIR)|g' \
	-e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	-e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' \
	-e 's|@VERSION_MINOR@|$(VERSION_MINOR)|g' -e 's|@SOVERSION@|$(SOVERSION)|g'

# make splits a path with a space into two words (install would write beside it, uninstall
# remove what the second word names) and spdgen.pc's -I and -L could not name it: refused.
INSTALL_VARS := DESTDIR PREFIX BINDIR LIBDIR INCLUDEDIR PKGCONFIGDIR CMAKEDIR
install_paths_checked = $(foreach v,$(INSTALL_VARS),$(if $(word 2,$($(v))),$(error $(v)=$($(v)): \
	install paths may not hold spaces (make splits them, and pkg-config flags cannot name them))))

.PHONY: install uninstall
install: $(SPDGEN) $(LIBSPDRT) $(LIBSPDRT_SO)
	@: $(install_paths_checked)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/spdgen \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR)
	install -m 755 $(SPDGEN) $(DESTDIR)$(BINDIR)/spdgen
	install -m 644 $(addprefix runtime/include/,$(PUBLIC_H)) $(DESTDIR)$(INCLUDEDIR)/spdgen/
	install -m 644 $(LIBSPDRT) $(DESTDIR)$(LIBDIR)/libspdrt.a
	install -m 755 $(LIBSPDRT_SO) $(DESTDIR)$(LIBDIR)/libspdrt.so.$(VERSION)
	ln -sf libspdrt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libspdrt.so.$(SOVERSION)
	ln -sf libspdrt.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libspdrt.so
	$(PACKAGE_SED) package/spdgen.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/spdgen.pc
	$(PACKAGE_SED) package/spdgenConfig.cmake.in >$(DESTDIR)$(CMAKEDIR)/spdgenConfig.cmake
	$(PACKAGE_SED) package/spdgenConfigVersion.cmake.in >$(DESTDIR)$(CMAKEDIR)/spdgenConfigVersion.cmake

# Only spdgen's own folders are removed, and only when empty.
uninstall:
	@: $(install_paths_checked)
	rm -f $(DESTDIR)$(BINDIR)/spdgen $(addprefix $(DESTDIR)$(INCLUDEDIR)/spdgen/,$(PUBLIC_H)) \
		$(DESTDIR)$(LIBDIR)/libspdrt.a $(DESTDIR)$(LIBDIR)/libspdrt.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/libspdrt.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libspdrt.so \
		$(DESTDIR)$(PKGCONFIGDIR)/spdgen.pc $(DESTDIR)$(CMAKEDIR)/spdgenConfig.cmake \
		$(DESTDIR)$(CMAKEDIR)/spdgenConfigVersion.cmake
	rmdir $(DESTDIR)$(INCLUDEDIR)/spdgen $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
