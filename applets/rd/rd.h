/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RAM-disk engine: an image found in files (the volumes of one
 * image, read one after another) the way the kernel's
 * identify_ramdisk_image() finds it, decompressed as rd_load_image() did,
 * and loaded into a RAM disk, a block device or a file.  rdload and
 * initrd call it; it opens, checks and writes, and prints nothing:
 * report lines go to the caller's say(), errors to job->err.
 */
#ifndef RD_H
#define RD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/kit.h"

#define RD_BLOCK	1024		/* the kernel's BLOCK_SIZE: KiB */
/* -s START, as rdload and initrd mkcpio take it, and as the kernel's
 * ramdisk_start= reads it (%i): what a bad one is told, with the range. */
#define RD_START_BAD	"-s takes a block number (1 KiB blocks), 0 to %d " \
	"in decimal, 0x hex or 0 octal; got %s"

struct rd_job {
	char **volumes;			/* the image's files, in order */
	int count;
	uint64_t start;			/* the image's offset in bytes */
	const char *target;		/* where to load; NULL: identify */
	bool allow_file;		/* target may be a regular file */
	bool verify;			/* read the target back, compare */
	bool prompt;			/* ask() before each further volume */
	/* "insert disk #N (PATH)": 0 once ENTER came, else -1 with errno
	 * (0 at the end of input). */
	int (*ask)(const char *prompt);
	/* One report line, the kernel's words, no newline; may be NULL. */
	void (*say)(const char *line);
	/* Every 4 MiB queued for the target; may be NULL. */
	void (*progress)(struct rd_job *job, uint64_t loaded);
	void *ctx;			/* the caller's */

	const char *fs;			/* found: the filesystem, if known */
	struct kit_err err;		/* the first error */
};

/*
 * What the kernel finds at start and the size it would load ("RAMDISK:
 * gzip image found at block N", "RAMDISK: image size NKiB"); writes
 * nothing.  0, or -1 with job->err.
 */
int rd_identify(struct rd_job *job);
/*
 * Finds the image and loads it into job->target.  Nothing is written
 * before the image is found, the volumes are checked not to share
 * storage with the target, and the target is big enough when the size is
 * known up front.  0, or -1 with job->err, which then ends with the
 * bytes written to the target: nothing past them changed.
 */
int rd_load(struct rd_job *job);

#endif
