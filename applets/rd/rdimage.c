// SPDX-License-Identifier: GPL-2.0
/*
 * rdimage: a RAM-disk image identified at its start block the way
 * identify_ramdisk_image() does, decompressed as the kernel would (the
 * decoders, rddecode.c) or copied as it is, and read back for --verify.
 * The image is a stream (of volumes, for rdload) that identification
 * reads the head of; the loader replays that head and goes on.  A plain
 * image goes by the caller's splice() past its head.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "rd/rdimage.h"

bool rd_identify_head(const unsigned char *head, struct ident *id)
{
	size_t i;

	for (i = 0; i < rd_nformats; i++) {
		if (!memcmp(head, rd_formats[i].magic, 2)) {
			memset(id, 0, sizeof(*id));
			id->format = &rd_formats[i];
			return true;
		}
	}
	return rd_identify_fs(head, id);
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

int rd_read_head(struct load *ld)
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
	ret = rd_fit_target(ld, ld->image_kib);
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
			rd_show_progress(ld, ld->queued - n);
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

int rd_load_image(struct load *ld)
{
	int ret, synced;

	ld->image_kib = ld->id.kib;
	ret = ld->id.format ? rd_decompress(ld) : copy_plain(ld);
	if (!ret)
		ret = rd_out_flush(ld);
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
	if (rd_load_image(ld) < 0)
		return -1;
	if (ld->image_kib)
		rd_say(ld, "RAMDISK: image size %lluKiB",
		       (unsigned long long)ld->image_kib);
	else
		rd_say(ld, "RAMDISK: image size not known before "
		       "decompressing");
	return 0;
}

/* ---- What a caller calls first and last ---- */

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

	if (rd_read_head(ld))
		return -1;
	if (!rd_identify_head(ld->head, &ld->id))
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
