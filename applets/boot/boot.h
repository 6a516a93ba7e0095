/* SPDX-License-Identifier: GPL-2.0 */
/* boot: initrd's engine, PID 1's boot (boot.c) from the kernel command
 * line (cmdline.c) to root= (rootdev.c), and what it shares with mkcpio
 * (mkcpio.h): where the cpio puts things. */
#ifndef BOOT_H
#define BOOT_H

#include <stdbool.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include "core/kit.h"

#define LIST_PATH	"/kit/modules"	/* NAME PATH [soft] lines, load order */
#define IMAGE_PATH	"/kit/image"	/* the IMAGE given to mkcpio */

/* A newc cpio header: its magic and size (the kernel's init/initramfs.c) */
#define NEWC_MAGIC	"070701"
#define NEWC_HDR_SIZE	110

#define RAM0		makedev(1, 0)	/* /dev/ram0 */

/* What the boot reads from the kernel command line (cmdline.c). */
struct boot {
	char *root, *rootfstype, *rootflags, *init, *image;
	const char *shell;		/* "": kit.shell alone */
	bool rw, noinitrd, prompt;
	long root_wait;		/* as the kernel's: s, 0 none, -1 for ever */
	long rootdelay, ramdisk_start;
	char cmdline[4096];
	/* The applet's: says a line of what the boot does (kit_note()). */
	void (*note)(const char *line);
};

/*
 * The boot, as PID 1: mounts /proc, /sys and /dev, reads the command
 * line into b, loads the RAM disk and runs init in the new root.
 * Returns only when the boot cannot go on: -1 with *e saying why.
 */
int boot_run(struct boot *b, char **argv, struct kit_err *e);

/* mkcpio: the cpio whose /init is kit (mkcpio.c, mkcpio.h). */
struct mkcpio_job {
	const char *root, *kver;	/* ROOT/lib/modules/KVER */
	const char *const *modules;	/* -m MODULE, in order */
	int nmodules;
	const char *out;		/* -o OUT; NULL: stdout */
	const char *init;		/* -i KIT; NULL: this kit */
	const char *image;		/* IMAGE, or NULL */
	unsigned long start;		/* IMAGE's first block (-s) */
	struct kit_err err;
};

/*
 * The cpio the job asks for, written whole or not at all: on an error
 * no partial OUT is left and an old OUT stays as it was.  0, or -1 with
 * job->err.
 */
int boot_mkcpio(struct mkcpio_job *job);

/* The parameters of line, as the kernel reads them (cmdline_next()). */
void boot_parse_cmdline(struct boot *b, const char *line);

/* cpioend.c */
/*
 * Where the newc archives at the start of the initrd in fd end, and the
 * image begins (0: no archive first, or a cut one).
 */
off_t boot_cpio_end(int fd);
#define COPY_NO_FILE	(-1)
#define COPY_NO_ROOM	(-2)
int boot_copy_after_cpio(const char *src, const char *dst);

/* rootdev.c */
/* root= (also UUID=, LABEL=, PARTUUID=) as a device number, once the
 * device is there. */
bool boot_root_device(const char *spec, dev_t *dev);
/* An ext2/3/4 superblock's UUID or label matches spec ("UUID=..."). */
bool boot_ext_matches(const char *dev, const char *spec);
/*
 * The PARTUUID of partition partno of the disk at path, as the kernel's
 * partition parsers make it; lbs: the disk's logical block size.
 */
bool boot_part_uuid(const char *path, unsigned int lbs, unsigned int partno,
		    char uuid[37]);
/* Seconds on the monotonic clock. */
double boot_now(void);
/* How long root='s device is waited for without rootwait. */
#define ROOT_PROBE_S	2
bool boot_wait_root(const struct boot *b, dev_t *dev);
/* handle_initrd()'s sysctl, until 7.0 (commit e6ce36ccc86f) */
#define REAL_ROOT_DEV	"/proc/sys/kernel/real-root-dev"
/* Reads (or writes) real-root-dev: 0, or -1 with errno. */
int boot_real_root_dev(unsigned int *value, bool write);
/* A device number as the kernel's new_encode_dev() packs it. */
unsigned int boot_encode_dev(dev_t dev);
int boot_linuxrc_chose_root(const struct boot *b, dev_t *dev,
			    struct kit_err *e,
			    int (*linuxrc)(const struct boot *b,
					   struct kit_err *e));

#endif
