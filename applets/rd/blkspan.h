/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkspan: where the bytes of a file or a block device lie, followed down
 * to what holds them: a partition to its disk, a loop device to its
 * backing file or device, a device-mapper linear target to the device it
 * maps, any other stacked device (dm, md) to the whole of each device
 * under it.  Two names whose spans share a byte share storage: writing
 * one changes the other.  What cannot be followed is an error, so that a
 * caller in doubt can refuse.
 */
#ifndef BLKSPAN_H
#define BLKSPAN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/kit.h"

/* Bytes [start, end) of a file (is_file) or of a block device, dev. */
struct blkspan {
	bool is_file;
	dev_t dev;		/* the file's st_dev, or the device */
	ino_t ino;
	uint64_t start, end;
	unsigned int depth;	/* 0: the name itself; more: held below it */
	char name[PATH_MAX];	/* the file or device, for messages */
};

struct blkspans {
	struct blkspan *span;
	size_t count, size;
	struct kit_err err;	/* why the spans are unknown */
};

/*
 * The spans of the file or device that st describes (NAME its path):
 * 0, or -1 with spans->err.  Other files (fifos, character devices)
 * hold no storage: no spans.
 */
int rd_blkspans_of(struct blkspans *spans, const struct stat *st,
		   const char *name);
/*
 * The first byte range that a and b share: true, with *sa and *sb the
 * spans it lies in, [*start, *end) the bytes of *sa's file or device.
 */
bool rd_blkspans_overlap(const struct blkspans *a, const struct blkspans *b,
			 const struct blkspan **sa, const struct blkspan **sb,
			 uint64_t *start, uint64_t *end);
void rd_blkspans_free(struct blkspans *spans);

#endif
