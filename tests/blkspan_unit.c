// SPDX-License-Identifier: GPL-2.0
/*
 * blkspan (applets/rd/blkspan.c) over a fake sysfs tree (KIT_SYSFS): a disk
 * with two partitions, an md-like device stacked over one of them, a
 * stack that loops, an attribute that is not a number, a device sysfs
 * does not know; and what overlaps what.  Loop and device-mapper devices
 * need the kernel: tests/rdload.t and tests/guest/rdload.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rd/blkspan.h"
#include "unit.h"

static char root[] = "/tmp/blkspan_unit.XXXXXX";

/* Writes TEXT to the file root/PATH (its directories made). */
static void put(const char *path, const char *text)
{
	char full[PATH_MAX], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(full);
		exit(1);
	}
}

static void link_to(const char *target, const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s/%s", root, path);
	if (symlink(target, full)) {
		perror(full);
		exit(1);
	}
}

/* A device: devices/DIR with dev and size, and its dev/block/ link. */
static void device(const char *dir, unsigned int maj, unsigned int min,
		   const char *sectors)
{
	char path[PATH_MAX], text[32], link[PATH_MAX];

	snprintf(path, sizeof(path), "devices/%s/dev", dir);
	snprintf(text, sizeof(text), "%u:%u\n", maj, min);
	put(path, text);
	snprintf(path, sizeof(path), "devices/%s/size", dir);
	put(path, sectors);
	snprintf(path, sizeof(path), "dev/block/%u:%u", maj, min);
	snprintf(link, sizeof(link), "../../devices/%s", dir);
	link_to(link, path);
}

/* Partition N of sda, 1 MiB from sector START, as sysfs shows one. */
static void partition(unsigned int n, const char *start)
{
	char dir[32], path[64], text[16];

	snprintf(dir, sizeof(dir), "sda/sda%u", n);
	device(dir, 8, n, "2048\n");
	snprintf(path, sizeof(path), "devices/%s/partition", dir);
	snprintf(text, sizeof(text), "%u\n", n);
	put(path, text);
	snprintf(path, sizeof(path), "devices/%s/start", dir);
	put(path, start);
}

/* mdN (9:N), stacked over UNDER (a link from its slaves/). */
static void stacked(unsigned int n, const char *under)
{
	char dir[32], path[64];

	snprintf(dir, sizeof(dir), "md%u", n);
	device(dir, 9, n, "2048\n");
	snprintf(path, sizeof(path), "devices/%s/slaves/.keep", dir);
	put(path, "");
	snprintf(path, sizeof(path), "devices/%s/slaves/%s", dir,
		 strrchr(under, '/') + 1);
	link_to(under, path);
}

static void fake_sysfs(void)
{
	if (!mkdtemp(root)) {
		perror(root);
		exit(1);
	}
	put("dev/block/.keep", "");
	device("sda", 8, 0, "8192\n");
	put("devices/sda/uevent", "MAJOR=8\nMINOR=0\nDEVNAME=sda\n");
	partition(1, "2048\n");
	partition(2, "4096\n");
	stacked(0, "../../sda/sda2");
	stacked(1, "../../md1");	/* over itself: a loop */
	device("bad", 9, 2, "lots\n");
	setenv("KIT_SYSFS", root, 1);
}

static struct blkspans spans_of_dev(unsigned int maj, unsigned int min,
				    int *ret)
{
	struct stat st = { .st_mode = S_IFBLK, .st_rdev = makedev(maj, min) };
	struct blkspans spans = { .span = NULL };

	*ret = rd_blkspans_of(&spans, &st, "given");
	return spans;
}

static bool overlap(const struct blkspans *a, const struct blkspans *b,
		    uint64_t want_start, uint64_t want_end)
{
	const struct blkspan *sa, *sb;
	uint64_t start, end;

	return rd_blkspans_overlap(a, b, &sa, &sb, &start, &end) &&
	       start == want_start && end == want_end;
}

static bool apart(const struct blkspans *a, const struct blkspans *b)
{
	const struct blkspan *sa, *sb;
	uint64_t start, end;

	return !rd_blkspans_overlap(a, b, &sa, &sb, &start, &end);
}

static void check_partitions(void)
{
	int r1, r2, rd, rm;
	struct blkspans p1 = spans_of_dev(8, 1, &r1);
	struct blkspans p2 = spans_of_dev(8, 2, &r2);
	struct blkspans disk = spans_of_dev(8, 0, &rd);
	struct blkspans md = spans_of_dev(9, 0, &rm);

	check("a partition: its disk's bytes from its start, for its size",
	      !r1 && p1.count == 1 && !p1.span[0].is_file &&
	      p1.span[0].dev == makedev(8, 0) &&
	      p1.span[0].start == 1048576 && p1.span[0].end == 2097152 &&
	      p1.span[0].depth == 1);
	check("a partition's disk is named by its uevent DEVNAME",
	      p1.count == 1 && !strcmp(p1.span[0].name, "/dev/sda"));
	check("a disk: itself, whole, by the name given",
	      !rd && disk.count == 1 && disk.span[0].start == 0 &&
	      disk.span[0].end == 4194304 && !disk.span[0].depth &&
	      !strcmp(disk.span[0].name, "given"));
	check("a disk and its partition share the partition's bytes",
	      overlap(&disk, &p1, 1048576, 2097152));
	check("two partitions of one disk, side by side, share nothing",
	      !r2 && apart(&p1, &p2));
	check("a stacked device over partition 2 holds it whole",
	      !rm && overlap(&md, &p2, 2097152, 3145728) && apart(&md, &p1));
	rd_blkspans_free(&p1);
	rd_blkspans_free(&p2);
	rd_blkspans_free(&disk);
	rd_blkspans_free(&md);
}

/* Whether the spans of device MAJ:MIN fail with an error holding TEXT. */
static bool fails_with(unsigned int maj, unsigned int min, const char *text)
{
	int ret;
	struct blkspans spans = spans_of_dev(maj, min, &ret);
	bool ok = ret && strstr(spans.err.msg, text);

	rd_blkspans_free(&spans);
	return ok;
}

static void check_errors(void)
{
	check("a stack that loops is an error, not a hang",
	      fails_with(9, 1, "stacked too deep"));
	check("a size that is not a number is an error naming it",
	      fails_with(9, 2, "size is 'lots', not a number"));
	check("a device that sysfs does not know: an error, asking for sysfs",
	      fails_with(9, 9, "/dev/block/9:9/size: No such file or "
			 "directory (is sysfs mounted on /sys?)"));
}

static void check_files(void)
{
	struct stat a = { .st_mode = S_IFREG, .st_dev = 5, .st_ino = 7 };
	struct stat b = a, c = a, chr = { .st_mode = S_IFCHR, .st_rdev = 5 };
	struct blkspans sa = { .span = NULL }, sb = { .span = NULL };
	struct blkspans sc = { .span = NULL }, schr = { .span = NULL };

	c.st_ino = 8;
	check("files: spans found",
	      !rd_blkspans_of(&sa, &a, "a") && !rd_blkspans_of(&sb, &b, "b") &&
	      !rd_blkspans_of(&sc, &c, "c") && !rd_blkspans_of(&schr, &chr, "chr"));
	check("one file under two names: all of it shared",
	      overlap(&sa, &sb, 0, UINT64_MAX));
	check("two files of one filesystem share nothing", apart(&sa, &sc));
	check("a character device holds no storage", !schr.count);
	rd_blkspans_free(&sa);
	rd_blkspans_free(&sb);
	rd_blkspans_free(&sc);
}

int main(void)
{
	char cmd[PATH_MAX + 16];

	fake_sysfs();
	check_partitions();
	check_errors();
	check_files();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
	return unit_status();
}
