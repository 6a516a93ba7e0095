/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside initrd's mkcpio (boot/): what its parts share.  Each calls only
 * those below it here: mkcpio.c (the command), kmod.c (modules and their
 * dependencies), kmodunpack.c (a module file unpacked), cpio.c (the
 * archive and its output file).
 */
#ifndef MKCPIO_H
#define MKCPIO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* cpio.c */
#define CPIO_FILE_MAX	0xffffffffUL	/* c_filesize: 8 hex digits */

struct cpio {
	int fd;
	const char *path;
	unsigned long ino;
	unsigned long long offset;
};

void cpio_header(struct cpio *c, const char *name, unsigned int mode,
		 dev_t rdev, unsigned long size);
void cpio_data(struct cpio *c, const char *name, unsigned int mode,
	       const void *data, size_t len);
/* A file mkcpio copies (/init, IMAGE), open, and never a directory. */
int open_regular(const char *path, struct stat *st);
/* A file copied whole, under a name of its own. */
void cpio_file(struct cpio *c, const char *name, const char *path);
/*
 * OUT opened for writing: a regular OUT, or a new one, as OUT.XXXXXX in
 * its directory (*target: OUT, renamed over at close_output()).
 */
int open_output(const char *out, const char *image, char **target);
void close_output(struct cpio *c, const char *target);

/* kmodunpack.c */
/* A file whole, NUL-terminated; NULL when it cannot be opened. */
char *read_whole(const char *path, size_t *size);
/* A module unpacked so far, and the room for it. */
struct unpacked {
	unsigned char *data;
	size_t size, cap;
};

/*
 * Unpacks a module's data (path names its compression): NULL, or why it
 * cannot be.
 */
const char *unpack_module_data(const char *path, const unsigned char *in,
			       size_t size, struct unpacked *u);
void unpack_module(const char *path, struct unpacked *u);

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
};

/* A module's name from its path (len bytes): "-" as "_", no suffix. */
void module_name(const char *path, size_t len, char *name, size_t size);
void open_modules(struct modules *m, const char *root, const char *kver);
void add_module(struct modules *m, const char *word);
/* The module that mounts fs, unless built in. */
void add_fs_module(struct modules *m, const char *fs);
/* The chosen modules, unpacked, and their list, into the cpio. */
void cpio_modules(struct cpio *c, struct modules *m);

#endif
