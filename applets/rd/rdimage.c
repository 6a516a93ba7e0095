// SPDX-License-Identifier: GPL-2.0
/*
 * rdimage: the engine of rdload (rdimage.h): a RAM-disk image identified
 * at its start block the way identify_ramdisk_image() does, decompressed
 * as the kernel would, and written through the caller's callbacks.
 *
 * The image is a stream (of volumes, for rdload) that identification
 * reads the head of; the loader replays that head and goes on.
 * Decompressed data goes through write buffers whose first bytes are
 * identified again (the filesystem inside a compressed image) before
 * anything is written, so a target that is too small is refused up
 * front; a plain image goes by the caller's splice() past its head.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "rd/rddecode.h"

int rd_fail(struct load *ld, const char *fmt, ...)
{
	va_list ap;

	if (ld->error[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(ld->error, sizeof(ld->error), fmt, ap);
	va_end(ap);
	return -1;
}

void rd_say(struct load *ld, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!ld->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ld->say(ld, line);
}

static uint16_t get_le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

/* The kernel reads minix and cramfs fields in the CPU's byte order. */
static uint16_t get_host16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get_host32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t bytes_to_kib(uint64_t bytes)
{
	return bytes / RD_BLOCK + (bytes % RD_BLOCK != 0);
}

/* value << shift, saturated: sizes come from untrusted superblocks. */
static uint64_t shift_kib(uint64_t value, unsigned int shift)
{
	if (shift >= 64 || value > UINT64_MAX >> shift)
		return UINT64_MAX;
	return value << shift;
}

/* ---- Identification, in identify_ramdisk_image()'s order ---- */


#define CRAMFS_MAGIC	0x28cd3d45
#define SQUASHFS_MAGIC	0x73717368
#define MINIX_MAGIC	0x137f
#define MINIX_MAGIC2	0x138f
#define EXT2_MAGIC	0xef53

static bool found_fs(struct ident *id, const char *fs, uint64_t kib)
{
	id->fs = fs;
	id->kib = kib;
	return true;
}

static bool identify_cramfs(const unsigned char *sb, struct ident *id)
{
	if (get_host32(sb) != CRAMFS_MAGIC)
		return false;
	return found_fs(id, "cramfs", bytes_to_kib(get_host32(sb + 4)));
}

/*
 * The filesystems, at 0 of head (RD_HEAD_SIZE bytes from the start block):
 * romfs, cramfs, squashfs, cramfs padded by 512, then minix and ext2 in
 * the next KiB.  Sizes in KiB, as the kernel computes them.
 */
static bool identify_fs(const unsigned char *head, struct ident *id)
{
	const unsigned char *sb = head + RD_BLOCK;
	uint64_t squashfs_bytes;

	memset(id, 0, sizeof(*id));
	if (!memcmp(head, "-rom1fs-", 8))
		return found_fs(id, "romfs", bytes_to_kib(get_be32(head + 8)));
	if (identify_cramfs(head, id))
		return true;
	if (get_le32(head) == SQUASHFS_MAGIC) {
		squashfs_bytes = get_le32(head + 40) |
				 (uint64_t)get_le32(head + 44) << 32;
		return found_fs(id, "squashfs", bytes_to_kib(squashfs_bytes));
	}
	if (identify_cramfs(head + 512, id))
		return true;
	if (get_host16(sb + 16) == MINIX_MAGIC ||
	    get_host16(sb + 16) == MINIX_MAGIC2)
		return found_fs(id, "Minix", shift_kib(get_host16(sb + 2),
						       get_host16(sb + 10)));
	if (get_le16(sb + 0x38) == EXT2_MAGIC && get_le32(sb + 4))
		return found_fs(id, "ext2", shift_kib(get_le32(sb + 4),
						      get_le32(sb + 0x18)));
	return false;
}

static bool identify(const unsigned char *head, struct ident *id)
{
	size_t i;

	for (i = 0; i < rd_nformats; i++) {
		if (!memcmp(head, rd_formats[i].magic, 2)) {
			memset(id, 0, sizeof(*id));
			id->format = &rd_formats[i];
			return true;
		}
	}
	return identify_fs(head, id);
}

/* ---- Input: the head replayed, then the reader ---- */

ssize_t rd_read(struct load *ld, void *buf, size_t len)
{
	size_t n = ld->head_len - ld->head_pos;

	if (!n)
		return ld->read(ld, buf, len);
	if (n > len)
		n = len;
	memcpy(buf, ld->head + ld->head_pos, n);
	ld->head_pos += n;
	return n;
}

/* Reads len bytes unless the image ends first; -1 on error. */
ssize_t rd_read_full(struct load *ld, void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = rd_read(ld, (char *)buf + done, len - done);
		if (n < 0)
			return -1;
		if (!n)
			break;
		done += n;
	}
	return done;
}

/* The bytes before the start block, read and dropped (no seek needed). */
static int skip_start(struct load *ld)
{
	uint64_t left = ld->start;
	ssize_t n;

	for (; left; left -= n) {
		n = ld->read(ld, ld->in, left < IN_CHUNK ? left : IN_CHUNK);
		if (n <= 0)
			return n;
	}
	return 0;
}

/* The first bytes from the start, as the kernel reads: 0xe5 past the end. */
static int read_head(struct load *ld)
{
	ssize_t n;

	if (skip_start(ld))
		return -1;
	memset(ld->head, 0xe5, sizeof(ld->head));
	n = rd_read_full(ld, ld->head, sizeof(ld->head));
	if (n < 0)
		return -1;
	ld->head_len = n;
	ld->head_pos = 0;
	return 0;
}

int rd_fail_eof(struct load *ld)
{
	return rd_fail(ld, "RAMDISK: EOF while reading compressed data: the %s "
		    "image is truncated", ld->id.format->name);
}

/* Reads exactly len bytes of compressed data; EOF is an error. */
int rd_read_exact(struct load *ld, void *buf, size_t len)
{
	ssize_t n = rd_read_full(ld, buf, len);

	if (n < 0)
		return -1;
	return (size_t)n < len ? rd_fail_eof(ld) : 0;
}

/* ---- Output: one big buffer, checked before the first write ---- */

/*
 * Before anything is written: the size the image will have, when known,
 * must fit; an unsized target (zram) gets that size.
 */
static int fit_target(struct load *ld, uint64_t kib)
{
	if (!ld->capacity && ld->resize) {
		if (!kib)
			return rd_fail(ld, "the size of the %s image is not known "
				    "before decompressing it: give the zram "
				    "device a disksize first",
				    ld->id.format->name);
		if (kib <= UINT64_MAX / RD_BLOCK && ld->resize(ld, kib * RD_BLOCK))
			return -1;
	}
	if (kib > ld->capacity / RD_BLOCK)
		return rd_fail(ld, "RAMDISK: image too big! (%lluKiB/%lluKiB)",
			    (unsigned long long)kib,
			    (unsigned long long)(ld->capacity / RD_BLOCK));
	return 0;
}

/* The decompressed head, identified as the kernel would a plain image. */
static int check_head(struct load *ld)
{
	unsigned char head[RD_HEAD_SIZE];
	struct ident fs;

	ld->head_checked = true;
	memset(head, 0xe5, sizeof(head));
	memcpy(head, ld->out, ld->fill < RD_HEAD_SIZE ? ld->fill : RD_HEAD_SIZE);
	if (identify_fs(head, &fs)) {
		ld->id.fs = fs.fs;
		ld->image_kib = fs.kib;
		rd_say(ld, "RAMDISK: %s filesystem found in the %s image", fs.fs,
		    ld->id.format->name);
	}
	if (ld->head_only)
		return RD_STOP;
	return fit_target(ld, ld->image_kib);
}

/* Every 4 MiB, for the command's progress line. */
static void show_progress(struct load *ld, uint64_t before)
{
	if (ld->progress && before >> 22 != ld->queued >> 22)
		ld->progress(ld);
}

/*
 * --verify: the CRC-32 of each MiB as it goes to the target (at offset
 * queued), so that reading back can name the first MiB that differs.
 */
static int sum_written(struct load *ld, const unsigned char *p, size_t len)
{
	uint64_t pos = ld->queued;
	size_t span, i, more;
	uint32_t *sums;

	for (; len; p += span, pos += span, len -= span) {
		i = pos / VERIFY_SPAN;
		span = VERIFY_SPAN - pos % VERIFY_SPAN;
		if (span > len)
			span = len;
		if (i >= ld->nsums) {
			more = ld->nsums ? 2 * ld->nsums : 64;
			sums = realloc(ld->sums, more * sizeof(*sums));
			if (!sums)
				return rd_fail(ld, "out of memory for --verify");
			memset(sums + ld->nsums, 0,
			       (more - ld->nsums) * sizeof(*sums));
			ld->sums = sums;
			ld->nsums = more;
		}
		ld->sums[i] = crc32_z(ld->sums[i], p, span);
	}
	return 0;
}

/*
 * Of the bytes in out, those the target gets.  An image of known size is
 * loaded to that size, as the kernel loads a plain one: what follows in
 * the stream (a filesystem's padding) is decoded and dropped.
 */
static size_t out_wanted(struct load *ld)
{
	uint64_t end = ld->image_kib * RD_BLOCK;	/* fit_target() checked it */

	if (!ld->image_kib || ld->fill <= end - ld->queued)
		return ld->fill;
	return end - ld->queued;
}

/* Hands the buffer to write() and goes on in the spare one. */
static int out_flush(struct load *ld)
{
	unsigned char *full = ld->out;
	size_t len;
	int ret;

	if (!ld->head_checked && (ret = check_head(ld)))
		return ret;
	len = out_wanted(ld);
	ld->fill = 0;
	if (!len)
		return 0;
	if (len > ld->capacity - ld->queued)
		return rd_fail(ld, "RAMDISK: image too big! (more than "
			    "%lluKiB/%lluKiB)",
			    (unsigned long long)bytes_to_kib(ld->queued + len),
			    (unsigned long long)(ld->capacity / RD_BLOCK));
	if (ld->verify && sum_written(ld, full, len))
		return -1;
	if (ld->write(ld, full, len))
		return -1;
	ld->queued += len;
	show_progress(ld, ld->queued - len);
	ld->out = ld->spare;
	ld->spare = full;
	return 0;
}

/* Room for at least need more bytes, flushing when short of it. */
int rd_out_reserve(struct load *ld, size_t need, unsigned char **out)
{
	int ret;

	if (OUT_SIZE - ld->fill < need && (ret = out_flush(ld)))
		return ret;
	*out = ld->out + ld->fill;
	return 0;
}

/* n more bytes decompressed at out + fill. */
int rd_out_commit(struct load *ld, size_t n)
{
	int ret;

	ld->fill += n;
	if (!ld->head_checked && ld->fill >= RD_HEAD_SIZE &&
	    (ret = check_head(ld)))
		return ret;
	if (ld->fill >= WRITE_SIZE)
		return out_flush(ld);
	return 0;
}

/* ---- Loading ---- */

/* An uncompressed image: the kernel's nblocks KiB, no more. */
static int copy_plain(struct load *ld)
{
	uint64_t left = ld->image_kib * RD_BLOCK;
	size_t want;
	ssize_t n;
	int ret;

	ld->head_checked = true;
	if (!ld->image_kib)
		return rd_fail(ld, "RAMDISK: the %s filesystem has size 0KiB: "
			    "nothing to load", ld->id.fs);
	/* Before sizing or writing anything: is it all there? */
	if (ld->image_kib > (ld->input_len - ld->start) / RD_BLOCK)
		return rd_fail(ld, "RAMDISK: image truncated: the %s filesystem "
			    "is %lluKiB, the input holds %llu bytes of it",
			    ld->id.fs, (unsigned long long)ld->image_kib,
			    (unsigned long long)(ld->input_len - ld->start));
	if (ld->head_only)
		return RD_STOP;
	ret = fit_target(ld, ld->image_kib);
	while (!ret && left) {
		/* Past the head, with nothing pending, the kernel copies. */
		n = 0;
		if (ld->splice && !ld->fill && ld->head_pos == ld->head_len)
			n = ld->splice(ld, left < OUT_SIZE ? left : OUT_SIZE);
		if (n < 0)
			return -1;
		if (n > 0) {
			left -= n;
			ld->queued += n;
			show_progress(ld, ld->queued - n);
			continue;
		}
		want = WRITE_SIZE - ld->fill;
		if (want > left)
			want = left;
		n = rd_read_full(ld, ld->out + ld->fill, want);
		if (n < 0)
			return -1;
		left -= n;
		ret = rd_out_commit(ld, n);
		if (!ret && (size_t)n < want)
			return rd_fail(ld, "RAMDISK: image truncated: it ends "
				    "%lluKiB short of %lluKiB",
				    (unsigned long long)bytes_to_kib(left),
				    (unsigned long long)ld->image_kib);
	}
	return ret;
}

/*
 * A compressed image whose stream ends before its filesystem does: the
 * kernel would load it as it is, kit says that it is truncated.
 */
static int check_complete(struct load *ld)
{
	if (!ld->id.format || ld->queued >= ld->image_kib * RD_BLOCK)
		return 0;
	return rd_fail(ld, "RAMDISK: image truncated: the %s filesystem is "
		    "%lluKiB, the %s image holds %llu bytes of it", ld->id.fs,
		    (unsigned long long)ld->image_kib, ld->id.format->name,
		    (unsigned long long)ld->queued);
}

/*
 * Loads the identified image (ld->id, ld->head read): returns 0, RD_STOP
 * when only the head was wanted, or -1 with ld->error.  Whatever
 * happened, no write is in flight afterwards.
 */
int rd_load(struct load *ld)
{
	int ret, synced;

	ld->image_kib = ld->id.kib;
	ret = ld->id.format ? rd_decompress(ld) : copy_plain(ld);
	if (!ret)
		ret = out_flush(ld);
	if (!ret)
		ret = check_complete(ld);
	synced = ld->sync ? ld->sync(ld) : 0;
	return ret ? ret : synced;
}

/* Reads back what was written, from the device and not the page cache. */
int rd_verify(struct load *ld, int fd, const char *path)
{
	uint64_t pos;
	size_t want, got;
	ssize_t n;

	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (pos = 0; pos < ld->written; pos += want) {
		want = ld->written - pos < VERIFY_SPAN ? ld->written - pos :
							VERIFY_SPAN;
		for (got = 0; got < want; got += n) {
			n = pread(fd, ld->out + got, want - got, pos + got);
			if (n <= 0)
				return rd_fail(ld, "RAMDISK: verify: cannot read "
					    "%s back at %llu: %s", path,
					    (unsigned long long)(pos + got),
					    n ? strerror(errno) :
						"end of device");
		}
		if (crc32_z(0, ld->out, want) != ld->sums[pos / VERIFY_SPAN])
			return rd_fail(ld, "RAMDISK: verify failed: %s reads "
				    "back other bytes than were written, "
				    "in MiB %llu (bytes %llu-%llu)", path,
				    (unsigned long long)(pos / VERIFY_SPAN),
				    (unsigned long long)pos,
				    (unsigned long long)(pos + want - 1));
	}
	rd_say(ld, "RAMDISK: verified %lluKiB",
	    (unsigned long long)bytes_to_kib(ld->written));
	return 0;
}

/* -i: the kernel's words, then the size it would load. */
int rd_report_size(struct load *ld)
{
	ld->head_only = true;
	ld->capacity = UINT64_MAX;
	if (rd_load(ld) < 0)
		return -1;
	if (ld->image_kib)
		rd_say(ld, "RAMDISK: image size %lluKiB",
		       (unsigned long long)ld->image_kib);
	else
		rd_say(ld, "RAMDISK: image size not known before "
		       "decompressing");
	return 0;
}

/* ---- What a command calls first and last ---- */

int rd_alloc(struct load *ld)
{
	ld->in = malloc(IN_SIZE);
	ld->out = malloc(OUT_SIZE);
	ld->spare = malloc(OUT_SIZE);
	if (!ld->in || !ld->out || !ld->spare)
		return rd_fail(ld, "out of memory for the buffers");
	return 0;
}

void rd_free(struct load *ld)
{
	free(ld->in);
	free(ld->out);
	free(ld->spare);
	free(ld->sums);
}

int rd_find(struct load *ld)
{
	unsigned long long block = ld->start / RD_BLOCK;

	if (read_head(ld))
		return -1;
	if (!identify(ld->head, &ld->id))
		return rd_fail(ld, "RAMDISK: Couldn't find valid RAM disk "
			       "image starting at %llu.", block);
	rd_say(ld, "RAMDISK: %s %s found at block %llu",
	       ld->id.format ? ld->id.format->name : ld->id.fs,
	       ld->id.format ? "image" : "filesystem", block);
	return 0;
}

void rd_say_done(struct load *ld, int disks)
{
	rd_say(ld, "RAMDISK: Loading %lluKiB [%d disk%s] into ram disk... "
	       "done.", (unsigned long long)bytes_to_kib(ld->written), disks,
	       disks > 1 ? "s" : "");
}
