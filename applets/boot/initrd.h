/* SPDX-License-Identifier: GPL-2.0 */
/* initrd: what its parts, the boot (initrd.c), root= (rootdev.c) and
 * mkcpio (mkcpio.c), share: where the cpio puts things, and root=. */
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

int mkcpio_main(int argc, char **argv);
/* root= (also UUID=, LABEL=, PARTUUID=) as a device number, once the
 * device is there. */
bool root_device(const char *spec, dev_t *dev);

#endif
