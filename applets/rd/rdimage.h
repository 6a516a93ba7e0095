/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the RAM-disk engine (rd.h is its public face).  Its layers, each
 * calling only those above it in this list:
 *   rdfs.c      the filesystems identify_ramdisk_image() knows
 *   rdio.c      input with the head replayed, output buffers, errors
 *   rddecode.c  a decoder for every format the kernel decompresses
 *   rdimage.c   an image found, loaded, verified (struct load)
 *   blkspan.c   where a file's or a device's bytes lie (blkspan.h)
 *   rdvolume.c  the volumes of an image read as one stream
 *   rdtarget.c  the target: opened, sized, written by a thread
 *   rdjob.c     rd.h: the volumes and the target put together
 * Input, output and messages are callbacks of struct load, so that the
 * unit test and the fuzz target drive the same code as the commands.
 */
#ifndef RDIMAGE_H
#define RDIMAGE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <lz4.h>

#include "core/disk.h"
#include "rd/blkspan.h"
#include "rd/rd.h"

#define RD_HEAD_SIZE	(3 * 512)	/* identification looks at no more */
#define RD_STOP		1		/* head seen, -i wants no more */

/* The filesystems' magic numbers (ext2's: core/disk.h). */
#define CRAMFS_MAGIC	0x28cd3d45
#define SQUASHFS_MAGIC	0x73717368
#define MINIX_MAGIC	0x137f
#define MINIX_MAGIC2	0x138f

/*
 * The fuzz build (tests/rdload_fuzz.t) shrinks the buffers, so that its
 * inputs of a few dozen KiB reach their ends.  WRITE_SIZE must hold the
 * head, OUT_SIZE the biggest block.
 */
#ifdef RDLOAD_SMALL_BUFFERS
#define OUT_SIZE	(64 << 10)
#define WRITE_SIZE	(4 << 10)
#define IN_CHUNK	(4 << 10)
#else
#define OUT_SIZE	(8 << 20)	/* the biggest lz4 and lzop block */
#define WRITE_SIZE	(512 << 10)	/* one write: fits a core's L2 cache */
#define IN_CHUNK	(1 << 20)	/* one read of compressed data */
#endif
#define IN_SIZE		LZ4_COMPRESSBOUND(OUT_SIZE)
#define VERIFY_SPAN	(1 << 20)	/* verify sums each MiB apart */

struct load;

/*
 * One step of a library's decoder: consumes from *in, writes at most
 * *out_len bytes to out and sets *out_len to their number.  Returns 1 at
 * the end of the stream, 0 to go on, -1 on error (ld->err set).
 */
struct codec {
	int (*init)(struct load *ld, void **state);
	int (*step)(struct load *ld, void *state, const unsigned char **in,
		    size_t *in_len, unsigned char *out, size_t *out_len);
	void (*end)(void *state);
};

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
	 * return 0, or -1 with ld->err.  sync() may be NULL.
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
	struct kit_err err;		/* the first error */
};

static inline uint64_t bytes_to_kib(uint64_t bytes)
{
	return bytes / RD_BLOCK + (bytes % RD_BLOCK != 0);
}

/* rdfs.c: a filesystem at 0 of head (RD_HEAD_SIZE bytes), as the kernel
 * finds it; its size in KiB as the kernel computes it. */
bool rd_identify_fs(const unsigned char *head, struct ident *id);

/* rdio.c */
/* kit_fail() into ld->err, where the first error wins; returns -1. */
int rd_fail(struct load *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rd_say(struct load *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Input: the head replayed, then ld->read(); -1 on error. */
ssize_t rd_read(struct load *ld, void *buf, size_t len);
/* Reads len bytes unless the image ends first; -1 on error. */
ssize_t rd_read_full(struct load *ld, void *buf, size_t len);
/* Reads exactly len bytes of compressed data; EOF is an error. */
int rd_read_exact(struct load *ld, void *buf, size_t len);
int rd_fail_eof(struct load *ld);
/*
 * Before anything is written: the size the image will have, when known,
 * must fit; an unsized target (zram) gets that size.
 */
int rd_fit_target(struct load *ld, uint64_t kib);
/* Room for at least need more bytes of output, flushing when short. */
int rd_out_reserve(struct load *ld, size_t need, unsigned char **out);
/* n more bytes decompressed at out + fill. */
int rd_out_commit(struct load *ld, size_t n);
/* Hands the buffer to write() and goes on in the spare one. */
int rd_out_flush(struct load *ld);
/* Every 4 MiB, for the command's progress line. */
void rd_show_progress(struct load *ld, uint64_t before);
/*
 * --verify: the CRC-32 of each MiB as it goes to the target (at offset
 * queued), so that reading back can name the first MiB that differs.
 */
int rd_sum_written(struct load *ld, const unsigned char *p, size_t len);

/* rddecode.c: the formats the kernel decompresses, by their magic. */
#define LZ4_LEGACY_MAGIC	0x184c2102
#define LZ4_LEGACY_BLOCK	OUT_SIZE	/* 8 MiB but in the fuzz build */
/* lzop's header flags that matter here. */
#define LZOP_ADLER32_D		0x0001
#define LZOP_ADLER32_C		0x0002
#define LZOP_EXTRA_FIELD	0x0040
#define LZOP_CRC32_D		0x0100
#define LZOP_CRC32_C		0x0200
#define LZOP_FILTER		0x0800
#define LZOP_HEADER_CRC32	0x1000

extern const struct format rd_formats[];
extern const size_t rd_nformats;
/* Decompresses the identified format's stream into the output. */
int rd_decompress(struct load *ld);
/* An lzop checksum: CRC-32 (crc) or Adler-32, as the flags choose. */
uint32_t rd_lzop_checksum(bool crc, const unsigned char *p, size_t len);

/* rdimage.c.  A caller sets the callbacks and start, then:
 *   rd_alloc(ld); rd_find(ld);        the head read, identified, reported
 *   rd_report_size(ld)                -i: what a load would do, no writes
 *   rd_load_image(ld); rd_verify(...) the load, and reading it back
 *   rd_say_done(ld, disks); rd_free(ld);
 * Errors: -1, with the first error's text in ld->err. */
/* The buffers; -1 with ld->err when short of memory. */
int rd_alloc(struct load *ld);
void rd_free(struct load *ld);
/* The first bytes from the start, as the kernel reads: 0xe5 past the end. */
int rd_read_head(struct load *ld);
/* A compressed format by its magic, else a filesystem (rdfs.c). */
bool rd_identify_head(const unsigned char *head, struct ident *id);
/*
 * Reads the head at ld->start and identifies it: "RAMDISK: gzip image
 * found at block N", or the kernel's "Couldn't find valid RAM disk image
 * starting at N." as the error.
 */
int rd_find(struct load *ld);
/* -i: checks what a load would, says the size; writes nothing. */
int rd_report_size(struct load *ld);
/*
 * Loads the identified image: 0, RD_STOP when only the head was wanted
 * (ld->head_only), or -1.  Whatever happened, no write is in flight
 * afterwards, and nothing past ld->written changed.
 */
int rd_load_image(struct load *ld);
/*
 * After a load with ld->verify: reads the target back from fd (path
 * for messages) and compares each MiB's CRC-32, naming the first that
 * differs.
 */
int rd_verify(struct load *ld, int fd, const char *path);
/* "RAMDISK: Loading NKiB [D disks] into ram disk... done." */
void rd_say_done(struct load *ld, int disks);

/* rdvolume.c: the volumes of an image, read one after another. */
struct volumes {
	struct rd_job *job;		/* paths, count, prompt, ask() */
	int opened;
	int fd;				/* the volume being read, or -1 */
	const char *target_path;	/* NULL: -i, no target */
	struct stat target_st;		/* st_mode 0: none yet */
	struct blkspans target;		/* never read a volume sharing a byte */
};

/*
 * Before anything is written, each volume that is there: data to read,
 * not the target, nor sharing storage with it.  Sets ld->read and
 * ld->input_len (the bytes the volumes hold together, UINT64_MAX when
 * unknown).  0, or -1 with ld->err.
 */
int rd_volumes_check(struct load *ld, struct volumes *v);
/* Where the target's bytes lie, from st: no volume may share them. */
int rd_volumes_target(struct load *ld, struct volumes *v,
		      const struct stat *st);
/* After the load: every volume was read. */
int rd_volumes_finish(struct load *ld, const struct volumes *v);
void rd_volumes_free(struct volumes *v);

/*
 * rdtarget.c: the target.  A compressed image's is written by a thread
 * of its own, so that decompressing the next buffer and writing the last
 * one overlap, as in a pipe to dd.  A plain copy is faster without: its
 * buffers stay in the cache of the one core that reads and writes them.
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
	bool created;		/* a new file, made by this load (-f) */
};

/*
 * Opens t->path for ld: its capacity, write() and sync(); a regular file
 * only with allow_file; a missing /dev/ramN made.  0, or -1 with
 * ld->err.
 */
int rd_target_open(struct load *ld, struct target *t, bool allow_file);
/* Writes go through a thread of their own from now on. */
int rd_target_thread(struct load *ld, struct target *t);
/* A file the load created (-f NEW) removed, when it failed: a refusal
 * leaves nothing behind.  True when it was. */
bool rd_target_remove_new(struct target *t);
/* After the load: flushed to the device, and read back with --verify. */
int rd_target_finish(struct load *ld, struct target *t);
/*
 * After a failed load: a zram that the load sized is put back unsized.
 * -1 with errno when it cannot be.
 */
int rd_target_unsize(struct target *t);
void rd_target_close(struct target *t);

#endif
