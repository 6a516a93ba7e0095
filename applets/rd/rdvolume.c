// SPDX-License-Identifier: GPL-2.0
/*
 * rdvolume: the files of a RAM-disk image read one after another as one
 * stream, as the kernel read the floppies of a multi-volume image (Linux
 * 5.9 took them out, commit c8376994c86c), each checked before it is
 * read not to share a byte of storage with the target.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rd/rdimage.h"

/* Waits for the caller's ask(): a changed medium, or ENTER. */
static int ask_for_volume(struct load *ld, struct volumes *v)
{
	struct rd_job *job = v->job;
	char prompt[PATH_MAX + 64];

	snprintf(prompt, sizeof(prompt), "insert disk #%d (%s)",
		 v->opened + 1, job->volumes[v->opened]);
	errno = 0;
	if (job->ask && job->ask(prompt))
		return rd_fail(ld, "no ENTER for disk #%d: %s", v->opened + 1,
			       errno ? strerror(errno) : "end of input");
	return 0;
}

/* The same file, however named, or the same block device. */
static bool same_file(const struct stat *a, const struct stat *b)
{
	if (!a->st_mode || !b->st_mode)
		return false;
	if (S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode))
		return a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * Whether the volume (st, named path) shares storage with the target:
 * the same file however named (a hard link, /proc/self/fd/N), the same
 * device, or bytes held below one or the other (a loop device's backing
 * file, a partition's disk, a device-mapper linear target).  -1 when it
 * does, or when what lies below cannot be told: the one-line reason, with
 * its remedy, in ld->error.
 */
static int check_target_overlap(struct load *ld, const struct volumes *v,
				const char *path, const struct stat *st)
{
	struct blkspans volume = { .span = NULL };
	const struct blkspan *in, *out;
	uint64_t start, end;
	int ret = 0;

	if (same_file(st, &v->target_st))
		return rd_fail(ld, "%s is the target itself: load it into "
			       "another TARGET", path);
	if (!v->target.count)	/* no target yet, or -i */
		return 0;
	if (rd_blkspans_of(&volume, st, path)) {
		ret = rd_fail(ld, "cannot tell whether %s shares storage with "
			      "the target %s: %s", path, v->target_path,
			      volume.err.msg);
	} else if (rd_blkspans_overlap(&volume, &v->target, &in, &out, &start,
				    &end)) {
		ret = rd_fail(ld, "%s and the target %s share bytes %llu-%llu "
			      "of %s: load it into another TARGET", path,
			      v->target_path, (unsigned long long)start,
			      (unsigned long long)end - 1,
			      out->depth ? in->name : out->name);
	}
	rd_blkspans_free(&volume);
	return ret;
}

static int open_volume(struct load *ld, struct volumes *v)
{
	const char *path = v->job->volumes[v->opened];
	struct stat st;

	if (v->opened && v->job->prompt && ask_for_volume(ld, v))
		return -1;
	v->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (v->fd < 0)
		return rd_fail(ld, "cannot open %s: %s", path, strerror(errno));
	v->opened++;
	if (fstat(v->fd, &st))
		return rd_fail(ld, "cannot stat %s: %s", path, strerror(errno));
	/* A changed medium is checked as it comes (--prompt). */
	return check_target_overlap(ld, v, path, &st);
}

/* The volumes, one after another, as one stream. */
static ssize_t volumes_read(struct load *ld, void *buf, size_t len)
{
	struct volumes *v = ld->in_ctx;
	ssize_t n;

	for (;;) {
		if (v->fd < 0) {
			if (v->opened == v->job->count)
				return 0;
			if (open_volume(ld, v))
				return -1;
		}
		n = read(v->fd, buf, len);
		if (n > 0)
			return n;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rd_fail(ld, "RAMDISK: error while reading %s: %s",
				       v->job->volumes[v->opened - 1],
				       strerror(errno));
		close(v->fd);
		v->fd = -1;
	}
}

/*
 * A volume there now: data to read (not a directory), not the target,
 * nor sharing storage with it.  *len: its bytes when a file, else
 * UINT64_MAX.
 */
static int check_volume(struct load *ld, const struct volumes *v,
			const char *path, bool must_exist, uint64_t *len)
{
	struct stat st;

	*len = UINT64_MAX;
	if (stat(path, &st) || access(path, R_OK)) {
		if (!must_exist && errno == ENOENT)
			return 0;
		return rd_fail(ld, "cannot read %s: %s", path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return rd_fail(ld, "%s is a directory: each IMAGE is a file or "
			       "a device", path);
	if (S_ISREG(st.st_mode))
		*len = st.st_size;
	return check_target_overlap(ld, v, path, &st);
}

int rd_volumes_target(struct load *ld, struct volumes *v,
		      const struct stat *st)
{
	v->target_st = *st;
	rd_blkspans_free(&v->target);
	if (rd_blkspans_of(&v->target, st, v->target_path))
		return rd_fail(ld, "cannot tell what holds the target %s: %s",
			       v->target_path, v->target.err.msg);
	return 0;
}

/* Changed media appear when asked for (--prompt); others must be there. */
int rd_volumes_check(struct load *ld, struct volumes *v)
{
	const struct rd_job *job = v->job;
	uint64_t total = 0, len;
	struct stat st;
	int i;

	ld->read = volumes_read;
	ld->in_ctx = v;
	if (v->target_path && !stat(v->target_path, &st) &&
	    rd_volumes_target(ld, v, &st))
		return -1;
	for (i = 0; i < job->count; i++) {
		if (check_volume(ld, v, job->volumes[i],
				 !i || !job->prompt, &len))
			return -1;
		total = len > UINT64_MAX - total ? UINT64_MAX : total + len;
	}
	ld->input_len = job->prompt && job->count > 1 ? UINT64_MAX : total;
	return 0;
}

int rd_volumes_finish(struct load *ld, const struct volumes *v)
{
	if (v->opened < v->job->count)
		return rd_fail(ld, "the image ended in volume %d of %d: %s not "
			       "read", v->opened, v->job->count,
			       v->job->volumes[v->opened]);
	return 0;
}

void rd_volumes_free(struct volumes *v)
{
	if (v->fd >= 0)
		close(v->fd);
	v->fd = -1;
	rd_blkspans_free(&v->target);
}
