// SPDX-License-Identifier: GPL-2.0
/*
 * rdtarget: where a RAM-disk image goes: /dev/ramN (made when missing, as
 * the kernel's create_dev() made it), any block device, a zram device
 * sized to the image, or a regular file when the caller allows one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "core/kit.h"
#include "rd/rdimage.h"

/* An attribute of a zram device (disksize, reset); false for others. */
static bool zram_attr_path(dev_t rdev, const char *attr, char *path,
			   size_t size)
{
	snprintf(path, size, "%s/dev/block/%u:%u/%s", sysfs_root(),
		 major(rdev), minor(rdev), attr);
	return !access(path, W_OK);
}

/* A zram device without a disksize gets the image's size. */
static int target_resize(struct load *ld, uint64_t bytes)
{
	struct target *t = ld->out_ctx;
	char path[PATH_MAX], value[32];
	uint64_t size = 0;
	struct stat st;
	int fd, len;

	if (fstat(t->fd, &st) ||
	    !zram_attr_path(st.st_rdev, "disksize", path, sizeof(path)))
		return rd_fail(ld, "RAMDISK: %s has size 0", t->path);
	len = snprintf(value, sizeof(value), "%llu",
		       (unsigned long long)bytes);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, value, len) < 0) {
		if (fd >= 0)
			close(fd);
		return rd_fail(ld, "cannot size zram %s: writing %s to %s: %s",
			    t->path, value, path, strerror(errno));
	}
	close(fd);
	t->resized = true;
	if (ioctl(t->fd, BLKGETSIZE64, &size) || size < bytes)
		return rd_fail(ld, "zram %s did not take disksize %s", t->path,
			    value);
	/* zram rounds up to whole pages: the image keeps its own size. */
	ld->capacity = size;
	rd_say(ld, "RAMDISK: zram %s sized to %lluKiB", t->path,
	    (unsigned long long)(bytes / RD_BLOCK));
	return 0;
}

/* Closed first: zram resets only a device nobody holds. */
int rd_target_unsize(struct target *t)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, ret = 0, saved;

	if (!t->resized || fstat(t->fd, &st) ||
	    !zram_attr_path(st.st_rdev, "reset", path, sizeof(path)))
		return 0;
	close(t->fd);
	t->fd = -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, "1", 1) < 0)
		ret = -1;
	saved = errno;
	if (fd >= 0)
		close(fd);
	errno = saved;
	return ret;
}

/*
 * write() until done: the bytes written, short with errno on error.  Not
 * write_all() (lib.c), which returns -1 after a partial write: the count
 * bounds what changed on the target, and the error message reports it.
 */
static ssize_t write_counted(int fd, const void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n = 0;

	while (done < len) {
		n = write(fd, (const char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	if (!n)
		errno = ENOSPC;
	return done || n >= 0 ? (ssize_t)done : -1;
}

static void *writer_thread(void *arg)
{
	struct target *t = arg;
	ssize_t n;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (!t->buf && !t->quit)
			pthread_cond_wait(&t->cond, &t->lock);
		if (!t->buf)
			break;
		pthread_mutex_unlock(&t->lock);
		n = write_counted(t->fd, t->buf, t->len);
		pthread_mutex_lock(&t->lock);
		t->done = n;
		t->error = errno;
		t->buf = NULL;
		pthread_cond_broadcast(&t->cond);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* Waits for the write in flight and counts what it wrote. */
static int target_wait(struct load *ld, struct target *t)
{
	ssize_t done;
	size_t len;

	pthread_mutex_lock(&t->lock);
	while (t->buf)
		pthread_cond_wait(&t->cond, &t->lock);
	done = t->done;
	len = t->len;
	t->done = t->len = 0;
	pthread_mutex_unlock(&t->lock);
	if (done > 0)
		ld->written += done;
	if ((size_t)done == len)
		return 0;
	return rd_fail(ld, "RAMDISK: incomplete write (%zd != %zu)%s%s", done,
		    len, done < 0 || t->error ? ": " : "",
		    done < 0 || t->error ? strerror(t->error) : "");
}

static int target_write(struct load *ld, const void *buf, size_t len)
{
	struct target *t = ld->out_ctx;

	if (target_wait(ld, t))
		return -1;
	if (!t->threaded) {
		t->len = len;
		t->done = write_counted(t->fd, buf, len);
		t->error = errno;
		return target_wait(ld, t);
	}
	pthread_mutex_lock(&t->lock);
	t->buf = buf;
	t->len = len;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

/* The last write done, the writer ends. */
static int target_sync(struct load *ld)
{
	struct target *t = ld->out_ctx;
	int ret = target_wait(ld, t);

	if (!t->threaded)
		return ret;
	pthread_mutex_lock(&t->lock);
	t->quit = true;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->writer, NULL);
	t->threaded = false;
	return ret;
}

/*
 * /dev/ramN, N decimal as the kernel names it (ram0, ram10; not ram010),
 * is the one node made: b 1 N, as the kernel's create_dev().
 */
static bool ram_minor(const char *path, unsigned int *minor)
{
	static const char prefix[] = "/dev/ram";
	char name[sizeof(prefix) + 20];
	unsigned long n;

	if (strncmp(path, prefix, sizeof(prefix) - 1) ||
	    path[sizeof(prefix) - 1] < '0' || path[sizeof(prefix) - 1] > '9')
		return false;
	n = strtoul(path + sizeof(prefix) - 1, NULL, 10);
	snprintf(name, sizeof(name), "%s%lu", prefix, n);
	if (strcmp(name, path) || n >> 20)	/* MINORBITS */
		return false;
	*minor = n;
	return true;
}

/* A missing target: /dev/ramN made (*made), or a file to create with -f:
 * the open flags it needs, or -1 with ld->error. */
static int missing_target(struct load *ld, struct target *t, bool allow_file,
			  bool *made)
{
	unsigned int minor;
	struct stat st;

	if (!lstat(t->path, &st))
		return rd_fail(ld, "%s is a symbolic link to a file that does "
			       "not exist: give the file's own path, or remove "
			       "the link", t->path);
	if (allow_file)
		return O_CREAT;
	if (!ram_minor(t->path, &minor))
		return rd_fail(ld, "%s does not exist (a file as target needs "
			       "-f)", t->path);
	if (mknod(t->path, S_IFBLK | 0600, makedev(1, minor)))
		return rd_fail(ld, "cannot create %s (b 1 %u): %s", t->path,
			       minor, strerror(errno));
	*made = true;
	return 0;
}

/* A block device's size, and what it would refuse. */
static int block_target(struct load *ld, struct target *t)
{
	int ro = 0;

	if (ioctl(t->fd, BLKGETSIZE64, &ld->capacity))
		return rd_fail(ld, "RAMDISK: could not determine device size "
			       "of %s: %s", t->path, strerror(errno));
	if (!ld->capacity)
		ld->resize = target_resize;
	if (!ioctl(t->fd, BLKROGET, &ro) && ro)
		return rd_fail(ld, "%s is read-only: make it writable first "
			       "(blockdev --setrw %s, or a loop device set up "
			       "without -r)", t->path, t->path);
	return 0;
}

/* Why open() refused the target, with the remedy where there is one. */
static int open_failed(struct load *ld, const struct target *t)
{
	if (errno == EBUSY)
		return rd_fail(ld, "%s is in use (mounted, or held by a device "
			       "or program that opened it exclusively): free "
			       "it first", t->path);
	if (errno == ENXIO || errno == ENODEV)
		return rd_fail(ld, "cannot open %s: no such device (for "
			       "/dev/ramN: modprobe brd)", t->path);
	return rd_fail(ld, "cannot open %s: %s", t->path, strerror(errno));
}

static int open_file(struct load *ld, struct target *t, bool allow_file)
{
	int flags = O_RDWR | O_CLOEXEC | O_EXCL, saved, more;
	bool made = false;
	struct stat st;

	if (stat(t->path, &st) && errno == ENOENT) {
		more = missing_target(ld, t, allow_file, &made);
		if (more < 0)
			return -1;
		flags |= more;
	}
	t->fd = open(t->path, flags, 0666);
	t->created = t->fd >= 0 && (flags & O_CREAT);
	/* A node for a device that is not there helps nobody. */
	if (t->fd < 0 && made) {
		saved = errno;
		unlink(t->path);
		errno = saved;
	}
	return t->fd < 0 ? open_failed(ld, t) : 0;
}

int rd_target_open(struct load *ld, struct target *t, bool allow_file)
{
	struct stat st;

	if (open_file(ld, t, allow_file))
		return -1;
	if (fstat(t->fd, &st))
		return rd_fail(ld, "cannot stat %s: %s", t->path,
			       strerror(errno));
	if (S_ISREG(st.st_mode) && !allow_file)
		return rd_fail(ld, "%s is a regular file: use -f to load into "
			       "a file", t->path);
	if (S_ISREG(st.st_mode))
		ld->capacity = UINT64_MAX;
	else if (!S_ISBLK(st.st_mode))
		return rd_fail(ld, "%s is not a block device: give /dev/ramN or "
			       "another block device, or a file with -f",
			       t->path);
	else if (block_target(ld, t))
		return -1;
	ld->write = target_write;
	ld->sync = target_sync;
	ld->out_ctx = t;
	return 0;
}

bool rd_target_remove_new(struct target *t)
{
	return t->created && !unlink(t->path);
}

int rd_target_thread(struct load *ld, struct target *t)
{
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	errno = pthread_create(&t->writer, NULL, writer_thread, t);
	if (errno)
		return rd_fail(ld, "cannot start the writer thread: %s",
			       strerror(errno));
	t->threaded = true;
	return 0;
}

int rd_target_finish(struct load *ld, struct target *t)
{
	if (fsync(t->fd))
		return rd_fail(ld, "RAMDISK: write error on %s: %s", t->path,
			    strerror(errno));
	if (ld->verify && rd_verify(ld, t->fd, t->path))
		return -1;
	return 0;
}

void rd_target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
