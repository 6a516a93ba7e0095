/* SPDX-License-Identifier: GPL-2.0 */
/*
 * initrd's mkcpio (boot/): what the parts of the engine that initrd.c's
 * mkcpio command calls (boot_mkcpio(), boot.h) share.  Each calls only
 * those below it here: mkcpio.c (the archive, whole), kmod.c (modules
 * and their dependencies), kmodunpack.c (a module file unpacked), cpio.c
 * (the archive and its output file).  Nothing here prints or exits: each
 * failing function returns -1 (or NULL) with its error in a struct
 * kit_err (core/kit.h), and the applet dies with it.
 */
#ifndef MKCPIO_H
#define MKCPIO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "core/kit.h"

/* cpio.c */
#define CPIO_FILE_MAX	0xffffffffUL	/* c_filesize: 8 hex digits */

struct cpio {
	int fd;
	const char *path;
	unsigned long ino;
	unsigned long long offset;
	struct kit_err *err;	/* where its errors go */
};

/* Each returns 0, or -1 with *c->err. */
int boot_cpio_header(struct cpio *c, const char *name, unsigned int mode,
		     dev_t rdev, unsigned long size);
int boot_cpio_data(struct cpio *c, const char *name, unsigned int mode,
		   const void *data, size_t len);
/* What to give instead of a path that is no regular file. */
#define REMEDY_IMAGE	"give the RAM disk image's file"
#define REMEDY_INIT	"give -i KIT, a kit binary"
#define REMEDY_INIT_STATIC	"give -i KIT, a kit binary (static, as make " \
	"builds it)"
/* A file copied whole, under a name of its own. */
int boot_cpio_file(struct cpio *c, const char *name, const char *path,
		   const char *remedy);
/*
 * OUT opened for writing: a regular OUT, or a new one, as OUT.XXXXXX in
 * its directory (*target: OUT, renamed over at boot_close_output(); the
 * caller frees it).  The fd, or -1 with *e and no partial file.
 */
int boot_open_output(const char *out, char **target, struct kit_err *e);
/* 0, or -1 with *c->err and the partial file gone. */
int boot_close_output(struct cpio *c, const char *target);
/* OUT left unfinished: closed, and its partial file gone. */
void boot_discard_output(struct cpio *c);

/* kmodunpack.c */
/*
 * The machine an ELF file is for (its e_machine), from its first bytes,
 * len of them; 0 if they are not an ELF header.
 */
unsigned int boot_elf_machine(const unsigned char *data, size_t len);
/*
 * Why the ELF file fd (hdr: its first len bytes, an ELF header) cannot
 * be /init, or NULL: the kernel execs /init with no loader in the
 * archive, so only an ET_EXEC or a static PIE (ET_DYN, DF_1_PIE) with no
 * PT_INTERP runs there.
 */
const char *boot_elf_not_init(int fd, const unsigned char *hdr, size_t len);
/* The machine's name as the kit build names it: "x86", "arm64"... */
const char *boot_machine_arch(unsigned int machine);

/* A module unpacked so far, and the room for it. */
struct unpacked {
	unsigned char *data;
	size_t size, cap;
};

/*
 * Unpacks a module's data (path names its compression): NULL, or why it
 * cannot be.
 */
const char *boot_unpack_module_data(const char *path, const unsigned char *in,
				    size_t size, struct unpacked *u);

/* kmod.c */
#define MODULES_MAX	256

struct modules {
	char dir[PATH_MAX];	/* ROOT/lib/modules/KVER */
	char *dep, *builtin;	/* modules.dep and modules.builtin, whole */
	char *softdep, *alias;	/* modules.softdep and modules.alias */
	/* modules.builtin.modinfo, whole: NAME.KEY=VALUE, NUL-separated */
	char *builtin_info;
	size_t builtin_info_size;
	char *chosen[MODULES_MAX];	/* paths relative to dir, in order */
	bool soft[MODULES_MAX];	/* only a soft dependency: may fail */
	int count;
	/* modules.dep lines: those this request visited (kmod's
	 * mod->visited), and those known to need no module in a cycle. */
	char *visited[MODULES_MAX], *acyclic[MODULES_MAX];
	int nvisited, nacyclic;
	/* What /init is built for (its e_machine), its path and its name
	 * in messages: each module must be for the same machine. */
	unsigned int machine;
	const char *init, *init_name;
	struct kit_err *err;	/* where its errors go */
};

/* A module's name from its path (len bytes): "-" as "_", no suffix. */
void boot_module_name(const char *path, size_t len, char *name, size_t size);
/* Each returns 0, or -1 with *m->err. */
int boot_open_modules(struct modules *m, const char *root, const char *kver);
int boot_add_module(struct modules *m, const char *word);
/* The module that mounts fs, unless built in. */
int boot_add_fs_module(struct modules *m, const char *fs);
/* The chosen modules, unpacked, and their list, into the cpio. */
int boot_cpio_modules(struct cpio *c, struct modules *m);
/* What boot_open_modules() and boot_add_module() took, freed. */
void boot_close_modules(struct modules *m);

#endif
