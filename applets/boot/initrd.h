/* SPDX-License-Identifier: GPL-2.0 */
/* initrd: what its parts, the boot (initrd.c), root= (rootdev.c) and
 * mkcpio (mkcpio.h), share: where the cpio puts things, and root=. */
#ifndef INITRD_H
#define INITRD_H

#include <stdbool.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

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
	char reason[512];	/* why the boot stopped, for the console */
};

/* The parameters of line, as the kernel reads them (cmdline_next()). */
void parse_cmdline(struct boot *b, const char *line);

/* cpioend.c */
/*
 * Where the newc archives at the start of the initrd in fd end, and the
 * image begins (0: no archive first, or a cut one).
 */
off_t cpio_end(int fd);
#define COPY_NO_FILE	(-1)
#define COPY_NO_ROOM	(-2)
int copy_after_cpio(const char *src, const char *dst);

/* rootdev.c */
/* root= (also UUID=, LABEL=, PARTUUID=) as a device number, once the
 * device is there. */
bool root_device(const char *spec, dev_t *dev);
/* An ext2/3/4 superblock's UUID or label matches spec ("UUID=..."). */
bool ext_matches(const char *dev, const char *spec);
/*
 * The PARTUUID of partition partno of the disk at path, as the kernel's
 * partition parsers make it; lbs: the disk's logical block size.
 */
bool part_uuid(const char *path, unsigned int lbs, unsigned int partno,
	       char uuid[37]);
/* Seconds on the monotonic clock. */
double now(void);
/* How long root='s device is waited for without rootwait. */
#define ROOT_PROBE_S	2
bool wait_root(const struct boot *b, dev_t *dev);
/* handle_initrd()'s sysctl, until 7.0 (commit e6ce36ccc86f) */
#define REAL_ROOT_DEV	"/proc/sys/kernel/real-root-dev"
/* Reads (or writes) real-root-dev: 0, or -1 with errno. */
int real_root_dev(unsigned int *value, bool write);
/* A device number as the kernel's new_encode_dev() packs it, and back. */
unsigned int encode_dev(dev_t dev);
dev_t decode_dev(unsigned int v);
bool linuxrc_chose_root(const struct boot *b, void (*linuxrc)(void),
			dev_t *dev);

#endif
