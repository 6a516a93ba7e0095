// SPDX-License-Identifier: GPL-2.0
/*
 * initrd mkcpio: the newc cpio that boots an old initrd (see initrd.c):
 * /init (kit), /dev/console, the modules the boot loads, uncompressed and
 * in dependency order with the list /init reads, and the image if given.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/boot.h"
#include "boot/mkcpio.h"
#include "rd/rd.h"

/* The filesystem in IMAGE, found as the kernel finds it, inside its
 * compression too (rdload -i's engine); NULL with *e. */
static const char *image_fs(const struct mkcpio_job *job,
			    struct kit_err *e)
{
	char *volumes[] = { (char *)job->image };
	struct rd_job rd = { .volumes = volumes, .count = 1,
			     .start = (uint64_t)job->start * RD_BLOCK };
	struct stat st;
	int fd = open_regular(job->image, REMEDY_IMAGE, &st, e);

	if (fd < 0)
		return NULL;
	close(fd);
	if (rd_identify(&rd)) {
		kit_fail(e, EXIT_RUNTIME, 0, "%s: %s; give -s START if it "
			 "starts at a later block (as ramdisk_start= "
			 "will)", job->image, rd.err.msg);
		return NULL;
	}
	if (!rd.fs)
		kit_fail(e, EXIT_RUNTIME, 0, "%s: the kernel would find no "
			 "filesystem in it; name its module with -m",
			 job->image);
	return rd.fs;
}

/* brd, the image's filesystem and each -m MODULE, in that order. */
static int choose_modules(struct mkcpio_job *job, struct modules *m)
{
	const char *fs;
	int i;

	if (boot_open_modules(m, job->root, job->kver) ||
	    boot_add_module(m, "brd"))
		return -1;
	if (job->image) {
		fs = image_fs(job, m->err);
		if (!fs || boot_add_fs_module(m, fs))
			return -1;
	}
	for (i = 0; i < job->nmodules; i++)
		if (boot_add_module(m, job->modules[i]))
			return -1;
	return 0;
}

/* The kit that will be /init, and the machine it is for: the modules
 * must be for the same. */
static int choose_init(struct mkcpio_job *job, struct modules *m)
{
	unsigned char hdr[64];
	const char *why;
	struct stat st;
	ssize_t n;
	int fd, ret = -1;

	m->init = job->init ? job->init : "/proc/self/exe";
	m->init_name = job->init ? job->init : "this kit";
	fd = open_regular(m->init, REMEDY_INIT, &st, m->err);
	if (fd < 0)
		return -1;
	n = read(fd, hdr, sizeof(hdr));
	if (n < 0) {
		kit_fail(m->err, EXIT_RUNTIME, errno, "cannot read %s",
			 m->init_name);
		goto out;
	}
	/* The kernel execs /init as the cpio says: it must be executable
	 * (else "Failed to execute /init (error -13)"). */
	m->machine = boot_elf_machine(hdr, n);
	if (!m->machine || !(st.st_mode & S_IXUSR)) {
		kit_fail(m->err, EXIT_RUNTIME, 0, "%s is not an executable "
			 "ELF file; %s", m->init_name, REMEDY_INIT);
		goto out;
	}
	why = boot_elf_not_init(fd, hdr, n);
	if (why) {
		kit_fail(m->err, EXIT_RUNTIME, 0, "%s is %s; %s",
			 m->init_name, why, REMEDY_INIT_STATIC);
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

/* OUT is none of the files the archive is made of, by any name (a hard
 * link, a symlink, /proc/self/exe): writing it would destroy them. */
static int out_is_input(const char *out, const char *path, const char *what,
			struct kit_err *e)
{
	struct stat o, in;

	if (!path || stat(out, &o) || stat(path, &in) ||
	    o.st_dev != in.st_dev || o.st_ino != in.st_ino)
		return 0;
	return kit_fail(e, EXIT_RUNTIME, 0, "-o %s is %s itself: write the "
			"archive elsewhere", out, what);
}

static int write_archive(struct cpio *c, struct modules *m,
			 const char *image)
{
	if (boot_cpio_data(c, "dev", S_IFDIR | 0755, NULL, 0) ||
	    boot_cpio_header(c, "dev/console", S_IFCHR | 0600, makedev(5, 1),
			     0) ||
	    boot_cpio_data(c, "kit", S_IFDIR | 0755, NULL, 0) ||
	    boot_cpio_file(c, "init", m->init, REMEDY_INIT) ||
	    boot_cpio_modules(c, m))
		return -1;
	if (image && boot_cpio_file(c, IMAGE_PATH + 1, image, REMEDY_IMAGE))
		return -1;
	return boot_cpio_data(c, "TRAILER!!!", 0, NULL, 0);
}

int boot_mkcpio(struct mkcpio_job *job)
{
	struct kit_err *e = &job->err;
	struct modules m = { .err = e };
	struct cpio c = { .fd = STDOUT_FILENO, .path = "stdout", .err = e };
	char *target = NULL;
	int ret = -1;

	if (choose_init(job, &m) || choose_modules(job, &m))
		goto out;
	if (job->out) {
		c.path = job->out;
		if (out_is_input(job->out, job->image, "IMAGE", e) ||
		    out_is_input(job->out, m.init, job->init ? "KIT" :
				 "this kit", e))
			goto out;
		c.fd = boot_open_output(job->out, &target, e);
		if (c.fd < 0)
			goto out;
	} else if (isatty(STDOUT_FILENO)) {
		kit_fail(e, EXIT_USAGE, 0, "the cpio is binary: give -o OUT "
			 "or redirect stdout");
		goto out;
	}
	if (write_archive(&c, &m, job->image)) {
		if (job->out)
			boot_discard_output(&c);
		goto out;
	}
	ret = job->out ? boot_close_output(&c, target) : 0;
out:
	free(target);
	boot_close_modules(&m);
	return ret;
}
