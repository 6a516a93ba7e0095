/* SPDX-License-Identifier: GPL-2.0 */
/* initrd: what its two halves, the boot (initrd.c) and mkcpio (mkcpio.c),
 * agree on: where the cpio puts things. */
#ifndef INITRD_H
#define INITRD_H

#define LIST_PATH	"/kit/modules"	/* NAME PATH [soft] lines, load order */
#define IMAGE_PATH	"/kit/image"	/* the IMAGE given to mkcpio */

int mkcpio_main(int argc, char **argv);

#endif
