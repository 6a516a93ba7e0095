/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdimage: the RAM-disk image engine that rdload drives (and initrd will):
 * identification as the kernel's identify_ramdisk_image() does it, the
 * decoders of every format the kernel decompresses, output buffering and
 * the load, with the kernel's messages.  Input, output and messages are
 * callbacks: the engine opens nothing and prints nothing itself, so a
 * command, the unit test and the fuzz target drive the same code.
 *
 * A command sets the callbacks and start, then:
 *   rd_alloc(ld); rd_find(ld);      the head read, identified, reported
 *   rd_report_size(ld)              -i: what a load would do, no writes
 *   rd_load(ld); rd_verify(...)     the load, and reading it back
 *   rd_say_done(ld, disks); rd_free(ld);
 * Errors: -1, with the first error's text in ld->error.
 */
#ifndef RDIMAGE_H
#define RDIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RD_BLOCK	1024		/* the kernel's BLOCK_SIZE: KiB */
#define RD_HEAD_SIZE	(3 * 512)	/* identification looks at no more */
#define RD_STOP		1		/* head seen, -i wants no more */

struct load;
struct codec;

/*
 * A compressed format: the kernel's magic, its name, and kit's decoder,
 * a library's streaming one (codec) or a loop over blocks (decompress).
 */
struct format {
	unsigned char magic[2];
	const char *name;
	const struct codec *codec;
	int (*decompress)(struct load *ld);
};

/* What identification found: a compressed format or a filesystem. */
struct ident {
	const struct format *format;	/* NULL: a plain filesystem */
	const char *fs;			/* the filesystem, once known */
	uint64_t kib;			/* the kernel's nblocks */
};

struct load {
	/* Input: > 0 bytes, 0 at the end of the last volume, -1 error. */
	ssize_t (*read)(struct load *ld, void *buf, size_t len);
	/*
	 * Output, sequential from offset 0.  write() may finish in the
	 * background: buf stays untouched until the next write() or sync(),
	 * which tell how it went and add what is done to written.  Both
	 * return 0, or -1 with ld->error.  sync() may be NULL.
	 */
	int (*write)(struct load *ld, const void *buf, size_t len);
	int (*sync)(struct load *ld);
	/*
	 * Moves up to len bytes of a plain image from the input straight to
	 * the output, no copy through memory, and adds them to written: the
	 * bytes moved, 0 when it cannot just now, -1 on error.  May be NULL.
	 */
	ssize_t (*splice)(struct load *ld, size_t len);
	/* Gives an unsized target (zram) its size; may be NULL. */
	int (*resize)(struct load *ld, uint64_t bytes);
	/* One report line, the kernel's words, no newline; may be NULL. */
	void (*say)(struct load *ld, const char *line);
	/* Every 4 MiB handed to write() (queued); may be NULL. */
	void (*progress)(struct load *ld);
	void *in_ctx, *out_ctx;

	uint64_t capacity;		/* bytes the target holds */
	uint64_t start;			/* the image's offset in the input */
	uint64_t input_len;		/* the input's bytes; UINT64_MAX: unknown */
	uint64_t lzma_memlimit;		/* for lzma and xz; 0: no limit */
	uint64_t queued;		/* bytes handed to write() */
	uint64_t written;		/* the only region that changed */
	unsigned char head[RD_HEAD_SIZE]; /* read for identification */
	size_t head_len, head_pos;	/* replayed before further reads */
	unsigned char *in;		/* the engine's buffers (rd_alloc) */
	unsigned char *out, *spare;
	size_t fill;			/* decompressed bytes in out */

	struct ident id;
	uint64_t image_kib;		/* 0: unknown */
	bool head_checked, head_only, verify;
	uint32_t *sums;			/* verify: CRC-32 of each MiB */
	size_t nsums;
	char error[512];		/* the first error */
};

/* The buffers; -1 with ld->error when short of memory. */
int rd_alloc(struct load *ld);
void rd_free(struct load *ld);
/*
 * Reads the head at ld->start and identifies it: "RAMDISK: gzip image
 * found at block N", or the kernel's "Couldn't find valid RAM disk image
 * starting at N." as the error.
 */
int rd_find(struct load *ld);
/* -i: checks what a load would, says the size; writes nothing. */
int rd_report_size(struct load *ld);
/*
 * Loads the identified image: 0, or -1.  Whatever happened, no write is
 * in flight afterwards, and nothing past ld->written changed.
 */
int rd_load(struct load *ld);
/*
 * After a load with ld->verify: reads the target back from fd (path
 * for messages) and compares each MiB's CRC-32, naming the first that
 * differs.
 */
int rd_verify(struct load *ld, int fd, const char *path);
/* "RAMDISK: Loading NKiB [D disks] into ram disk... done." */
void rd_say_done(struct load *ld, int disks);

int rd_fail(struct load *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rd_say(struct load *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
