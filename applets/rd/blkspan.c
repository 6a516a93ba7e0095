// SPDX-License-Identifier: GPL-2.0
/*
 * blkspan: where the bytes of a file or a block device lie (blkspan.h).
 * sysfs says what a block device is: /sys/dev/block/MAJ:MIN/partition
 * (with start, and its disk as the parent directory), loop/ (bound loop
 * devices only), dm/, slaves/.  A loop device's backing file comes from
 * LOOP_GET_STATUS64, whose lo_device and lo_inode are the file's st_dev
 * and st_ino; a device-mapper table from DM_TABLE_STATUS.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>
#include <linux/loop.h>

#include "rd/blkspan.h"
#include "core/kit.h"

#define SECTOR_BYTES	512	/* sysfs sizes and dm tables count these */
#define MAX_DEPTH	16	/* deeper, the stack is taken for a cycle */

static int follow_dev(struct blkspans *spans, dev_t dev, uint64_t start,
		      uint64_t end, unsigned int depth, const char *name);

static int add_span(struct blkspans *spans, const struct blkspan *span)
{
	struct blkspan *grown = grow(spans->span, &spans->size,
				     spans->count + 1, sizeof(*grown));

	if (!grown)
		return kit_fail(&spans->err, EXIT_RUNTIME, 0, "out of memory");
	spans->span = grown;
	spans->span[spans->count++] = *span;
	return 0;
}

static void attr_path(char *path, size_t size, dev_t dev, const char *attr)
{
	snprintf(path, size, "%s/dev/block/%u:%u/%s", sysfs_root(),
		 major(dev), minor(dev), attr);
}

static bool has_attr(dev_t dev, const char *attr)
{
	char path[PATH_MAX];

	attr_path(path, sizeof(path), dev, attr);
	return !access(path, F_OK);
}

/* An attribute, read whole; the error names the file. */
static int read_attr(struct blkspans *spans, dev_t dev, const char *attr,
		     char *text, size_t size)
{
	char path[PATH_MAX];

	attr_path(path, sizeof(path), dev, attr);
	if (read_text(path, text, size) >= 0)
		return 0;
	return kit_fail(&spans->err, EXIT_RUNTIME, 0, "cannot read %s: %s (is "
			"sysfs mounted on /sys?)", path, strerror(errno));
}

static int read_attr_u64(struct blkspans *spans, dev_t dev, const char *attr,
			 uint64_t *value)
{
	unsigned long long number;
	char text[32], *end;

	if (read_attr(spans, dev, attr, text, sizeof(text)))
		return -1;
	errno = 0;
	number = strtoull(text, &end, 10);
	if (errno || end == text || *end)
		return kit_fail(&spans->err, EXIT_RUNTIME, 0, "block device "
				"%u:%u: %s is '%s', not a number", major(dev),
				minor(dev), attr, text);
	*value = number;
	return 0;
}

/* "MAJ:MIN", as sysfs's dev files and device-mapper's tables name one. */
static bool parse_devt(const char *text, dev_t *dev, int *len)
{
	unsigned int maj, min;

	if (sscanf(text, "%u:%u%n", &maj, &min, len) != 2)
		return false;
	*dev = makedev(maj, min);
	return true;
}

static int read_attr_devt(struct blkspans *spans, dev_t dev,
			  const char *attr, dev_t *value)
{
	char text[32];
	int len = 0;

	if (read_attr(spans, dev, attr, text, sizeof(text)))
		return -1;
	if (!parse_devt(text, value, &len) || text[len])
		return kit_fail(&spans->err, EXIT_RUNTIME, 0, "block device "
				"%u:%u: %s is '%s', not MAJ:MIN", major(dev),
				minor(dev), attr, text);
	return 0;
}

/* The node the kernel names the device by (uevent's DEVNAME), in /dev. */
static void dev_node(dev_t dev, char *node, size_t size)
{
	char path[PATH_MAX], text[1024], *name;

	attr_path(path, sizeof(path), dev, "uevent");
	if (read_text(path, text, sizeof(text)) >= 0 &&
	    (name = strstr(text, "DEVNAME="))) {
		name += strlen("DEVNAME=");
		snprintf(node, size, "/dev/%.*s", (int)strcspn(name, "\n"),
			 name);
		return;
	}
	snprintf(node, size, "block device %u:%u", major(dev), minor(dev));
}

static int add_dev_span(struct blkspans *spans, dev_t dev, uint64_t start,
			uint64_t end, unsigned int depth, const char *name)
{
	struct blkspan span = {
		.dev = dev, .start = start, .end = end, .depth = depth,
	};

	if (name)
		snprintf(span.name, sizeof(span.name), "%s", name);
	else
		dev_node(dev, span.name, sizeof(span.name));
	return add_span(spans, &span);
}

/* A partition: those bytes of its disk, from its start sector on. */
static int follow_partition(struct blkspans *spans, dev_t dev,
			    uint64_t start, uint64_t end, unsigned int depth)
{
	uint64_t first;
	dev_t disk;

	if (read_attr_u64(spans, dev, "start", &first) ||
	    read_attr_devt(spans, dev, "../dev", &disk))
		return -1;
	first *= SECTOR_BYTES;
	return follow_dev(spans, disk, first + start, first + end, depth + 1,
			  NULL);
}

/* The loop device's status, asked through its node. */
static int loop_status(struct blkspans *spans, dev_t dev,
		       struct loop_info64 *info)
{
	char node[PATH_MAX];
	struct stat st;
	int fd, ret;

	dev_node(dev, node, sizeof(node));
	fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return kit_fail(&spans->err, EXIT_RUNTIME, errno, "cannot open "
				"%s to ask what backs it", node);
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != dev) {
		close(fd);
		return kit_fail(&spans->err, EXIT_RUNTIME, 0, "%s is not block "
				"device %u:%u: cannot ask what backs it", node,
				major(dev), minor(dev));
	}
	ret = ioctl(fd, LOOP_GET_STATUS64, info);
	if (ret)
		kit_fail(&spans->err, EXIT_RUNTIME, errno, "cannot ask %s what "
			 "backs it", node);
	close(fd);
	return ret;
}

/*
 * A loop device: bytes of its backing file, or device, from lo_offset on
 * (its size, which end is already within, keeps to lo_sizelimit).
 */
static int follow_loop(struct blkspans *spans, dev_t dev, uint64_t start,
		       uint64_t end, unsigned int depth)
{
	struct loop_info64 info;
	struct blkspan span = { .is_file = true, .depth = depth + 1 };

	if (loop_status(spans, dev, &info))
		return -1;
	start += info.lo_offset;
	end += info.lo_offset;
	/* st_rdev of the backing file: only a block device has one. */
	if (info.lo_rdevice)
		return follow_dev(spans, info.lo_rdevice, start, end,
				  depth + 1, NULL);
	span.dev = info.lo_device;
	span.ino = info.lo_inode;
	span.start = start;
	span.end = end;
	/* The backing file's whole path; lo_file_name is cut short. */
	if (read_attr(spans, dev, "loop/backing_file", span.name,
		      sizeof(span.name)))
		snprintf(span.name, sizeof(span.name), "%s",
			 (char *)info.lo_file_name);
	return add_span(spans, &span);
}

/*
 * Every device under a stacked one, whole: its slaves/.  Returns how many
 * there are, or -1.
 */
static int follow_slaves(struct blkspans *spans, dev_t dev,
			 unsigned int depth)
{
	char path[PATH_MAX], attr[NAME_MAX + 16];
	struct dirent *entry;
	int count = 0;
	dev_t slave;
	DIR *dir;

	attr_path(path, sizeof(path), dev, "slaves");
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 0 :
		       kit_fail(&spans->err, EXIT_RUNTIME, errno, "cannot read "
				"%s", path);
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.')
			continue;
		snprintf(attr, sizeof(attr), "slaves/%s/dev", entry->d_name);
		if (read_attr_devt(spans, dev, attr, &slave) ||
		    follow_dev(spans, slave, 0, UINT64_MAX, depth + 1, NULL)) {
			closedir(dir);
			return -1;
		}
		count++;
	}
	closedir(dir);
	return count;
}

/* The device-mapper table of dev, into buf; false when unreadable. */
static bool dm_table(dev_t dev, struct dm_ioctl *io, size_t size)
{
	int control = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	bool ok;

	if (control < 0)
		return false;
	memset(io, 0, size);
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = size;
	io->data_start = sizeof(*io);
	io->dev = dev;
	io->flags = DM_STATUS_TABLE_FLAG;
	ok = !ioctl(control, DM_TABLE_STATUS, io) &&
	     !(io->flags & DM_BUFFER_FULL_FLAG);
	close(control);
	return ok;
}

/*
 * One target of a table, for the bytes [start, end) of it that are
 * asked: a linear target maps them to its device (dm-linear.c's
 * linear_map_sector()); zero and error hold no storage; any other may
 * touch all of any device under dev.
 */
static int follow_target(struct blkspans *spans, dev_t dev,
			 const struct dm_target_spec *spec, uint64_t start,
			 uint64_t end, unsigned int depth)
{
	const char *params = (const char *)(spec + 1);
	unsigned long long offset;
	dev_t under;
	int len = 0;

	if (!strcmp(spec->target_type, "zero") ||
	    !strcmp(spec->target_type, "error"))
		return 0;
	if (!strcmp(spec->target_type, "linear") &&
	    parse_devt(params, &under, &len) &&
	    sscanf(params + len, "%llu", &offset) == 1) {
		offset *= SECTOR_BYTES;
		return follow_dev(spans, under, offset + start, offset + end,
				  depth + 1, NULL);
	}
	return follow_slaves(spans, dev, depth) < 0 ? -1 : 0;
}

/* A device-mapper device: its table, target by target. */
static int follow_dm(struct blkspans *spans, dev_t dev, uint64_t start,
		     uint64_t end, unsigned int depth)
{
	const size_t size = 16384;
	const struct dm_target_spec *spec;
	struct dm_ioctl *io = malloc(size);
	uint64_t first, last, from, to;
	int ret = 0;
	uint32_t i;

	if (!io)
		return kit_fail(&spans->err, EXIT_RUNTIME, 0,
				"out of memory");
	if (!dm_table(dev, io, size)) {
		free(io);
		return follow_slaves(spans, dev, depth) < 0 ? -1 : 0;
	}
	spec = (const void *)((char *)io + io->data_start);
	for (i = 0; i < io->target_count && !ret; i++) {
		first = spec->sector_start * SECTOR_BYTES;
		last = first + spec->length * SECTOR_BYTES;
		from = start > first ? start : first;
		to = end < last ? end : last;
		if (from < to)
			ret = follow_target(spans, dev, spec, from - first,
					    to - first, depth);
		/* In a reply, next counts from the data's start. */
		spec = (const void *)((char *)io + io->data_start +
				      spec->next);
	}
	free(io);
	return ret;
}

/* The bytes [start, end) of block device dev, followed down. */
static int follow_dev(struct blkspans *spans, dev_t dev, uint64_t start,
		      uint64_t end, unsigned int depth, const char *name)
{
	uint64_t sectors;
	int slaves;

	if (depth > MAX_DEPTH)
		return kit_fail(&spans->err, EXIT_RUNTIME, 0, "block device "
				"%u:%u: devices stacked too deep to follow",
				major(dev), minor(dev));
	if (read_attr_u64(spans, dev, "size", &sectors))
		return -1;
	if (end > sectors * SECTOR_BYTES)
		end = sectors * SECTOR_BYTES;
	if (start >= end)
		return 0;
	if (has_attr(dev, "partition"))
		return follow_partition(spans, dev, start, end, depth);
	if (has_attr(dev, "loop"))
		return follow_loop(spans, dev, start, end, depth);
	if (has_attr(dev, "dm"))
		return follow_dm(spans, dev, start, end, depth);
	slaves = follow_slaves(spans, dev, depth);
	if (slaves)
		return slaves < 0 ? -1 : 0;
	return add_dev_span(spans, dev, start, end, depth, name);
}

int rd_blkspans_of(struct blkspans *spans, const struct stat *st,
		   const char *name)
{
	struct blkspan span = {
		.is_file = true, .dev = st->st_dev, .ino = st->st_ino,
		.end = UINT64_MAX,
	};

	if (S_ISBLK(st->st_mode))
		return follow_dev(spans, st->st_rdev, 0, UINT64_MAX, 0, name);
	if (!S_ISREG(st->st_mode))
		return 0;
	snprintf(span.name, sizeof(span.name), "%s", name);
	return add_span(spans, &span);
}

static bool same_storage(const struct blkspan *a, const struct blkspan *b)
{
	return a->is_file == b->is_file && a->dev == b->dev &&
	       (!a->is_file || a->ino == b->ino);
}

bool rd_blkspans_overlap(const struct blkspans *a, const struct blkspans *b,
			 const struct blkspan **sa, const struct blkspan **sb,
			 uint64_t *start, uint64_t *end)
{
	size_t i, j;

	for (i = 0; i < a->count; i++) {
		for (j = 0; j < b->count; j++) {
			*sa = &a->span[i];
			*sb = &b->span[j];
			*start = (*sa)->start > (*sb)->start ?
				 (*sa)->start : (*sb)->start;
			*end = (*sa)->end < (*sb)->end ? (*sa)->end :
			       (*sb)->end;
			if (same_storage(*sa, *sb) && *start < *end)
				return true;
		}
	}
	return false;
}

void rd_blkspans_free(struct blkspans *spans)
{
	free(spans->span);
	spans->span = NULL;
	spans->count = spans->size = 0;
}
