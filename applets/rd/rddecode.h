/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rdimage.c (the engine) and rddecode.c (its decoders) share: the
 * buffers' sizes, the decoders' input and output, the formats.  Not for
 * commands: they use rdimage.h.
 */
#ifndef RDDECODE_H
#define RDDECODE_H

#include <lz4.h>

#include "rd/rdimage.h"

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

/*
 * One step of a library's decoder: consumes from *in, writes at most
 * *out_len bytes to out and sets *out_len to their number.  Returns 1 at
 * the end of the stream, 0 to go on, -1 on error (ld->error set).
 */
struct codec {
	int (*init)(struct load *ld, void **state);
	int (*step)(struct load *ld, void *state, const unsigned char **in,
		    size_t *in_len, unsigned char *out, size_t *out_len);
	void (*end)(void *state);
};

/* The formats the kernel decompresses, by their magic (rddecode.c). */
extern const struct format rd_formats[];
extern const size_t rd_nformats;
/* Decompresses the identified format's stream into the output. */
int rd_decompress(struct load *ld);

/* Input: the head replayed, then ld->read(); -1 on error. */
ssize_t rd_read(struct load *ld, void *buf, size_t len);
/* Reads len bytes unless the image ends first; -1 on error. */
ssize_t rd_read_full(struct load *ld, void *buf, size_t len);
/* Reads exactly len bytes of compressed data; EOF is an error. */
int rd_read_exact(struct load *ld, void *buf, size_t len);
int rd_fail_eof(struct load *ld);
/* Room for at least need more bytes of output, flushing when short. */
int rd_out_reserve(struct load *ld, size_t need, unsigned char **out);
/* n more bytes decompressed at out + fill. */
int rd_out_commit(struct load *ld, size_t n);

static inline uint32_t get_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

#endif
