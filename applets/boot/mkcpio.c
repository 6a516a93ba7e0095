// SPDX-License-Identifier: GPL-2.0
/*
 * initrd mkcpio: the newc cpio that boots an old initrd (see initrd.c):
 * /init (kit), /dev/console, the modules the boot loads, uncompressed and
 * in dependency order with the list /init reads, and the image if given.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/initrd.h"
#include "boot/mkcpio.h"
#include "rd/rd.h"
/* The filesystem in IMAGE, found as the kernel finds it, inside its
 * compression too (rdload -i's engine). */
static const char *image_fs(const char *path, unsigned long start)
{
	char *volumes[] = { (char *)path };
	struct rd_job job = { .volumes = volumes, .count = 1,
			      .start = (uint64_t)start * RD_BLOCK };
	struct stat st;

	close(open_regular(path, &st));
	if (rd_identify(&job))
		die("%s: %s; give -s START if it starts at a later block (as "
		    "ramdisk_start= will)", path, job.error);
	if (!job.fs)
		die("%s: the kernel would find no filesystem in it; name its "
		    "module with -m", path);
	return job.fs;
}

int mkcpio_main(int argc, char **argv)
{
	struct modules m = { .count = 0 };
	struct cpio c = { .fd = STDOUT_FILENO, .path = "stdout" };
	const char *root = "/", *kver = NULL, *out = NULL, *mods[64];
	char *target = NULL;
	struct utsname u;
	int opt, nmods = 0, i;
	unsigned long start = 0;

	while ((opt = kit_getopt(argc, argv, "r:k:m:o:s:", NULL)) != -1) {
		switch (opt) {
		case 's':
			if (parse_ulong(optarg, 0, 0, INT_MAX, &start))
				die_usage("-s takes a block number (1 KiB "
					  "blocks), got %s", optarg);
			break;
		case 'r':
			root = optarg;
			break;
		case 'k':
			kver = optarg;
			break;
		case 'm':
			if (nmods == 64)
				die_usage("more than 64 -m MODULE");
			mods[nmods++] = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		}
	}
	if (argc - optind > 1)
		die_usage("mkcpio takes one IMAGE at most, got '%s'",
			  argv[optind + 1]);
	if (!kver) {
		uname(&u);
		kver = u.release;
	}
	open_modules(&m, root, kver);
	add_module(&m, "brd");
	if (optind < argc)
		add_fs_module(&m, image_fs(argv[optind], start));
	for (i = 0; i < nmods; i++)
		add_module(&m, mods[i]);
	if (out) {
		c.path = out;
		c.fd = open_output(out, optind < argc ? argv[optind] : NULL,
				   &target);
	} else if (isatty(STDOUT_FILENO)) {
		die_usage("the cpio is binary: give -o OUT or redirect stdout");
	}
	cpio_data(&c, "dev", S_IFDIR | 0755, NULL, 0);
	cpio_header(&c, "dev/console", S_IFCHR | 0600, makedev(5, 1), 0);
	cpio_data(&c, "kit", S_IFDIR | 0755, NULL, 0);
	cpio_file(&c, "init", "/proc/self/exe");
	cpio_modules(&c, &m);
	if (optind < argc)
		cpio_file(&c, IMAGE_PATH + 1, argv[optind]);
	cpio_data(&c, "TRAILER!!!", 0, NULL, 0);
	if (out)
		close_output(&c, target);
	return 0;
}
