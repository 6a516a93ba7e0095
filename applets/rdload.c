// SPDX-License-Identifier: GPL-2.0
/*
 * rdload: load a RAM-disk image as the kernel's rd_load_image() does, from
 * userspace: identify it at the start block the way identify_ramdisk_image()
 * does, decompress whatever the kernel decompresses, write it into /dev/ramN
 * (or any block device), and bring back multi-volume images (Linux 5.9 took
 * them out of the kernel).
 *
 * The image engine (rdimage.h) identifies, decompresses and loads; this is
 * the command around it: the options, the volumes read one after another
 * as one stream, the target (a writer thread for compressed images,
 * sendfile() for plain ones), zram sizing, --verify, the messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>


#include "rd/blkspan.h"
#include "core/kit.h"
#include "rd/rdimage.h"

static const char usage[] =
"Usage: rdload -i [-s START] IMAGE...\n"
"       rdload [-s START] [-o TARGET] [-f] [-q] [--verify] [--prompt]\n"
"              IMAGE...\n"
"Find a RAM-disk image as the kernel does (gzip, bzip2, lzma, xz, lzo, lz4,\n"
"zstd; romfs, cramfs, squashfs, minix, ext2/3/4) and load it into a RAM disk.\n"
"Several IMAGEs are volumes of one image, read one after another.\n"
"\n"
"  -i          identify only: what the kernel finds, and the image's size\n"
"  -s START    the image starts at block START (1 KiB blocks) of the first\n"
"              IMAGE, as ramdisk_start= (default 0)\n"
"  -o TARGET   block device to load (default /dev/ram0; a missing /dev/ramN\n"
"              is created as the kernel does: mknod b 1 N)\n"
"  -f          TARGET may be a regular file: created when missing, written\n"
"              from its start, never truncated\n"
"  -q          quiet: errors only\n"
"  --verify    read TARGET back and compare\n"
"  --prompt    wait for ENTER before each further volume (a changed medium)\n"
"Reports go to stdout; errors, prompts and progress to stderr.\n";

KIT_APPLET(rdload, "load a RAM-disk image into /dev/ramN as the kernel does",
	   usage);

struct volumes {
	char **paths;
	int count, opened;
	int fd;			/* the volume being read, or -1 */
	bool prompt;
	const char *target_path;	/* NULL: -i, no target */
	struct stat target_st;		/* st_mode 0: none yet */
	struct blkspans target;	/* never read a volume that shares a byte */
	bool progress;
};

static void clear_progress(bool progress)
{
	if (progress)
		fputs("\r\033[K", stderr);
}

/* Waits for ENTER on the terminal, or on stdin without one. */
static int ask_for_volume(struct load *ld, struct volumes *v)
{
	int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
	int fd = tty >= 0 ? tty : STDIN_FILENO;
	ssize_t n;
	char c;

	clear_progress(v->progress);
	fprintf(stderr, "%s: insert disk #%d (%s) and press ENTER\n",
		applet_name, v->opened + 1, v->paths[v->opened]);
	do
		n = read(fd, &c, 1);
	while ((n == 1 && c != '\n') || (n < 0 && errno == EINTR));
	if (tty >= 0)
		close(tty);
	if (n != 1)
		return rd_fail(ld, "no ENTER for disk #%d: %s", v->opened + 1,
			    n ? strerror(errno) : "end of input");
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
	if (blkspans_of(&volume, st, path)) {
		ret = rd_fail(ld, "cannot tell whether %s shares storage with "
			      "the target %s: %s", path, v->target_path,
			      volume.error);
	} else if (blkspans_overlap(&volume, &v->target, &in, &out, &start,
				    &end)) {
		ret = rd_fail(ld, "%s and the target %s share bytes %llu-%llu "
			      "of %s: load it into another TARGET", path,
			      v->target_path, (unsigned long long)start,
			      (unsigned long long)end - 1,
			      out->depth ? in->name : out->name);
	}
	blkspans_free(&volume);
	return ret;
}

static int open_volume(struct load *ld, struct volumes *v)
{
	const char *path = v->paths[v->opened];
	struct stat st;

	if (v->opened && v->prompt && ask_for_volume(ld, v))
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
			if (v->opened == v->count)
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
				    v->paths[v->opened - 1], strerror(errno));
		close(v->fd);
		v->fd = -1;
	}
}

/*
 * A compressed image's target is written by a thread of its own, so that
 * decompressing the next buffer and writing the last one overlap, as in
 * a pipe to dd.  A plain copy is faster without: its buffers stay in the
 * cache of the one core that reads and writes them.
 */
struct target {
	const char *path;
	int fd;
	bool threaded;
	pthread_t writer;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const void *buf;	/* the write in flight, or NULL */
	size_t len;		/* its length */
	ssize_t done;		/* how it went: bytes, -1 */
	int error;		/* errno when short */
	bool quit;
	bool resized;		/* an unsized zram given a disksize */
};

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

/*
 * After a failed load, a zram that rdload sized is put back unsized, as
 * it was: closed first, since zram resets only a device nobody holds.
 */
static void unsize_target(struct target *t)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	if (!t->resized || fstat(t->fd, &st) ||
	    !zram_attr_path(st.st_rdev, "reset", path, sizeof(path)))
		return;
	close(t->fd);
	t->fd = -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, "1", 1) < 0)
		warn_msg("cannot reset %s to no disksize: %s", t->path,
			 strerror(errno));
	if (fd >= 0)
		close(fd);
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
	return ret;
}

/*
 * /dev/ramN, N decimal as the kernel names it (ram0, ram10; not ram010),
 * is the one node rdload makes: b 1 N, as the kernel's create_dev().
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

/* A missing target: /dev/ramN made, or a file to create with -f. */
static int missing_target(struct target *t, bool allow_file, bool *made)
{
	unsigned int minor;
	struct stat st;

	if (!lstat(t->path, &st))
		die("%s is a symbolic link to a file that does not exist: "
		    "give the file's own path, or remove the link", t->path);
	if (allow_file)
		return O_CREAT;
	if (!ram_minor(t->path, &minor))
		die("%s does not exist (a file as target needs -f)", t->path);
	if (mknod(t->path, S_IFBLK | 0600, makedev(1, minor)))
		die_errno("cannot create %s (b 1 %u)", t->path, minor);
	*made = true;
	return 0;
}

/* A block device's size, and what it would refuse. */
static void block_target(struct load *ld, struct target *t)
{
	int ro = 0;

	if (ioctl(t->fd, BLKGETSIZE64, &ld->capacity))
		die_errno("RAMDISK: could not determine device size of %s",
			  t->path);
	if (!ld->capacity)
		ld->resize = target_resize;
	if (!ioctl(t->fd, BLKROGET, &ro) && ro)
		die("%s is read-only: make it writable first (blockdev "
		    "--setrw %s, or a loop device set up without -r)",
		    t->path, t->path);
}

static void open_target(struct load *ld, struct target *t, bool allow_file)
{
	int flags = O_RDWR | O_CLOEXEC | O_EXCL, saved;
	bool made = false;
	struct stat st;

	if (stat(t->path, &st) && errno == ENOENT)
		flags |= missing_target(t, allow_file, &made);
	t->fd = open(t->path, flags, 0666);
	/* A node for a device that is not there helps nobody. */
	if (t->fd < 0 && made) {
		saved = errno;
		unlink(t->path);
		errno = saved;
	}
	if (t->fd < 0 && errno == EBUSY)
		die("%s is in use (mounted, or held by a device or program "
		    "that opened it exclusively): free it first", t->path);
	if (t->fd < 0 && (errno == ENXIO || errno == ENODEV))
		die("cannot open %s: no such device (for /dev/ramN: modprobe "
		    "brd)", t->path);
	if (t->fd < 0)
		die_errno("cannot open %s", t->path);
	if (fstat(t->fd, &st))
		die_errno("cannot stat %s", t->path);
	if (S_ISREG(st.st_mode) && !allow_file)
		die("%s is a regular file: use -f to load into a file",
		    t->path);
	if (S_ISREG(st.st_mode))
		ld->capacity = UINT64_MAX;
	else if (!S_ISBLK(st.st_mode))
		die("%s is not a block device", t->path);
	else
		block_target(ld, t);
	ld->write = target_write;
	ld->sync = target_sync;
	ld->out_ctx = t;
}

/* sendfile() from the volume being read to the target; 0 at its end. */
static ssize_t volumes_splice(struct load *ld, size_t len)
{
	struct volumes *v = ld->in_ctx;
	struct target *t = ld->out_ctx;
	ssize_t n;

	if (v->fd < 0)
		return 0;
	do
		n = sendfile(t->fd, v->fd, NULL, len);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
		ld->splice = NULL;	/* not between these two: read() */
		return 0;
	}
	if (n < 0)
		return rd_fail(ld, "RAMDISK: error copying %s to %s: %s",
			    v->paths[v->opened - 1], t->path, strerror(errno));
	ld->written += n;
	return n;
}

static void start_writer(struct target *t)
{
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	errno = pthread_create(&t->writer, NULL, writer_thread, t);
	if (errno)
		die_errno("cannot start the writer thread");
	t->threaded = true;
}



/* After the load: flushed to the device, read back if asked, all used. */
static int finish_load(struct load *ld, struct target *t,
		       struct volumes *v)
{
	if (fsync(t->fd))
		return rd_fail(ld, "RAMDISK: write error on %s: %s", t->path,
			    strerror(errno));
	if (ld->verify && rd_verify(ld, t->fd, t->path))
		return -1;
	if (v->opened < v->count)
		return rd_fail(ld, "the image ended in volume %d of %d: %s not "
			    "read", v->opened, v->count, v->paths[v->opened]);
	return 0;
}

struct options {
	unsigned long start;
	const char *target;
	bool identify, allow_file, quiet, verify, prompt;
};

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "verify", no_argument, NULL, 'V' },
		{ "prompt", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long start;
	int c;

	while ((c = kit_getopt(argc, argv, "is:o:fq", longopts)) != -1) {
		switch (c) {
		case 'i':
			o->identify = true;
			break;
		case 'f':
			o->allow_file = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'V':
			o->verify = true;
			break;
		case 'P':
			o->prompt = true;
			break;
		case 'o':
			o->target = optarg;
			break;
		case 's':
			/* The kernel's ramdisk_start= reads it as %i does. */
			if (parse_ulong(optarg, 0, 0, INT_MAX, &start))
				die_usage("-s takes a block number (1 KiB "
					  "blocks), got %s", optarg);
			o->start = start;
			break;
		}
	}
	if (optind == argc)
		die_usage("no IMAGE given (see rdload --help)");
	return optind;
}

/*
 * Before anything is written, each volume that is there: data to read
 * (not a directory), and not the target, nor sharing storage with it.
 * Returns the bytes of a volume that is a file, else UINT64_MAX.
 */
static uint64_t check_volume(struct load *ld, const struct volumes *v,
			     const char *path, bool must_exist)
{
	struct stat st;

	if (stat(path, &st) || access(path, R_OK)) {
		if (!must_exist && errno == ENOENT)
			return UINT64_MAX;
		die_errno("cannot read %s", path);
	}
	if (S_ISDIR(st.st_mode))
		die("%s is a directory: each IMAGE is a file or a device",
		    path);
	if (check_target_overlap(ld, v, path, &st))
		die("%s", ld->error);
	return S_ISREG(st.st_mode) ? (uint64_t)st.st_size : UINT64_MAX;
}

/* Where the target's bytes lie, from st; dies when it cannot tell. */
static void target_spans(struct volumes *v, const struct stat *st)
{
	v->target_st = *st;
	blkspans_free(&v->target);
	if (blkspans_of(&v->target, st, v->target_path))
		die("cannot tell what holds the target %s: %s", v->target_path,
		    v->target.error);
}

/*
 * All volumes checked; the bytes they hold together, UINT64_MAX when
 * unknown (a device, a medium still to insert).  Changed media appear
 * when asked for (--prompt); other volumes must exist now.
 */
static uint64_t check_volumes(struct load *ld, struct volumes *v)
{
	uint64_t total = 0, len;
	struct stat st;
	int i;

	if (v->target_path && !stat(v->target_path, &st))
		target_spans(v, &st);
	for (i = 0; i < v->count; i++) {
		len = check_volume(ld, v, v->paths[i], !i || !v->prompt);
		total = len > UINT64_MAX - total ? UINT64_MAX : total + len;
	}
	return v->prompt && v->count > 1 ? UINT64_MAX : total;
}

/* The engine's report lines, on stdout. */
static void say_line(struct load *ld, const char *line)
{
	(void)ld;
	puts(line);
	fflush(stdout);
}

/* On a terminal: how far the load is. */
static void show_progress(struct load *ld)
{
	fprintf(stderr, "\rRAMDISK: %llu MiB loaded",
		(unsigned long long)(ld->queued >> 20));
}

int rdload_main(int argc, char **argv)
{
	struct options o = { .target = "/dev/ram0" };
	struct volumes v = { .fd = -1 };
	struct target t = { .fd = -1 };
	struct load ld = { .read = volumes_read, .in_ctx = &v };
	struct stat st;
	int first = parse_options(argc, argv, &o);
	int ret;

	v.paths = argv + first;
	v.count = argc - first;
	v.prompt = o.prompt;
	v.target_path = o.identify ? NULL : o.target;	/* -i writes nothing */
	ld.input_len = check_volumes(&ld, &v);
	ld.start = (uint64_t)o.start * RD_BLOCK;
	ld.say = o.quiet ? NULL : say_line;
	ld.verify = o.verify;
	if (rd_alloc(&ld) || rd_find(&ld))
		die("%s", ld.error);
	if (o.identify) {
		if (rd_report_size(&ld))
			die("%s", ld.error);
		return 0;
	}

	t.path = o.target;
	open_target(&ld, &t, o.allow_file);
	if (ld.id.format)
		start_writer(&t);
	else if (!o.verify)	/* --verify sums what goes through memory */
		ld.splice = volumes_splice;
	if (fstat(t.fd, &st))
		die_errno("cannot stat %s", t.path);
	target_spans(&v, &st);
	v.progress = !o.quiet && isatty(STDERR_FILENO);
	ld.progress = v.progress ? show_progress : NULL;
	ret = rd_load(&ld);
	if (!ret)
		ret = finish_load(&ld, &t, &v);
	clear_progress(v.progress);
	if (ret) {
		unsize_target(&t);
		die("%s; %llu bytes written to %s", ld.error,
		    (unsigned long long)ld.written, t.path);
	}
	rd_say_done(&ld, v.opened);
	rd_free(&ld);
	blkspans_free(&v.target);
	return 0;
}
