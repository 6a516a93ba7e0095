// SPDX-License-Identifier: GPL-2.0
/*
 * rootdev: root= as the kernel reads it (init/do_mounts.c, block/
 * early-lookup.c): a device name, MAJ:MIN, hex, an ext2/3/4 UUID= or
 * LABEL=, or a partition's PARTUUID= from its GPT or MBR; waited for as
 * prepare_namespace() waits; and the real-root-dev that /linuxrc may
 * write, as handle_initrd() read it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "core/disk.h"
#include "core/kit.h"
#include "boot/boot.h"

/* An ext2/3/4 superblock's UUID or label matches spec ("UUID=..."). */
bool boot_ext_matches(const char *dev, const char *spec)
{
	unsigned char sb[256];
	char uuid[37];
	int fd = open(dev, O_RDONLY | O_CLOEXEC), i, n = 0;

	if (fd < 0)
		return false;
	i = pread(fd, sb, sizeof(sb), EXT2_SB_OFFSET);
	close(fd);
	if (i != sizeof(sb) || !ext2_magic(sb))
		return false;
	if (!strncmp(spec, "LABEL=", 6))
		return !strncmp((char *)sb + 0x78, spec + 6, 16) &&
		       strlen(spec + 6) <= 16;
	for (i = 0; i < 16; i++)
		n += sprintf(uuid + n, "%s%02x",
			     i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
			     sb[0x68 + i]);
	return !strcasecmp(uuid, spec + 5);
}

/*
 * The PARTUUID of partition partno of the disk at path, as the kernel's
 * partition parsers make it: a GPT entry's unique GUID, or on an MBR
 * disk its signature and the number, "SSSSSSSS-PP".  lbs: the disk's
 * logical block size.  False when the disk has neither table.
 */
bool boot_part_uuid(const char *path, unsigned int lbs, unsigned int partno,
		    char uuid[37])
{
	unsigned char mbr[512], hdr[92], g[16];
	uint64_t entries;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;
	bool gpt = false, ok = false;

	if (fd < 0)
		return false;
	if (pread(fd, mbr, sizeof(mbr), 0) != sizeof(mbr) ||
	    mbr[510] != 0x55 || mbr[511] != 0xaa)
		goto out;
	for (i = 0; i < 4; i++)
		gpt |= mbr[446 + 16 * i + 4] == 0xee;	/* protective MBR */
	if (!gpt) {
		snprintf(uuid, 37, "%08x-%02x", get_le32(mbr + 440), partno);
		ok = true;
		goto out;
	}
	if (pread(fd, hdr, sizeof(hdr), lbs) != sizeof(hdr) ||
	    memcmp(hdr, "EFI PART", 8) || !partno || partno > get_le32(hdr + 80) ||
	    get_le32(hdr + 84) < 32)
		goto out;
	entries = (get_le32(hdr + 72) | (uint64_t)get_le32(hdr + 76) << 32) * lbs;
	if (pread(fd, g, sizeof(g), entries + (uint64_t)(partno - 1) *
		  get_le32(hdr + 84) + 16) != sizeof(g))
		goto out;
	snprintf(uuid, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 get_le32(g), get_le16(g + 4), get_le16(g + 6), g[8], g[9],
		 g[10], g[11], g[12], g[13], g[14], g[15]);
	ok = true;
out:
	close(fd);
	return ok;
}

/* Block device name (in /sys/class/block) as a partition: its disk's
 * name and its number. */
static bool partition_of(const char *name, char disk[NAME_MAX + 1],
			 unsigned int *partno)
{
	char path[PATH_MAX], real[PATH_MAX], buf[16], *slash;

	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	if (read_text(path, buf, sizeof(buf)) < 0)
		return false;
	*partno = strtoul(buf, NULL, 10);
	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	if (!realpath(path, real) || !(slash = strrchr(real, '/')))
		return false;
	*slash = '\0';			/* .../DISK/PART: DISK */
	slash = strrchr(real, '/');
	snprintf(disk, NAME_MAX + 1, "%.255s", slash ? slash + 1 : real);
	return true;
}

/* Does block device name have a PARTUUID that starts with the len
 * bytes of uuid, in any case?  The disk and number in disk and *partno. */
static bool has_part_uuid(const char *name, const char *uuid, size_t len,
			  char disk[NAME_MAX + 1], unsigned int *partno)
{
	char path[PATH_MAX], buf[16], found[37];
	unsigned long lbs = 512;

	if (!partition_of(name, disk, partno))
		return false;
	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/"
		 "logical_block_size", disk);
	if (read_text(path, buf, sizeof(buf)) > 0)
		lbs = strtoul(buf, NULL, 10);
	snprintf(path, sizeof(path), "/dev/%s", disk);
	return boot_part_uuid(path, lbs, *partno, found) &&
	       !strncasecmp(uuid, found, len);
}

/*
 * root=PARTUUID=U[/PARTNROFF=N]: the partition whose PARTUUID is U, or
 * the one N further on the same disk, as the kernel's devt_from_partuuid():
 * U is compared over its own length, any case (match_dev_by_uuid():
 * strncasecmp() of cmp->len), so a prefix matches; an empty U, or after
 * the slash anything but PARTNROFF=N, is invalid.  Its name in name.
 */
static bool partuuid_name(const char *spec, char name[NAME_MAX + 1])
{
	char disk[NAME_MAX + 1], other[NAME_MAX + 1], c;
	const char *slash = strchr(spec, '/');
	size_t len = slash ? (size_t)(slash - spec) : strlen(spec);
	unsigned int partno, n;
	int offset = 0;
	long want = 0;
	struct dirent *d;
	bool found = false;
	DIR *dir;

	if (!len || (slash && sscanf(slash + 1, "PARTNROFF=%d%c", &offset,
				     &c) != 1))
		return false;
	dir = opendir("/sys/class/block");
	while (dir && !found && (d = readdir(dir)))
		if (has_part_uuid(d->d_name, spec, len, disk, &partno)) {
			snprintf(name, NAME_MAX + 1, "%s", d->d_name);
			want = (long)partno + offset;
			found = true;
		}
	if (found && slash) {
		found = false;
		rewinddir(dir);
		while (!found && (d = readdir(dir)))
			if (partition_of(d->d_name, other, &n) && (long)n == want &&
			    !strcmp(other, disk)) {
				snprintf(name, NAME_MAX + 1, "%s", d->d_name);
				found = true;
			}
	}
	if (dir)
		closedir(dir);
	return found;
}

/* root= as a device number: /dev/NAME, NAME, MAJ:MIN, hex, UUID=, LABEL=,
 * PARTUUID=. */
bool boot_root_device(const char *spec, dev_t *dev)
{
	char path[PATH_MAX], buf[32], name[NAME_MAX + 1];
	unsigned int maj, min;
	struct dirent *d = NULL;
	struct stat st;
	DIR *dir;

	if (!strncmp(spec, "UUID=", 5) || !strncmp(spec, "LABEL=", 6)) {
		dir = opendir("/sys/class/block");
		while (dir && (d = readdir(dir))) {
			snprintf(path, sizeof(path), "/dev/%s", d->d_name);
			if (boot_ext_matches(path, spec) && !stat(path, &st)) {
				*dev = st.st_rdev;
				break;
			}
		}
		if (dir)
			closedir(dir);
		return d != NULL;
	}
	if (sscanf(spec, "%u:%u%c", &maj, &min, buf) == 2) {
		*dev = makedev(maj, min);
		return true;
	}
	if (strspn(spec, "0123456789abcdefABCDEF") == strlen(spec)) {
		*dev = makedev(strtoul(spec, NULL, 16) >> 8,
			       strtoul(spec, NULL, 16) & 0xff);
		return true;
	}
	if (!strncmp(spec, "PARTUUID=", 9)) {
		if (!partuuid_name(spec + 9, name))
			return false;
		spec = name;
	}
	if (!strncmp(spec, "/dev/", 5))
		spec += 5;
	if (!strcmp(spec, "ram")) {
		*dev = RAM0;
		return true;
	}
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", spec);
	if (read_text(path, buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u:%u", &maj, &min) != 2)
		return false;
	*dev = makedev(maj, min);
	return true;
}

double boot_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * root='s device, waited for as prepare_namespace() does: with rootwait
 * until it comes (rootwait=N: N s at most); without, only while drivers
 * may still probe (wait_for_device_probe()): ROOT_PROBE_S.
 */

bool boot_wait_root(const struct boot *b, dev_t *dev)
{
	double until = boot_now() +
		       (b->root_wait > 0 ? b->root_wait : ROOT_PROBE_S);
	bool said = false;

	while (!boot_root_device(b->root, dev)) {
		if (b->root_wait >= 0 && boot_now() > until)
			return false;
		if (b->root_wait && !said)
			kit_note(b->note, "waiting for root device %s...",
				 b->root);
		said = true;
		usleep(100000);
	}
	return true;
}

int boot_real_root_dev(unsigned int *value, bool write)
{
	char buf[32];
	int fd, ret;

	if (write) {
		fd = open(REAL_ROOT_DEV, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		ret = write_all(fd, buf, snprintf(buf, sizeof(buf), "%u\n",
						  *value));
		close(fd);
		return ret < 0 ? -1 : 0;
	}
	if (read_text(REAL_ROOT_DEV, buf, sizeof(buf)) < 0)
		return -1;
	*value = strtoul(buf, NULL, 0);
	return 0;
}

unsigned int boot_encode_dev(dev_t dev)
{
	return (minor(dev) & 0xff) | (major(dev) << 8) |
	       ((minor(dev) & ~0xffU) << 12);
}

static dev_t decode_dev(unsigned int v)
{
	return makedev((v & 0xfff00) >> 8, (v & 0xff) | ((v >> 12) & 0xfff00));
}

/*
 * Runs linuxrc as handle_initrd() did: real-root-dev holds root='s
 * device while it runs (5.x and 6.x still have it; 7.0 removed it,
 * commit e6ce36ccc86f), and what it wrote there, if that changed, names
 * the real root.  1, with *dev, when it did; 0 when not; -1 when linuxrc
 * failed (its error in *e).
 */
int boot_linuxrc_chose_root(const struct boot *b, dev_t *dev,
			    struct kit_err *e,
			    int (*linuxrc)(const struct boot *b,
					   struct kit_err *e))
{
	unsigned int rrd = 0, before = 0;

	if (b->root && boot_root_device(b->root, dev))
		before = boot_encode_dev(*dev);
	if (!access(REAL_ROOT_DEV, W_OK))
		boot_real_root_dev(&before, true);
	if (linuxrc(b, e))
		return -1;
	if (boot_real_root_dev(&rrd, false) || rrd == before)
		return 0;
	*dev = decode_dev(rrd);
	return 1;
}
