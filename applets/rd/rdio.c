// SPDX-License-Identifier: GPL-2.0
/*
 * rdio: the RAM-disk engine's input and output.  Input is the head that
 * identification read, replayed, then the caller's read().  Output goes
 * through write buffers whose first bytes are identified again (the
 * filesystem inside a compressed image) before anything is written, so
 * that a target too small is refused up front.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "rd/rdimage.h"

int rd_fail(struct load *ld, const char *fmt, ...)
{
	va_list ap;

	if (ld->err.msg[0])
		return -1;
	ld->err.status = EXIT_RUNTIME;
	va_start(ap, fmt);
	vsnprintf(ld->err.msg, sizeof(ld->err.msg), fmt, ap);
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

int rd_fail_eof(struct load *ld)
{
	return rd_fail(ld, "RAMDISK: EOF while reading compressed data: the %s "
		    "image is truncated", ld->id.format->name);
}

int rd_read_exact(struct load *ld, void *buf, size_t len)
{
	ssize_t n = rd_read_full(ld, buf, len);

	if (n < 0)
		return -1;
	return (size_t)n < len ? rd_fail_eof(ld) : 0;
}

/* ---- Output: one big buffer, checked before the first write ---- */

int rd_fit_target(struct load *ld, uint64_t kib)
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
	if (rd_identify_fs(head, &fs)) {
		ld->id.fs = fs.fs;
		ld->image_kib = fs.kib;
		rd_say(ld, "RAMDISK: %s filesystem found in the %s image", fs.fs,
		    ld->id.format->name);
	}
	if (ld->head_only)
		return RD_STOP;
	return rd_fit_target(ld, ld->image_kib);
}

void rd_show_progress(struct load *ld, uint64_t before)
{
	if (ld->progress && before >> 22 != ld->queued >> 22)
		ld->progress(ld);
}

int rd_sum_written(struct load *ld, const unsigned char *p, size_t len)
{
	uint64_t pos = ld->queued;
	size_t span, i, had;
	uint32_t *sums;

	for (; len; p += span, pos += span, len -= span) {
		i = pos / VERIFY_SPAN;
		span = VERIFY_SPAN - pos % VERIFY_SPAN;
		if (span > len)
			span = len;
		if (i >= ld->nsums) {
			had = ld->nsums;
			sums = grow(ld->sums, &ld->nsums, i + 1, sizeof(*sums));
			if (!sums)
				return rd_fail(ld, "out of memory for --verify");
			memset(sums + had, 0,
			       (ld->nsums - had) * sizeof(*sums));
			ld->sums = sums;
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
	uint64_t end = ld->image_kib * RD_BLOCK;	/* rd_fit_target() checked it */

	if (!ld->image_kib || ld->fill <= end - ld->queued)
		return ld->fill;
	return end - ld->queued;
}

int rd_out_flush(struct load *ld)
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
	if (ld->verify && rd_sum_written(ld, full, len))
		return -1;
	if (ld->write(ld, full, len))
		return -1;
	ld->queued += len;
	rd_show_progress(ld, ld->queued - len);
	ld->out = ld->spare;
	ld->spare = full;
	return 0;
}

int rd_out_reserve(struct load *ld, size_t need, unsigned char **out)
{
	int ret;

	if (OUT_SIZE - ld->fill < need && (ret = rd_out_flush(ld)))
		return ret;
	*out = ld->out + ld->fill;
	return 0;
}

int rd_out_commit(struct load *ld, size_t n)
{
	int ret;

	ld->fill += n;
	if (!ld->head_checked && ld->fill >= RD_HEAD_SIZE &&
	    (ret = check_head(ld)))
		return ret;
	if (ld->fill >= WRITE_SIZE)
		return rd_out_flush(ld);
	return 0;
}
