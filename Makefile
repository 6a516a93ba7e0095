# kit: one static multicall binary.  `make help` lists the targets.

# O: where objects and generated files go.  With O= on the command line the
# binary goes there too, so several builds can share one checkout.  A
# cross build (ARCH= below) goes to build/ARCH, binary and all: in build/
# and ./kit, the host's objects would pass for its own.
O ?= build$(CROSS_DIR)
ifeq ($(origin O),command line)
KIT ?= $(O)/kit
else
KIT ?= $(if $(CROSS_DIR),$(O)/kit,kit)
endif

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# Where the initramfs generators look for what kit adds to them.
INITRAMFS_TOOLS_DIR ?= /usr/share/initramfs-tools
DRACUT_MODULES_DIR ?= /usr/lib/dracut/modules.d
DRACUT_SOURCE := applets/integration/dracut
# The initramfs-tools stages whose folders get kit's boot-status script.
ITT_STAGES := init-top local-top init-bottom panic
ITT_SOURCE := applets/integration/initramfs-tools
KDIR ?= /lib/modules/$(shell uname -r)/build

# ARCH: the target, by the kernel's name for it (x86, arm64, arm, riscv), as
# `make modules ARCH=` takes it; by default the machine's own.  Another
# ARCH cross-builds with Debian's cross compiler against SYSROOT, the
# target's headers and static libraries: by default kit's own, made
# from Debian's packages of that architecture in the rig's cache
# (tests/sysroot, on first use), outside the host's dpkg; a Buildroot
# staging directory or a Yocto SDK's sysroot is given as SYSROOT=DIR.
HOST_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
	     -e 's/arm.*/arm/' -e 's/riscv64/riscv/')
ARCH ?= $(HOST_ARCH)
override ARCH := $(patsubst x86_64,x86,$(ARCH))
TRIPLET_x86 := x86_64-linux-gnu
TRIPLET_arm64 := aarch64-linux-gnu
TRIPLET_arm := arm-linux-gnueabihf
TRIPLET_riscv := riscv64-linux-gnu
DEB_ARCH_x86 := amd64
DEB_ARCH_arm64 := arm64
DEB_ARCH_arm := armhf
DEB_ARCH_riscv := riscv64
# The architectures the tests cross-build a kit for (make cross-kits).
CROSS_ARCHES := arm64 arm riscv
ifeq ($(TRIPLET_$(ARCH)),)
$(error ARCH=$(ARCH): kit builds for x86, arm64, arm and riscv)
endif
ifneq ($(ARCH),$(HOST_ARCH))
CROSS_COMPILE ?= $(TRIPLET_$(ARCH))-
CROSS_DIR := /$(ARCH)
# Made (or found) once per make, and only by a make that compiles.
SYSROOT ?= $(eval SYSROOT := $(shell tests/sysroot \
	$(DEB_ARCH_$(ARCH))))$(SYSROOT)
endif
# The release's own linker, where tests/sysroot had to bring it
# (SYSROOT/.host-ld: the host's cannot link the sysroot's libraries).
SYSROOT_FLAGS = $(if $(SYSROOT),--sysroot=$(SYSROOT) \
	$(addprefix -B,$(wildcard $(SYSROOT)/.host-ld/)))
# Debian 13's libelf.a (elfutils 0.192) does not link statically: it
# calls eu_search_tree_init(), whose object (lib/eu-search.o) it lacks.
# Where the host's libelf does not link so, a native build takes its
# static libraries from kit's sysroot of the host's architecture first
# (tests/sysroot: the same release, libelf from its backports).
ifeq ($(CROSS_COMPILE)$(origin SYSROOT),undefined)
static_libelf_links = $(shell printf 'char *elf_begin();\nint main(void) { \
	return !elf_begin(); }\n' | $(CC) -w -static -x c - -o /dev/null \
	-lelf -lz -lzstd >/dev/null 2>&1 && echo yes)
NATIVE_LIBS_DIR = $(if $(filter sock,$(ENGINE_DIRS)),$(if \
	$(static_libelf_links),,-L$(shell tests/sysroot \
	$(DEB_ARCH_$(ARCH)))/usr/lib/$(TRIPLET_$(ARCH))))
endif
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
HOSTCC ?= cc
CLANG ?= clang
LLVM_STRIP ?= llvm-strip
BPFTOOL ?= bpftool
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# kit's own flags; CFLAGS, CPPFLAGS and LDFLAGS (the user's, or
# dpkg-buildflags') add to them.
# Built for size, but for the code a benchmark sets a speed target on:
# the socket walk, the runner's per-row callbacks and the rows'
# formatting (with the core's JSON quoting and writes), and the RAM-disk
# engine.
KIT_OPT := -Os
$(O)/sock/sockload.o $(O)/sock/sockwalk.o $(O)/sock/sockfmt.o \
	$(O)/sock/sockrun.o $(O)/core/lib.o: KIT_OPT := -O2
$(O)/rd/%.o: KIT_OPT := -O2
KIT_CFLAGS = $(KIT_OPT) -std=gnu11 -Wall -Wextra -ffunction-sections -fdata-sections \
	      -Iapplets -I$(O) $(SYSROOT_FLAGS)
# STATIC= links dynamically: the sanitizers' build (tests/sanitize.t) only.
STATIC ?= -static
KIT_LDFLAGS = $(STATIC) -s -Wl,--gc-sections $(SYSROOT_FLAGS)
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Ibpf -I$(O)

# An applet is an applets/*.c with a KIT_APPLET line; APPLETS= builds a
# subset.  The engines they call sit in folders of their own under
# applets/ (core/ is the multicall core every applet links).
ALL_APPLETS := $(sort $(basename $(notdir \
	$(shell grep -l '^KIT_APPLET' applets/*.c))))
APPLETS ?= $(ALL_APPLETS)
override APPLETS := $(sort $(APPLETS))
$(foreach a,$(APPLETS),$(if $(filter $(a),$(ALL_APPLETS)),,\
	$(error APPLETS: no applet $(a); kit has $(ALL_APPLETS))))
# The engines the applets link: the folders their files include from
# ("rd/rd.h": rd/), and the folders those engines include from.
includes_of = $(sort $(shell sed -n 's|^\#include "\([a-z]*\)/.*|\1|p' \
	/dev/null $(1)))
engines_of = $(filter-out core,$(call includes_of,$(1)))
# The engines that files call, and those the engines call in turn.
engines_called = $(sort $(call engines_of,$(1)) $(call engines_of,$(wildcard \
	$(patsubst %,applets/%/*.c,$(call engines_of,$(1))))))
ENGINE_DIRS := $(call engines_called,$(APPLETS:%=applets/%.c))
CORE := $(basename $(wildcard applets/core/*.c))
ENGINES := $(basename $(wildcard $(ENGINE_DIRS:%=applets/%/*.c)))
OBJS := $(patsubst applets/%,$(O)/%.o,$(CORE) $(addprefix applets/,$(APPLETS)) \
	$(ENGINES))
# The libraries each engine calls; linked in this order (libbpf needs
# libelf and zlib), and only those of the engines linked: a kit without
# the socket applets has no libbpf, libelf or BPF object in it.
LIBS_sock := bpf elf z zstd
LIBS_rd := z lzma bz2 zstd lz4 lzo2
LIBS_boot := z lzma zstd
LIBS_led :=
LIBS_ORDER := bpf elf z lzma bz2 zstd lz4 lzo2
engine_libs = $(filter $(foreach d,$(1),$(LIBS_$(d))),$(LIBS_ORDER))
KIT_LDLIBS = $(addprefix -l,$(call engine_libs,$(1)))
# What the build takes from Debian: each library's HEADER:PACKAGE, and the
# compiler and (for the socket engine) the BPF tools.  Checked once per
# set of engines, so a missing one is named, not met as a compiler error.
HEADER_bpf := bpf/libbpf.h:libbpf-dev
HEADER_elf := libelf.h:libelf-dev
HEADER_z := zlib.h:zlib1g-dev
HEADER_lzma := lzma.h:liblzma-dev
HEADER_bz2 := bzlib.h:libbz2-dev
HEADER_zstd := zstd.h:libzstd-dev
HEADER_lz4 := lz4.h:liblz4-dev
HEADER_lzo2 := lzo/lzo1x.h:liblzo2-dev
BUILD_HEADERS := $(foreach l,$(call engine_libs,$(ENGINE_DIRS)),$(HEADER_$(l)))
BUILD_TOOLS := $(CC):gcc$(if $(CROSS_COMPILE),-$(TRIPLET_$(ARCH))) \
	$(if $(filter sock,$(ENGINE_DIRS)),$(CLANG):clang $(LLVM_STRIP):llvm \
	$(BPFTOOL):bpftool)
empty :=
space := $(empty) $(empty)
BUILD_DEPS := $(O)/build-deps-$(subst $(space),-,$(ENGINE_DIRS))

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' $(1) $(2);
endif

.DELETE_ON_ERROR:
.PHONY: all deps check test unit install uninstall modules modules_clean \
	run vm-shell vmtest bench clean help $(CROSS_ARCHES:%=kit-%) cross-kits \
	man FORCE

all: $(KIT) man

$(KIT): $(OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(KIT_LDFLAGS) $(LDFLAGS) -o $@ $(OBJS) \
		$(NATIVE_LIBS_DIR) $(call KIT_LDLIBS,$(ENGINE_DIRS)) $(LDLIBS)

$(O)/%.o: applets/%.c applets/core/kit.h | $(BUILD_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(KIT_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# kit --version: the commit the binary was built from.  Written again
# only when that changes, so a new commit rebuilds kit.o and no more; a
# git describe that fails (no git, or root in a user's checkout, which
# git refuses as "dubious ownership") keeps what the last build wrote.
$(O)/core/kit.o: $(O)/version.h
$(O)/version.h: FORCE | $(O)
	$(Q)echo '#define KIT_VERSION "$(VERSION)"' >$@.tmp; \
	if cmp -s $@.tmp $@ || { [ "$(VERSION)" = unknown ] && [ -f $@ ]; }; \
	then rm $@.tmp; else mv $@.tmp $@; fi
FORCE:

# A file that says the build's needs were met for these engines (with
# the CC of the build that wrote it).
$(BUILD_DEPS): | $(O)
	$(Q)missing=; \
	for t in $(BUILD_TOOLS); do \
		command -v $${t%%:*} >/dev/null || missing="$$missing $${t#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "kit: the build needs the Debian packages$$missing;" \
		     "run 'make deps' as root" >&2; \
		exit 1; \
	fi; \
	$(if $(CROSS_COMPILE),$(if $(SYSROOT),,\
	echo "kit: ARCH=$(ARCH) has no sysroot (tests/sysroot, above);" \
	     "give one as SYSROOT=DIR" >&2; exit 1;)) \
	for h in $(BUILD_HEADERS); do \
		echo "#include <$${h%%:*}>" | \
		$(CC) $(SYSROOT_FLAGS) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 || \
		missing="$$missing $${h#*:}"; \
	done; \
	if [ -n "$$missing" ] && [ -n "$(SYSROOT)" ]; then \
		echo "kit: SYSROOT $(SYSROOT) lacks the headers of the" \
		     "Debian packages$$missing ($(DEB_ARCH_$(ARCH)))" >&2; \
		exit 1; \
	elif [ -n "$$missing" ]; then \
		echo "kit: the build needs the Debian packages$$missing;" \
		     "run 'make deps' as root" >&2; \
		exit 1; \
	fi; \
	echo "$(CC) $(SYSROOT)" >$@

# A file with a BPF program includes its generated skeleton, and its
# light skeleton (the kernel relocates the program: NAME_light): each
# object depends on the skeletons its source includes ("NAME.skel.h",
# "NAME.lskel.h"), found as the engines are, from the #include lines.
SKEL_INCLUDES := $(shell grep -Ho '^\#include "[a-z_]*\.l*skel\.h"' \
	applets/*.c applets/*/*.c | \
	sed 's|^applets/\(.*\)\.c:\#include "\(.*\)"|\1.o:\2|')
$(foreach i,$(SKEL_INCLUDES),$(eval $(O)/$(subst :,: $(O)/,$(i))))
# tcpiter's lean program, the light skeleton only, is tcpiter.bpf.c with
# less in it.
$(O)/tcpiter_lean.bpf.o: bpf/tcpiter.bpf.c

# A BPF object as the skeletons embed it (made again when this file
# changes how): its BTF without the source
# lines that clang's BTF writer copies in when it can read the source
# (BTFDebug::populateFileContent(); the prefix map sends it elsewhere),
# without DWARF and branch labels (the loaders read BTF and the
# relocations' symbols), and linked by libbpf's linker, which resolves
# the relocations of .BTF and .BTF.ext, as bpftool's own build does.
bpf_object = $(CLANG) $(BPF_CFLAGS) $(1) \
		-fdebug-prefix-map=$(CURDIR)=/kit-source-not-embedded \
		-c -o $@.tmp $< && \
	$(LLVM_STRIP) -g --wildcard --strip-symbol='LBB*' $@.tmp && \
	$(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

$(O)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) Makefile | $(O)
	$(call msg,BPF,$@)
	$(Q)$(call bpf_object)

# kill's programs (tcpkill, udpkill): tcpiter's and udpiter's, closing
# sockets with the bpf_sock_destroy() kfunc of 6.5 (commit 4ddbcb886268).
# Objects of their own: a kfunc named in a program stops it loading on
# the kernels before.  Light skeletons only: every kernel with the kfunc
# takes them (5.17, commit fbd94c7afcf9).
$(O)/%kill.bpf.o: bpf/%iter.bpf.c $(wildcard bpf/*.h) Makefile | $(O)
	$(call msg,BPF,$@)
	$(Q)$(call bpf_object,-DSOCK_KILL_KFUNC)

# The skeletons, their embedded object deflated by skelpack (a tool for
# the build machine, so HOSTCC), inflated at run time by sock/bpfblob.c.
$(O)/skelpack: bpf/skelpack.c | $(O)
	$(call msg,HOSTCC,$@)
	$(Q)$(HOSTCC) -O2 -Wall -o $@ $< -lz

$(O)/%.skel.h: $(O)/%.bpf.o $(O)/skelpack
	$(call msg,GENSKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@.tmp && \
	$(O)/skelpack < $@.tmp > $@ && rm $@.tmp

$(O)/%.lskel.h: $(O)/%.bpf.o $(O)/skelpack
	$(call msg,GENSKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name $*_light > $@.tmp && \
	$(O)/skelpack < $@.tmp > $@ && rm $@.tmp

$(O):
	$(Q)mkdir -p $@

# The man pages: kit(1) and one per applet, each a cut of README (the
# manual, written once) with its applet's KIT_APPLET summary as NAME, by
# applets/core/manpage.awk (which says how).  A few milliseconds of awk,
# so part of all.  Dated by README's last commit, else its mtime.  Each
# page is written beside and renamed: the suites that make install side
# by side never read half a page.
MAN_PAGES := $(patsubst %,$(O)/man/%.1,kit $(ALL_APPLETS))
# The first line of each: how install and uninstall tell kit's pages from
# others of the same name.
MAN_MARK := made by applets/core/manpage.awk
man: $(MAN_PAGES)

$(O)/man/%.1: README applets/core/manpage.awk $(ALL_APPLETS:%=applets/%.c) \
	      $(O)/version.h
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)date=$$(git log -1 --format=%cs -- README 2>/dev/null); \
	[ -n "$$date" ] || date=$$(date -u -r README +%Y-%m-%d); \
	awk -v page=$* -v version='$(VERSION)' -v date="$$date" \
		-f applets/core/manpage.awk $(ALL_APPLETS:%=applets/%.c) \
		README >$@.$$$$ && mv $@.$$$$ $@ || { rm -f $@.$$$$; exit 1; }

-include $(OBJS:.o=.d)

# Unit tests: tests/X_unit.c links the core's lib.o and the engines it
# includes from, with those they call, found as an applet's are.
UNITS := $(basename $(notdir $(wildcard tests/*_unit.c)))
unit_objs = $(patsubst applets/%.c,$(O)/%.o,$(wildcard $(patsubst \
	%,applets/%/*.c,$(call engines_called,$(1)))))
.SECONDEXPANSION:
$(O)/%_unit: tests/%_unit.c $(O)/core/lib.o \
	     $$(call unit_objs,tests/$$*_unit.c) \
	     $(wildcard applets/*.c applets/*/*.[ch] bpf/*.h tests/*.h) | $(O)
	$(call msg,CC,$@)
	$(Q)$(CC) $(KIT_CFLAGS) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(O)/core/lib.o \
		$(call unit_objs,$<) \
		$(call KIT_LDLIBS,$(call engines_called,$<)) $(LDLIBS)

unit: $(patsubst %,$(O)/%,$(UNITS))

deps:
	$(Q)tests/deps

# The kits of the VM tests' arm64, armhf and riscv64 guests (tests/vm/run's
# KIT_ARM64, KIT_ARM and KIT_RISCV64), each cross-built in a directory of
# its own.
KIT_ARM64 := $(O)/arm64/kit
KIT_ARM := $(O)/arm/kit
KIT_RISCV64 := $(O)/riscv/kit
$(CROSS_ARCHES:%=kit-%): kit-%:
	$(Q)$(MAKE) --no-print-directory ARCH=$* O=$(O)/$* KIT=$(O)/$*/kit all

TEST_ENV = KIT=$(abspath $(KIT)) KIT_ARM64=$(abspath $(KIT_ARM64)) \
	   KIT_ARM=$(abspath $(KIT_ARM)) KIT_RISCV64=$(abspath $(KIT_RISCV64)) \
	   O=$(abspath $(O))

# The README's test command: install what is missing, build, test all.
# An architecture whose kit cannot be built (its sysroot or compiler not
# to be had) stops nothing: the tests of its kit fail, saying why, and
# every other architecture's run.  No kit of an older build stands in.
check: deps
	$(Q)$(MAKE) --no-print-directory all unit
	$(Q)$(MAKE) --no-print-directory cross-kits
	$(Q)$(TEST_ENV) tests/run

test: all unit
	$(Q)$(MAKE) --no-print-directory cross-kits
	$(Q)$(TEST_ENV) tests/run $(T)

cross-kits:
	$(Q)for a in $(CROSS_ARCHES); do \
		$(MAKE) --no-print-directory kit-$$a || { rm -f $(O)/$$a/kit; \
		echo "kit: ARCH=$$a not built (above): its tests fail" >&2; }; \
	done

# Every path of install and uninstall reaches the shell single-quoted,
# so a BINDIR with a space or a & in it is installed where it says; one
# with a quote in it is refused before anything is written.
INSTALL_DIRS := $(DESTDIR)$(BINDIR)$(DESTDIR)$(INITRAMFS_TOOLS_DIR)$(DESTDIR)$(DRACUT_MODULES_DIR)$(DESTDIR)$(MANDIR)
INSTALL_SH = set -e; $(if $(findstring ',$(INSTALL_DIRS)),\
	echo "kit: install paths cannot hold a quote ('): choose BINDIR and \
		DESTDIR without one" >&2; exit 2,\
	bin='$(DESTDIR)$(BINDIR)'; itt='$(DESTDIR)$(INITRAMFS_TOOLS_DIR)'; \
	dracut='$(DESTDIR)$(DRACUT_MODULES_DIR)/90kit'; \
	man1='$(DESTDIR)$(MANDIR)/man1'; \
	bindir=$$(printf '%s\n' '$(BINDIR)' | sed 's/[\\&|]/\\&/g'); \
	left_alone() { echo "kit: $$1 is not kit's: left alone"; }; \
	kits_page() { head -n 1 "$$1" | grep -qF '$(MAN_MARK)'; })

# kit, its links, and what the initramfs generators run: the hook is
# told where kit is.  kit(1) and the pages of the applets this kit has,
# into MANDIR/man1; a page of that name that is not kit's is left alone,
# as kit --install leaves a file alone.
install: $(KIT) man
	$(Q)$(INSTALL_SH); \
	install -d "$$bin" "$$itt/hooks" "$$dracut" "$$man1"; \
	install -m 0755 '$(KIT)' "$$bin/kit"; \
	"$$bin/kit" --install -s "$$bin"; \
	for p in kit $$("$$bin/kit" --list); do \
		f=$$man1/$$p.1; \
		if { [ -e "$$f" ] || [ -L "$$f" ]; } && ! kits_page "$$f"; then \
			left_alone "$$f"; \
		else \
			install -m 0644 '$(O)/man/'"$$p.1" "$$f"; \
		fi; \
	done; \
	sed "s|@BINDIR@|$$bindir|" $(ITT_SOURCE)/hooks/kit >"$$itt/hooks/kit"; \
	chmod 0755 "$$itt/hooks/kit"; \
	for s in $(ITT_STAGES); do \
		install -D -m 0755 $(ITT_SOURCE)/scripts/kit \
			"$$itt/scripts/$$s/kit"; \
	done; \
	install -m 0755 $(DRACUT_SOURCE)/90kit/kit-*.sh "$$dracut/"; \
	sed "s|@BINDIR@|$$bindir|" $(DRACUT_SOURCE)/90kit/module-setup.sh \
		>"$$dracut/module-setup.sh"; \
	chmod 0755 "$$dracut/module-setup.sh"; \
	echo "kit: installed $$bin/kit, its links, its man pages, its" \
		"initramfs-tools hook and scripts and its dracut module"

# What install made, and only that: an applet's name in BINDIR goes when
# it is kit (a link to it, by name or path, or the same file), not when
# install left it alone as someone else's; a page in MANDIR/man1 goes
# when its first line is kit's (MAN_MARK).  The applets are the
# sources', not a kit's --list: no kit need be found to uninstall.
uninstall:
	$(Q)$(INSTALL_SH); \
	for a in $(ALL_APPLETS); do \
		f=$$bin/$$a; \
		if [ -L "$$f" ] && [ "$$(readlink "$$f")" = kit ] || \
		   { [ -e "$$bin/kit" ] && [ "$$f" -ef "$$bin/kit" ]; }; then \
			rm -f "$$f"; \
		elif [ -e "$$f" ] || [ -L "$$f" ]; then \
			left_alone "$$f"; \
		fi; \
	done; \
	rm -f "$$bin/kit" "$$itt/hooks/kit"; \
	for s in $(ITT_STAGES); do rm -f "$$itt/scripts/$$s/kit"; done; \
	rm -rf "$$dracut"; \
	for p in kit $(ALL_APPLETS); do \
		f=$$man1/$$p.1; \
		if [ -f "$$f" ] && [ ! -L "$$f" ] && kits_page "$$f"; then \
			rm -f "$$f"; \
		elif [ -e "$$f" ] || [ -L "$$f" ]; then \
			left_alone "$$f"; \
		fi; \
	done

# The out-of-tree kernel module in kernel/, through the top-level Kbuild.
modules:
	$(Q)$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules_clean:
	$(Q)$(MAKE) -C $(KDIR) M=$(CURDIR) clean

# kit's main job: the five applets at work in a booted kernel (the demo).
# A cross build's demo also builds a kit for this machine, with initrd
# only, whatever the command line says of the target's compiler and
# applets: it makes the initrd wrapper (kit initrd mkcpio -i) here.
HOST_KIT := $(if $(CROSS_DIR),$(O)/host/kit,$(KIT))
run: deps
	$(Q)$(MAKE) --no-print-directory $(if $(Q),-s) all
	$(Q)$(if $(CROSS_DIR),$(MAKE) --no-print-directory $(if $(Q),-s) \
		ARCH=$(HOST_ARCH) CROSS_COMPILE= CC=$(HOSTCC) APPLETS=initrd \
		O=$(O)/host KIT=$(HOST_KIT) all)
	$(Q)KIT=$(abspath $(KIT)) DEMO_ARCH=$(DEB_ARCH_$(ARCH)) \
		HOST_KIT=$(abspath $(HOST_KIT)) tests/vm/run-demo

# A shell in the VM, with kit and the module: make vm-shell K=6.12
K ?= 6.1
vm-shell: deps
	$(Q)$(MAKE) --no-print-directory all cross-kits
	$(Q)$(TEST_ENV) tests/vm/run -i -k $(K)

vmtest: all
	$(Q)$(MAKE) --no-print-directory cross-kits
	$(Q)$(TEST_ENV) tests/run vm

bench: all
	$(Q)KIT=$(abspath $(KIT)) CLANG=$(CLANG) BPFTOOL=$(BPFTOOL) \
		tests/bench/run $(B)

clean:
	rm -rf $(O) kit
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null

help:
	@echo 'make            build ./kit (V=1 shows commands, O=DIR builds in DIR)'
	@echo 'make check      install missing Debian packages, build, run every test'
	@echo 'make test T=..  build and run the tests named (tests/run T...)'
	@echo 'make modules    build kernel/ for KDIR (default: the running kernel)'
	@echo 'make run        boot a Debian kernel in qemu: the five applets at work'
	@echo 'make vm-shell   a shell in that VM (K=6.12, arm64/7.3, riscv64/7.2...: the'
	@echo '                kernels of tests/vm/run -k; default 6.1)'
	@echo 'make bench B=.. benchmarks: tests/bench/run B...'
	@echo 'make man        the man pages, from README, into $$(O)/man'
	@echo 'make install    install kit and its links into $$(DESTDIR)$$(PREFIX)/bin,'
	@echo '                its man pages into $$(DESTDIR)$$(MANDIR)/man1 (MANDIR:'
	@echo '                $$(PREFIX)/share/man), its initramfs-tools hook and'
	@echo '                scripts, its dracut module'
