// SPDX-License-Identifier: GPL-2.0
/*
 * rddecode: the decoders of the RAM-disk engine, one for every format the
 * kernel decompresses (lib/decompress.c), each writing into the engine's
 * output buffers (rdio.c) as it goes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#include <zstd.h>

#include "rd/rdimage.h"

/* ---- Streaming decoders: zlib, libbz2, liblzma, libzstd ---- */

/*
 * Feeds the decoder until its stream ends.  More input is read only when
 * the decoder used all it had and did not fill the output: a full output
 * may mean it holds more to give without reading.
 */
static int decode_stream(struct load *ld, const struct codec *codec)
{
	const unsigned char *in = NULL;
	size_t in_len = 0, room, n;
	bool out_full = false;
	unsigned char *out;
	void *state;
	ssize_t got;
	int ret, done = 0;

	if (codec->init(ld, &state))
		return -1;
	do {
		if (!in_len && !out_full) {
			got = rd_read(ld, ld->in, IN_CHUNK);
			if (got <= 0) {
				ret = got ? -1 : rd_fail_eof(ld);
				break;
			}
			in = ld->in;
			in_len = got;
		}
		ret = rd_out_reserve(ld, 1, &out);
		if (ret)
			break;
		room = n = WRITE_SIZE - ld->fill;
		done = codec->step(ld, state, &in, &in_len, out, &n);
		if (done < 0) {
			ret = -1;
			break;
		}
		out_full = n == room;
		ret = rd_out_commit(ld, n);
	} while (!ret && !done);
	codec->end(state);
	return ret;
}

static int gzip_init(struct load *ld, void **state)
{
	z_stream *zs = calloc(1, sizeof(*zs));

	/* The kernel finds 1f 9e but its gunzip() refuses it. */
	if (ld->head[1] != 0x8b) {
		free(zs);
		return rd_fail(ld, "RAMDISK: not a gzip file: 1f 9e is the old "
			    "gzip magic, which the kernel finds but does not "
			    "decompress either");
	}
	/* 16 + MAX_WBITS: a gzip member, its CRC checked. */
	if (!zs || inflateInit2(zs, 16 + MAX_WBITS) != Z_OK) {
		free(zs);
		return rd_fail(ld, "out of memory for the gzip decoder");
	}
	*state = zs;
	return 0;
}

static int gzip_step(struct load *ld, void *state, const unsigned char **in,
		     size_t *in_len, unsigned char *out, size_t *out_len)
{
	z_stream *zs = state;
	int ret;

	zs->next_in = (unsigned char *)*in;
	zs->avail_in = *in_len;
	zs->next_out = out;
	zs->avail_out = *out_len;
	ret = inflate(zs, Z_NO_FLUSH);
	*in = zs->next_in;
	*in_len = zs->avail_in;
	*out_len -= zs->avail_out;
	if (ret == Z_STREAM_END)
		return 1;
	/* Z_BUF_ERROR: no input left, and all output already given. */
	if (ret == Z_OK || (ret == Z_BUF_ERROR && !zs->avail_in))
		return 0;
	return rd_fail(ld, "RAMDISK: gzip data corrupt (%s)",
		    zs->msg ? zs->msg : zError(ret));
}

static void gzip_end(void *state)
{
	inflateEnd(state);
	free(state);
}

static const struct codec gzip_codec = { gzip_init, gzip_step, gzip_end };

static int bzip2_init(struct load *ld, void **state)
{
	bz_stream *bz = calloc(1, sizeof(*bz));

	if (!bz || BZ2_bzDecompressInit(bz, 0, 0) != BZ_OK) {
		free(bz);
		return rd_fail(ld, "out of memory for the bzip2 decoder");
	}
	*state = bz;
	return 0;
}

static int bzip2_step(struct load *ld, void *state, const unsigned char **in,
		      size_t *in_len, unsigned char *out, size_t *out_len)
{
	bz_stream *bz = state;
	int ret;

	bz->next_in = (char *)*in;
	bz->avail_in = *in_len;
	bz->next_out = (char *)out;
	bz->avail_out = *out_len;
	ret = BZ2_bzDecompress(bz);
	*in = (const unsigned char *)bz->next_in;
	*in_len = bz->avail_in;
	*out_len -= bz->avail_out;
	if (ret == BZ_STREAM_END)
		return 1;
	if (ret == BZ_OK)
		return 0;
	if (ret == BZ_MEM_ERROR)
		return rd_fail(ld, "RAMDISK: bzip2: out of memory");
	return rd_fail(ld, "RAMDISK: bzip2 data corrupt");
}

static void bzip2_end(void *state)
{
	BZ2_bzDecompressEnd(state);
	free(state);
}

static const struct codec bzip2_codec = { bzip2_init, bzip2_step, bzip2_end };

/*
 * xz: one .xz stream, its blocks decoded in parallel when the compressor
 * wrote several (xz -T); lzma: the legacy "alone" format.
 */
static int lzma_init(struct load *ld, void **state)
{
	uint64_t memlimit = ld->lzma_memlimit ? ld->lzma_memlimit : UINT64_MAX;
	lzma_stream *xz = malloc(sizeof(*xz));
	lzma_mt mt = {
		.threads = sysconf(_SC_NPROCESSORS_ONLN),
		.memlimit_threading = lzma_physmem() / 4,
		.memlimit_stop = memlimit,
	};
	lzma_ret ret;

	if (!xz)
		return rd_fail(ld, "out of memory for the %s decoder",
			    ld->id.format->name);
	*xz = (lzma_stream)LZMA_STREAM_INIT;
	if (mt.threads < 1)
		mt.threads = 1;
	if (!strcmp(ld->id.format->name, "xz"))
		ret = lzma_stream_decoder_mt(xz, &mt);
	else
		ret = lzma_alone_decoder(xz, memlimit);
	if (ret != LZMA_OK) {
		free(xz);
		return rd_fail(ld, "out of memory for the %s decoder",
			    ld->id.format->name);
	}
	*state = xz;
	return 0;
}

static const char *lzma_error(lzma_ret ret)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		return "out of memory";
	case LZMA_MEMLIMIT_ERROR:
		return "needs too much memory";
	case LZMA_FORMAT_ERROR:
		return "not in the format";
	case LZMA_OPTIONS_ERROR:
		return "unsupported options";
	default:
		return "data corrupt";
	}
}

static int lzma_step(struct load *ld, void *state, const unsigned char **in,
		     size_t *in_len, unsigned char *out, size_t *out_len)
{
	lzma_stream *xz = state;
	lzma_ret ret;

	xz->next_in = *in;
	xz->avail_in = *in_len;
	xz->next_out = out;
	xz->avail_out = *out_len;
	ret = lzma_code(xz, LZMA_RUN);
	*in = xz->next_in;
	*in_len = xz->avail_in;
	*out_len -= xz->avail_out;
	if (ret == LZMA_STREAM_END)
		return 1;
	if (ret == LZMA_OK)
		return 0;
	return rd_fail(ld, "RAMDISK: %s %s (liblzma error %d)",
		    ld->id.format->name, lzma_error(ret), ret);
}

static void lzma_free(void *state)
{
	lzma_end(state);
	free(state);
}

static const struct codec lzma_codec = { lzma_init, lzma_step, lzma_free };

static int zstd_init(struct load *ld, void **state)
{
	ZSTD_DStream *zs = ZSTD_createDStream();

	if (!zs)
		return rd_fail(ld, "out of memory for the zstd decoder");
	*state = zs;
	return 0;
}

static int zstd_step(struct load *ld, void *state, const unsigned char **in,
		     size_t *in_len, unsigned char *out, size_t *out_len)
{
	ZSTD_inBuffer src = { *in, *in_len, 0 };
	ZSTD_outBuffer dst = { out, *out_len, 0 };
	size_t ret;

	ret = ZSTD_decompressStream(state, &dst, &src);
	*in += src.pos;
	*in_len -= src.pos;
	*out_len = dst.pos;
	if (ZSTD_isError(ret))
		return rd_fail(ld, "RAMDISK: zstd data corrupt (%s)",
			    ZSTD_getErrorName(ret));
	return ret == 0;	/* 0: the frame is complete */
}

static void zstd_end(void *state)
{
	ZSTD_freeDStream(state);
}

static const struct codec zstd_codec = { zstd_init, zstd_step, zstd_end };

/* ---- Block decoders: the lz4 legacy frame and the lzop file ---- */


/*
 * Magic, then blocks: LE32 compressed size and the data, each block 8 MiB
 * decompressed but the last of a frame.  A repeated magic starts another
 * frame (cat of two files); the end of the image or a zero size (padding)
 * ends it.  The format has no checksum: a short block followed by another
 * is the one sign of damaged data it gives, and the kernel ignores it.
 */
static int unlz4(struct load *ld)
{
	unsigned char word[4], *out;
	int ret, short_block = 0;
	uint32_t size;
	ssize_t n;

	ret = rd_read_exact(ld, word, 4);
	if (ret)
		return ret;
	if (get_le32(word) != LZ4_LEGACY_MAGIC)
		return rd_fail(ld, "RAMDISK: lz4: invalid header: the kernel "
			    "reads the legacy frame format only (lz4 -l)");
	for (;;) {
		n = rd_read_full(ld, word, 4);
		if (n < 0)
			return -1;
		if (n > 0 && n < 4)
			return rd_fail_eof(ld);
		size = n ? get_le32(word) : 0;
		if (!size)
			return 0;
		if (size == LZ4_LEGACY_MAGIC) {
			short_block = 0;
			continue;
		}
		if (size > IN_SIZE)
			return rd_fail(ld, "RAMDISK: lz4 data corrupt (a block of "
				    "%u bytes)", size);
		if (short_block)
			return rd_fail(ld, "RAMDISK: lz4 data corrupt (a block "
				    "short of 8 MiB inside a frame)");
		ret = rd_read_exact(ld, ld->in, size);
		if (!ret)
			ret = rd_out_reserve(ld, LZ4_LEGACY_BLOCK, &out);
		if (ret)
			return ret;
		n = LZ4_decompress_safe((char *)ld->in, (char *)out, size,
					LZ4_LEGACY_BLOCK);
		if (n < 0)
			return rd_fail(ld, "RAMDISK: lz4 data corrupt");
		short_block = n < LZ4_LEGACY_BLOCK;
		ret = rd_out_commit(ld, n);
		if (ret)
			return ret;
	}
}


/*
 * The longest header lzop's format allows: magic 9, version and library
 * version 4, version needed, method, level and flags 8 (a filter is
 * refused before its 4 bytes), mode, mtime, mtime high and name length
 * 13, a name of 255, header checksum 4, extra field length 4.
 */
#define LZOP_HEADER_MAX		(9 + 4 + 8 + 13 + 255 + 4 + 4)

/* buf is allocated apart, so that ASan sees any write past it. */
struct lzop_header {
	unsigned char *buf;	/* LZOP_HEADER_MAX bytes */
	size_t len;
	uint32_t flags;
};

/* Appends n header bytes; returns where they are. */
static unsigned char *lzop_take(struct load *ld, struct lzop_header *h,
				size_t n)
{
	unsigned char *p = h->buf + h->len;

	if (rd_read_exact(ld, p, n))
		return NULL;
	h->len += n;
	return p;
}

static int lzop_skip(struct load *ld, uint32_t len)
{
	size_t n;

	for (; len; len -= n) {
		n = len < IN_CHUNK ? len : IN_CHUNK;
		if (rd_read_exact(ld, ld->in, n))
			return -1;
	}
	return 0;
}

uint32_t rd_lzop_checksum(bool crc, const unsigned char *p, size_t len)
{
	return crc ? crc32_z(0, p, len) : adler32_z(1, p, len);
}

/*
 * The lzop file header, as lzop writes it: magic, version, library
 * version, [version needed, ] method, [level, ] flags, [filter, ] mode,
 * mtime, [mtime high, ] name, checksum, [extra field].
 */
static int lzop_read_header(struct load *ld, struct lzop_header *h)
{
	static const unsigned char magic[9] = {
		0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a };
	unsigned char *p, method;
	bool new_format;
	uint32_t sum;

	if (!(p = lzop_take(ld, h, 9 + 4)))
		return -1;
	if (memcmp(p, magic, 9))
		return rd_fail(ld, "RAMDISK: lzo: invalid header (not lzop)");
	new_format = (p[9] << 8 | p[10]) >= 0x0940;
	if (!(p = lzop_take(ld, h, new_format ? 4 + 4 : 1 + 4)))
		return -1;
	method = p[new_format ? 2 : 0];
	h->flags = get_be32(p + (new_format ? 4 : 1));
	if (method < 1 || method > 3)
		return rd_fail(ld, "RAMDISK: lzo: method %u is not LZO1X", method);
	if (h->flags & LZOP_FILTER)
		return rd_fail(ld, "RAMDISK: lzo: filters are not supported");
	if (!(p = lzop_take(ld, h, 4 + 4 + (new_format ? 4 : 0) + 1)))
		return -1;
	if (!lzop_take(ld, h, p[new_format ? 12 : 8]))
		return -1;
	sum = rd_lzop_checksum(h->flags & LZOP_HEADER_CRC32, h->buf + 9,
			    h->len - 9);
	if (!(p = lzop_take(ld, h, 4)))
		return -1;
	if (get_be32(p) != sum)
		return rd_fail(ld, "RAMDISK: lzo: header checksum error");
	if (!(h->flags & LZOP_EXTRA_FIELD))
		return 0;
	if (!(p = lzop_take(ld, h, 4)))
		return -1;
	return lzop_skip(ld, get_be32(p) + 4);
}

/* Checks the adler32 and crc32 a block carries for data, when flagged. */
static int lzop_verify(struct load *ld, uint32_t flags, uint32_t adler_flag,
		       uint32_t crc_flag, const unsigned char *sums,
		       const unsigned char *data, size_t len)
{
	if (flags & adler_flag) {
		if (get_be32(sums) != rd_lzop_checksum(false, data, len))
			return rd_fail(ld, "RAMDISK: lzo data corrupt (adler32)");
		sums += 4;
	}
	if ((flags & crc_flag) &&
	    get_be32(sums) != rd_lzop_checksum(true, data, len))
		return rd_fail(ld, "RAMDISK: lzo data corrupt (crc32)");
	return 0;
}

static int lzop_count(uint32_t flags, uint32_t mask)
{
	return !!(flags & mask & (LZOP_ADLER32_D | LZOP_ADLER32_C)) +
	       !!(flags & mask & (LZOP_CRC32_D | LZOP_CRC32_C));
}

/*
 * One block: uncompressed and compressed sizes, checksums of the
 * uncompressed data, of the compressed data (only when it is smaller),
 * then the data.  Sets *end at the end marker (size 0).
 */
static int lzop_block(struct load *ld, uint32_t flags, bool *end)
{
	unsigned char sizes[8], sums[16], *out;
	uint32_t dst_len, src_len;
	int nd = lzop_count(flags, LZOP_ADLER32_D | LZOP_CRC32_D), nc = 0;
	lzo_uint got;
	int ret;

	if (rd_read_exact(ld, sizes, 4))
		return -1;
	dst_len = get_be32(sizes);
	*end = !dst_len;
	if (*end)
		return 0;
	if (rd_read_exact(ld, sizes + 4, 4))
		return -1;
	src_len = get_be32(sizes + 4);
	if (dst_len > OUT_SIZE || !src_len || src_len > dst_len)
		return rd_fail(ld, "RAMDISK: lzo data corrupt (block of %u bytes "
			    "from %u)", dst_len, src_len);
	if (src_len < dst_len)
		nc = lzop_count(flags, LZOP_ADLER32_C | LZOP_CRC32_C);
	if (rd_read_exact(ld, sums, 4 * (nd + nc)) ||
	    rd_read_exact(ld, ld->in, src_len))
		return -1;
	if (nc && lzop_verify(ld, flags, LZOP_ADLER32_C, LZOP_CRC32_C,
			      sums + 4 * nd, ld->in, src_len))
		return -1;
	ret = rd_out_reserve(ld, dst_len, &out);
	if (ret)
		return ret;
	got = dst_len;
	if (src_len == dst_len)
		memcpy(out, ld->in, dst_len);
	else if (lzo1x_decompress_safe(ld->in, src_len, out, &got, NULL) !=
		 LZO_E_OK || got != dst_len)
		return rd_fail(ld, "RAMDISK: lzo data corrupt");
	if (lzop_verify(ld, flags, LZOP_ADLER32_D, LZOP_CRC32_D, sums, out,
			dst_len))
		return -1;
	return rd_out_commit(ld, dst_len);
}

static int unlzo(struct load *ld)
{
	struct lzop_header h = { .buf = malloc(LZOP_HEADER_MAX) };
	bool end = false;
	int ret;

	if (!h.buf)
		return rd_fail(ld, "out of memory for the lzo header");
	if (lzo_init() != LZO_E_OK)
		ret = rd_fail(ld, "liblzo2 does not work here");
	else
		ret = lzop_read_header(ld, &h);
	while (!ret && !end)
		ret = lzop_block(ld, h.flags, &end);
	free(h.buf);
	return ret;
}

/* ---- The formats, as lib/decompress.c lists them ---- */

int rd_decompress(struct load *ld)
{
	const struct format *f = ld->id.format;

	return f->codec ? decode_stream(ld, f->codec) : f->decompress(ld);
}


/* lib/decompress.c's table; 1f 9e (old gzip) is found but not inflated. */
const struct format rd_formats[] = {
	{ { 0x1f, 0x8b }, "gzip", &gzip_codec, NULL },
	{ { 0x1f, 0x9e }, "gzip", &gzip_codec, NULL },
	{ { 0x42, 0x5a }, "bzip2", &bzip2_codec, NULL },
	{ { 0x5d, 0x00 }, "lzma", &lzma_codec, NULL },
	{ { 0xfd, 0x37 }, "xz", &lzma_codec, NULL },
	{ { 0x89, 0x4c }, "lzo", NULL, unlzo },
	{ { 0x02, 0x21 }, "lz4", NULL, unlz4 },
	{ { 0x28, 0xb5 }, "zstd", &zstd_codec, NULL },
};

const size_t rd_nformats = sizeof(rd_formats) / sizeof(rd_formats[0]);
