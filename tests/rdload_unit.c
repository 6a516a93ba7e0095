// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rdload: identification as identify_ramdisk_image() does
 * it, on superblocks built here; every decoder on images compressed here
 * with the same libraries (lzop and lz4 legacy framing built by hand, to
 * reach the flags the tools rarely write); truncation, corruption and a
 * small target, checking that only the region reported written changed.
 * Prints PASS:/FAIL: lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#include <zstd.h>

#include "rd/rdimage.h"
#include "rdload_mem.h"
#include "unit.h"


static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* ---- Identification ---- */

static const char *identify_name(const unsigned char *head, uint64_t *kib)
{
	static struct ident id;

	if (!rd_identify_head(head, &id))
		return "none";
	*kib = id.kib;
	return id.format ? id.format->name : id.fs;
}

static void check_ident(const unsigned char *head, const char *name,
			uint64_t kib, const char *test)
{
	uint64_t got = 0;

	check(test, !strcmp(identify_name(head, &got), name) && got == kib);
}

static void test_identify(void)
{
	static const unsigned char magics[][2] = {
		{ 0x1f, 0x8b }, { 0x1f, 0x9e }, { 0x42, 0x5a },
		{ 0x5d, 0x00 }, { 0xfd, 0x37 }, { 0x89, 0x4c },
		{ 0x02, 0x21 }, { 0x28, 0xb5 } };
	static const char *const names[] = {
		"gzip", "gzip", "bzip2", "lzma", "xz", "lzo", "lz4", "zstd" };
	unsigned char head[RD_HEAD_SIZE];
	uint32_t v;
	size_t i;

	for (i = 0; i < 8; i++) {
		memset(head, 0, sizeof(head));
		memcpy(head, magics[i], 2);
		/* An ext2 superblock behind: the compressed magic wins. */
		put_le32(head + RD_BLOCK + 0x38, EXT2_MAGIC);
		put_le32(head + RD_BLOCK + 4, 100);
		check_ident(head, names[i], 0, names[i]);
	}

	memset(head, 0, sizeof(head));
	memcpy(head, "-rom1fs-", 8);
	put_be32(head + 8, 1025);
	check_ident(head, "romfs", 2, "romfs: big-endian size, rounded up");

	memset(head, 0, sizeof(head));
	v = CRAMFS_MAGIC;
	memcpy(head, &v, 4);
	v = 4096;
	memcpy(head + 4, &v, 4);
	check_ident(head, "cramfs", 4, "cramfs: host-endian magic and size");
	memmove(head + 512, head, 512);
	memset(head, 0, 512);
	check_ident(head, "cramfs", 4, "cramfs padded by 512 bytes");

	memset(head, 0, sizeof(head));
	put_le32(head, SQUASHFS_MAGIC);
	put_le32(head + 40, 1);
	put_le32(head + 44, 1);
	check_ident(head, "squashfs", ((1ULL << 32) + 1 + 1023) / 1024,
		    "squashfs: 64-bit bytes_used");

	/* romfs comes before squashfs, squashfs before padded cramfs. */
	memcpy(head, "-rom1fs-", 8);
	put_be32(head + 8, 2048);
	check_ident(head, "romfs", 2, "romfs is checked before squashfs");
	memset(head, 0, sizeof(head));
	put_le32(head, SQUASHFS_MAGIC);
	v = CRAMFS_MAGIC;
	memcpy(head + 512, &v, 4);
	check_ident(head, "squashfs", 0, "squashfs before padded cramfs");

	memset(head, 0, sizeof(head));
	head[RD_BLOCK + 16] = MINIX_MAGIC2 & 0xff;
	head[RD_BLOCK + 17] = MINIX_MAGIC2 >> 8;
	head[RD_BLOCK + 2] = 100;		/* s_nzones */
	head[RD_BLOCK + 10] = 1;		/* s_log_zone_size */
	check_ident(head, "Minix", 200, "minix: nzones << log_zone_size");
	head[RD_BLOCK + 16] = MINIX_MAGIC & 0xff;
	head[RD_BLOCK + 17] = MINIX_MAGIC >> 8;
	check_ident(head, "Minix", 200, "minix: 14-character magic");

	memset(head, 0, sizeof(head));
	head[RD_BLOCK + 0x38] = 0x53;
	head[RD_BLOCK + 0x39] = 0xef;
	put_le32(head + RD_BLOCK + 4, 1000);
	put_le32(head + RD_BLOCK + 0x18, 2);
	check_ident(head, "ext2", 4000, "ext2/3/4: blocks << log_block_size");
	put_le32(head + RD_BLOCK + 0x18, 200);
	check_ident(head, "ext2", UINT64_MAX,
		    "ext2: absurd block size saturates, no overflow");

	memset(head, 0xe5, sizeof(head));
	check_ident(head, "none", 0, "nothing found in 0xe5 filler");
}

/*
 * Each kind of image the kernel finds, placed where it looks, in
 * identify_ramdisk_image()'s order; a size of 1 KiB wherever it has one.
 */
static void put_gzip(unsigned char *h) { memcpy(h, "\x1f\x8b", 2); }

static void put_romfs(unsigned char *h)
{
	memcpy(h, "-rom1fs-", 8);
	put_be32(h + 8, RD_BLOCK);
}

static void put_cramfs_at(unsigned char *h)
{
	uint32_t v[2] = { CRAMFS_MAGIC, RD_BLOCK };

	memcpy(h, v, sizeof(v));
}

static void put_cramfs(unsigned char *h) { put_cramfs_at(h); }

static void put_squashfs(unsigned char *h)
{
	put_le32(h, SQUASHFS_MAGIC);
	put_le32(h + 40, RD_BLOCK);
}

static void put_cramfs_padded(unsigned char *h) { put_cramfs_at(h + 512); }

static void put_minix(unsigned char *h)
{
	uint16_t v[] = { MINIX_MAGIC, 1 };

	memcpy(h + RD_BLOCK + 16, &v[0], 2);
	memcpy(h + RD_BLOCK + 2, &v[1], 2);
}

static void put_ext2(unsigned char *h)
{
	put_le32(h + RD_BLOCK + 0x38, EXT2_MAGIC);
	put_le32(h + RD_BLOCK + 4, 1);
}

static const struct placement {
	const char *name;
	void (*put)(unsigned char *head);
} placements[] = {
	{ "gzip", put_gzip },
	{ "romfs", put_romfs },
	{ "cramfs", put_cramfs },
	{ "squashfs", put_squashfs },
	{ "cramfs", put_cramfs_padded },
	{ "Minix", put_minix },
	{ "ext2", put_ext2 },
};

/*
 * Every pair that fits in one head together (their bytes do not
 * overlap) is found as the earlier of the two, whichever was put last.
 */
static void test_identify_order(void)
{
	const size_t n = sizeof(placements) / sizeof(placements[0]);
	unsigned char head[RD_HEAD_SIZE], one[RD_HEAD_SIZE], other[RD_HEAD_SIZE];
	size_t i, j, k, pairs = 0;
	bool ok = true, apart;
	uint64_t kib;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			memset(one, 0, sizeof(one));
			memset(other, 0, sizeof(other));
			placements[i].put(one);
			placements[j].put(other);
			apart = true;
			for (k = 0; k < RD_HEAD_SIZE; k++)
				apart &= !one[k] || !other[k];
			if (!apart)
				continue;
			for (k = 0; k < RD_HEAD_SIZE; k++)
				head[k] = one[k] | other[k];
			pairs++;
			if (strcmp(identify_name(head, &kib),
				   placements[i].name)) {
				printf("    %s and %s: found %s\n",
				       placements[i].name, placements[j].name,
				       identify_name(head, &kib));
				ok = false;
			}
		}
	}
	check("every pair of images in one head: the kernel's order decides "
	      "(minix before ext2, ...)", ok && pairs == 15);
}

/* ---- Images: a fake ext2 image and its compressed forms ---- */

#define IMAGE_KIB	3000	/* several writes, an odd size */

static unsigned char *make_ext2(size_t kib, size_t *len)
{
	unsigned char *p = calloc(kib, RD_BLOCK);
	uint32_t x = 12345;
	size_t i;

	if (!p)
		abort();
	/* Halves of noise and of zeros: some blocks compress, some not. */
	for (i = 0; i < kib * RD_BLOCK / 2; i++) {
		x = x * 1103515245 + 12345;
		p[i] = x >> 16;
	}
	memset(p, 0, 2 * RD_BLOCK);
	put_le32(p + RD_BLOCK + 0x38, EXT2_MAGIC);
	put_le32(p + RD_BLOCK + 4, kib);
	*len = kib * RD_BLOCK;
	return p;
}

static unsigned char *gzip_image(const unsigned char *in, size_t len,
				 size_t *out_len)
{
	z_stream zs = { 0 };
	size_t size = compressBound(len) + 64;
	unsigned char *out = malloc(size);

	if (!out || deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	zs.next_in = (unsigned char *)in;
	zs.avail_in = len;
	zs.next_out = out;
	zs.avail_out = size;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		abort();
	*out_len = zs.total_out;
	deflateEnd(&zs);
	return out;
}

static unsigned char *bzip2_image(const unsigned char *in, size_t len,
				  size_t *out_len)
{
	unsigned int size = len + len / 100 + 600;
	unsigned char *out = malloc(size);

	if (!out || BZ2_bzBuffToBuffCompress((char *)out, &size, (char *)in,
					     len, 9, 0, 0) != BZ_OK)
		abort();
	*out_len = size;
	return out;
}

static unsigned char *lzma_image(const unsigned char *in, size_t len,
				 size_t *out_len, bool xz)
{
	lzma_stream s = LZMA_STREAM_INIT;
	size_t size = len + len / 2 + 4096;
	unsigned char *out = malloc(size);
	lzma_options_lzma opt;

	if (!out || lzma_lzma_preset(&opt, 6))
		abort();
	if (xz ? lzma_easy_encoder(&s, 6, LZMA_CHECK_CRC32) :
		 lzma_alone_encoder(&s, &opt))
		abort();
	s.next_in = in;
	s.avail_in = len;
	s.next_out = out;
	s.avail_out = size;
	if (lzma_code(&s, LZMA_FINISH) != LZMA_STREAM_END)
		abort();
	*out_len = s.total_out;
	lzma_end(&s);
	return out;
}

static unsigned char *xz_image(const unsigned char *in, size_t len,
			       size_t *out_len)
{
	return lzma_image(in, len, out_len, true);
}

static unsigned char *lzma_alone_image(const unsigned char *in, size_t len,
				       size_t *out_len)
{
	return lzma_image(in, len, out_len, false);
}

static unsigned char *zstd_image(const unsigned char *in, size_t len,
				 size_t *out_len)
{
	size_t size = ZSTD_compressBound(len);
	unsigned char *out = malloc(size);

	if (!out)
		abort();
	*out_len = ZSTD_compress(out, size, in, len, 3);
	if (ZSTD_isError(*out_len))
		abort();
	return out;
}

/*
 * The legacy frame in blocks of block bytes (8 MiB as lz4 -l writes them),
 * the magic repeated after the first block when new_frame is set.
 */
static unsigned char *lz4_frames(const unsigned char *in, size_t len,
				 size_t *out_len, size_t block, int new_frame)
{
	size_t size = 8 + LZ4_compressBound(len) + 8 * (len / block + 2);
	unsigned char *out = malloc(size), *p = out;
	size_t i, n;
	int c;

	if (!out)
		abort();
	put_le32(p, LZ4_LEGACY_MAGIC);
	p += 4;
	for (i = 0; i < len; i += n) {
		n = len - i < block ? len - i : block;
		if (new_frame && i && i / block == 1) {
			put_le32(p, LZ4_LEGACY_MAGIC);
			p += 4;
		}
		c = LZ4_compress_default((const char *)in + i, (char *)p + 4,
					 n, LZ4_compressBound(n));
		if (c <= 0)
			abort();
		put_le32(p, c);
		p += 4 + c;
	}
	*out_len = p - out;
	return out;
}

static unsigned char *lz4_image(const unsigned char *in, size_t len,
				size_t *out_len)
{
	return lz4_frames(in, len, out_len, LZ4_LEGACY_BLOCK, 0);
}

/*
 * lzop: flags and name length chosen by the test; blocks of 256 KiB as
 * lzop writes.
 */
static uint32_t lzop_flags = LZOP_ADLER32_D;
static unsigned char lzop_name_len = 3;

static unsigned char *lzop_put_header(unsigned char *p, uint32_t flags)
{
	static const unsigned char magic[9] = {
		0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a };
	unsigned char *start;

	memcpy(p, magic, 9);
	p += 9;
	start = p;
	/* version 1.030, lib 2.080, needed 0.940, method 1, level 5 */
	memcpy(p, "\x10\x30\x20\x80\x09\x40\x01\x05", 8);
	p += 8;
	put_be32(p, flags);
	put_be32(p + 4, 0100644);	/* mode */
	put_be32(p + 8, 0);		/* mtime */
	put_be32(p + 12, 0);
	p[16] = lzop_name_len;
	memset(p + 17, 'n', lzop_name_len);
	p += 17 + lzop_name_len;
	put_be32(p, rd_lzop_checksum(flags & LZOP_HEADER_CRC32, start,
				  p - start));
	p += 4;
	if (flags & LZOP_EXTRA_FIELD) {
		put_be32(p, 5);
		memcpy(p + 4, "extra", 5);
		put_be32(p + 9, 0);
		p += 13;
	}
	return p;
}

static unsigned char *lzop_put_sums(unsigned char *p, uint32_t flags,
				    uint32_t adler, uint32_t crc,
				    const unsigned char *data, size_t len)
{
	if (flags & adler) {
		put_be32(p, rd_lzop_checksum(false, data, len));
		p += 4;
	}
	if (flags & crc) {
		put_be32(p, rd_lzop_checksum(true, data, len));
		p += 4;
	}
	return p;
}

static unsigned char *lzop_image(const unsigned char *in, size_t len,
				 size_t *out_len)
{
	static unsigned char work[LZO1X_1_MEM_COMPRESS];
	size_t size = len + len / 16 + 64 * (len / (256 << 10) + 2) + 512;
	unsigned char *out = malloc(size), *p, *c = malloc(300 << 10);
	lzo_uint clen;
	size_t i, n;

	if (!out || !c || lzo_init() != LZO_E_OK)
		abort();
	p = lzop_put_header(out, lzop_flags);
	for (i = 0; i < len; i += n) {
		n = len - i < (256 << 10) ? len - i : 256 << 10;
		if (lzo1x_1_compress(in + i, n, c, &clen, work) != LZO_E_OK)
			abort();
		if (clen >= n) {	/* stored, as lzop does */
			clen = n;
			memcpy(c, in + i, n);
		}
		put_be32(p, n);
		put_be32(p + 4, clen);
		p = lzop_put_sums(p + 8, lzop_flags, LZOP_ADLER32_D,
				  LZOP_CRC32_D, in + i, n);
		if (clen < n)
			p = lzop_put_sums(p, lzop_flags, LZOP_ADLER32_C,
					  LZOP_CRC32_C, c, clen);
		memcpy(p, c, clen);
		p += clen;
	}
	put_be32(p, 0);
	*out_len = p + 4 - out;
	free(c);
	return out;
}

struct codec_case {
	const char *name;
	unsigned char *(*make)(const unsigned char *in, size_t len,
			       size_t *out_len);
};

static const struct codec_case cases[] = {
	{ "gzip", gzip_image },
	{ "bzip2", bzip2_image },
	{ "lzma", lzma_alone_image },
	{ "xz", xz_image },
	{ "lzo", lzop_image },
	{ "lz4", lz4_image },
	{ "zstd", zstd_image },
};

/* ---- Loading from memory ---- */

#define CANARY 0xa5

struct run {
	int ret;
	uint64_t written;
	const char *error;
	bool intact;		/* nothing changed past written */
	bool prefix;		/* what was written is the image's start */
	uint64_t image_kib;
};

static uint64_t start_offset;	/* -s START of the next run_load() */

/* Loads data into a target of capacity bytes (plus a canary area). */
static struct run run_load(const unsigned char *data, size_t len,
			   size_t chunk, uint64_t capacity,
			   const unsigned char *want, size_t want_len)
{
	static struct load ld;
	struct mem_image image = { data, len, 0, chunk };
	struct mem_target target = { malloc(capacity + 4096) };
	struct run r;
	size_t i;

	if (!target.data)
		abort();
	memset(target.data, CANARY, capacity + 4096);
	mem_setup(&ld, &image, &target, capacity);
	ld.start = start_offset;
	r.ret = mem_load(&ld);
	r.written = ld.written;
	r.error = ld.err.msg;
	r.image_kib = ld.image_kib;
	r.intact = true;
	for (i = ld.written; i < capacity + 4096; i++)
		r.intact &= target.data[i] == CANARY;
	r.prefix = ld.written <= want_len &&
		   !memcmp(target.data, want, ld.written);
	free(target.data);
	return r;
}

static void check_run(struct run r, bool ok, const char *what,
		      const char *name)
{
	char test[200];

	snprintf(test, sizeof(test), "%s: %s", name, what);
	if (!ok)
		printf("    ret %d, %llu bytes written, error: %s\n", r.ret,
		       (unsigned long long)r.written, r.error);
	check(test, ok && r.intact && r.prefix);
}

static void test_codec(const struct codec_case *c, const unsigned char *img,
		       size_t len)
{
	size_t zlen, cut;
	unsigned char *z = c->make(img, len, &zlen);
	struct run r;

	r = run_load(z, zlen, 0, len, img, len);
	check_run(r, r.ret == 0 && r.written == len, "loads byte for byte",
		  c->name);
	r = run_load(z, zlen, 7, len, img, len);
	check_run(r, r.ret == 0 && r.written == len,
		  "loads from 7-byte reads (volume seams anywhere)", c->name);
	r = run_load(z, zlen, 0, len - RD_BLOCK, img, len);
	check_run(r, r.ret < 0 && r.written == 0 &&
		  strstr(r.error, "image too big! (3000KiB/2999KiB)"),
		  "refused before writing when the filesystem is too big",
		  c->name);
	for (cut = 1; cut < zlen; cut += zlen / 5 + 1) {
		r = run_load(z, cut, 0, len, img, len);
		check_run(r, r.ret < 0 && r.written < len,
			  "truncated: an error, only the start written",
			  c->name);
	}
	free(z);
}

/* A stream of zeros: a small input ends while output is still pending. */
static void test_pending_output(void)
{
	size_t len = 20 << 20, zlen, i;
	unsigned char *zeros = calloc(1, len), *z;
	struct run r;

	put_le32(zeros + RD_BLOCK + 0x38, EXT2_MAGIC);
	put_le32(zeros + RD_BLOCK + 4, len / RD_BLOCK);
	for (i = 0; i < 3; i++) {
		z = cases[i * 3].make(zeros, len, &zlen);
		r = run_load(z, zlen, 1, len, zeros, len);
		check_run(r, r.ret == 0 && r.written == len,
			  "all output given out, read a byte at a time",
			  cases[i * 3].name);
		free(z);
	}
	free(zeros);
}

/* Unknown content: bounded by the target, whatever its size. */
static void test_unknown_size(const unsigned char *img, size_t len)
{
	unsigned char *raw = malloc(len), *z;
	size_t zlen;
	struct run r;

	memcpy(raw, img, len);
	memset(raw + RD_BLOCK, 0, RD_BLOCK);	/* no superblock */
	z = xz_image(raw, len, &zlen);
	r = run_load(z, zlen, 0, len / 2, raw, len);
	check_run(r, r.ret < 0 && r.written <= len / 2 &&
		  strstr(r.error, "image too big! (more than"),
		  "unknown size: stops at the end of the target", "xz");
	r = run_load(z, zlen, 0, len, raw, len);
	check_run(r, r.ret == 0 && r.written == len && !r.image_kib,
		  "unknown size: loads when it fits", "xz");
	free(z);
	free(raw);
}

static void test_corrupt(const unsigned char *img, size_t len)
{
	static const struct codec_case *const checked[] = {
		&cases[0], &cases[1], &cases[3], &cases[4] };
	unsigned char *z;
	size_t zlen, i;
	struct run r;

	for (i = 0; i < 4; i++) {
		z = checked[i]->make(img, len, &zlen);
		z[zlen / 2] ^= 0x10;
		r = run_load(z, zlen, 0, len, img, len);
		/* Checksums end blocks: bad data may be written first. */
		r.prefix = true;
		check_run(r, r.ret < 0, "a flipped bit is an error",
			  checked[i]->name);
		free(z);
	}
}

static void test_lzop_flags(const unsigned char *img, size_t len)
{
	static const uint32_t flag_sets[] = {
		0,
		LZOP_ADLER32_D | LZOP_ADLER32_C,
		LZOP_CRC32_D | LZOP_CRC32_C | LZOP_HEADER_CRC32,
		LZOP_ADLER32_D | LZOP_CRC32_D | LZOP_ADLER32_C | LZOP_CRC32_C |
		LZOP_EXTRA_FIELD,
	};
	unsigned char *z;
	size_t zlen, i;
	struct run r;

	for (i = 0; i < 4; i++) {
		lzop_flags = flag_sets[i];
		z = lzop_image(img, len, &zlen);
		r = run_load(z, zlen, 0, len, img, len);
		check_run(r, r.ret == 0 && r.written == len,
			  "checksum and header flags", "lzo");
		free(z);
	}
	lzop_flags = LZOP_CRC32_D | LZOP_CRC32_C;
	z = lzop_image(img, len, &zlen);
	z[zlen - 100] ^= 1;	/* in the last block: zeros, compressed */
	r = run_load(z, zlen, 0, len, img, len);
	check_run(r, r.ret < 0 && strstr(r.error, "crc32"),
		  "a bad crc32 of compressed data is found", "lzo");
	z[zlen - 100] ^= 1;
	z[1000] ^= 1;		/* in the first block: noise, stored */
	r = run_load(z, zlen, 0, len, img, len);
	check_run(r, r.ret < 0 && r.written == 0 && strstr(r.error, "crc32"),
		  "a bad crc32 of stored data is found, nothing written",
		  "lzo");
	z[1000] ^= 1;
	z[20] ^= 1;		/* in the header */
	r = run_load(z, zlen, 0, len, img, len);
	check_run(r, r.ret < 0 && r.written == 0 &&
		  strstr(r.error, "header checksum"),
		  "a bad header checksum is found", "lzo");
	z[20] ^= 1;
	free(z);
	/* The longest header: a 255-byte name and an extra field. */
	lzop_flags = LZOP_EXTRA_FIELD | LZOP_HEADER_CRC32;
	lzop_name_len = 255;
	z = lzop_image(img, len, &zlen);
	r = run_load(z, zlen, 0, len, img, len);
	check_run(r, r.ret == 0 && r.written == len,
		  "a 255-byte name and an extra field (the longest header)",
		  "lzo");
	lzop_name_len = 3;
	put_be32(z + 17, get_be32(z + 17) | LZOP_FILTER);
	r = run_load(z, zlen, 0, len, img, len);
	check_run(r, r.ret < 0 && strstr(r.error, "filter"),
		  "filters are refused", "lzo");
	free(z);
	lzop_flags = LZOP_ADLER32_D;
}

static void test_lz4_frames(void)
{
	size_t len, zlen;
	/* Two full blocks and a short one: frames as lz4 -l writes them. */
	unsigned char *img = make_ext2(2 * 8192 + 1000, &len);
	unsigned char *z = lz4_frames(img, len, &zlen, LZ4_LEGACY_BLOCK, 1);
	unsigned char *big = malloc(zlen + 8);
	struct run r;

	memcpy(big, z, zlen);
	r = run_load(big, zlen, 0, len, img, len);
	check_run(r, r.ret == 0 && r.written == len,
		  "8 MiB blocks, the magic repeated: one stream", "lz4");
	put_le32(big + zlen, 0);	/* padding after the stream */
	r = run_load(big, zlen + 8, 0, len, img, len);
	check_run(r, r.ret == 0 && r.written == len,
		  "zero padding after the frame ends it", "lz4");
	free(big);
	big = calloc(1, zlen + 4 + IN_SIZE + 1);
	memcpy(big, z, zlen);
	put_le32(big + zlen, IN_SIZE + 1);
	r = run_load(big, zlen + 4 + IN_SIZE + 1, 0, len, img, len);
	check_run(r, r.ret < 0 && strstr(r.error, "(a block of") &&
		  r.written == len, "a block over the maximum, with that much "
		  "data behind it, is refused", "lz4");
	put_le32(big, 0x18002102);	/* 02 21, not the legacy magic */
	r = run_load(big, zlen, 0, len, img, len);
	check_run(r, r.ret < 0 && strstr(r.error, "legacy frame"),
		  "found by 02 21, refused without the whole magic", "lz4");
	put_le32(big, 0x184d2204);	/* the modern frame */
	r = run_load(big, zlen, 0, len, img, len);
	check_run(r, r.ret == -2, "the modern frame is not found, as in the "
		  "kernel", "lz4");
	free(big);
	free(z);
	z = lz4_frames(img, len, &zlen, 4 << 20, 0);
	r = run_load(z, zlen, 0, len, img, len);
	check_run(r, r.ret < 0 && strstr(r.error, "short of 8 MiB") &&
		  r.written <= 4 << 20 && r.intact && r.prefix,
		  "a short block inside a frame is damage, found", "lz4");
	free(z);
	free(img);
}

static void test_plain(const unsigned char *img, size_t len)
{
	struct run r;

	r = run_load(img, len, 4096, len, img, len);
	check_run(r, r.ret == 0 && r.written == len, "loads the kernel's size",
		  "plain ext2");
	r = run_load(img, len, 0, len - 1, img, len);
	check_run(r, r.ret < 0 && r.written == 0 &&
		  strstr(r.error, "image too big! (3000KiB/2999KiB)"),
		  "too big: the kernel's words, nothing written",
		  "plain ext2");
	r = run_load(img, len - 5000, 0, len, img, len);
	check_run(r, r.ret < 0 && r.written == 0 &&
		  strstr(r.error, "the input holds 3067000 bytes of it"),
		  "truncated: refused before anything is written",
		  "plain ext2");
}

/* -s START: the image after START bytes of other data, from memory. */
static void test_start(const unsigned char *img, size_t len)
{
	const size_t start = 37 * RD_BLOCK;
	unsigned char *data = malloc(start + len);
	struct run r;

	memset(data, 0x5d, start);	/* lzma's magic, were it read */
	memcpy(data + start, img, len);
	start_offset = start;
	r = run_load(data, start + len, 1000, len, img, len);
	check_run(r, r.ret == 0 && r.written == len,
		  "the image at block 37 is found and loaded", "-s START");
	r = run_load(data, start + len - 1, 0, len, img, len);
	check_run(r, r.ret < 0 && r.written == 0 &&
		  strstr(r.error, "the input holds 3071999 bytes"),
		  "the size left after START is checked", "-s START");
	start_offset = 0;
	free(data);
}

/* A stream longer than its filesystem: the filesystem's size is loaded. */
static void test_padded_stream(const unsigned char *img, size_t len)
{
	size_t plen = len + 5000, zlen;
	unsigned char *padded = calloc(1, plen), *z;
	struct run r;

	memcpy(padded, img, len);
	put_le32(padded + RD_BLOCK + 4, IMAGE_KIB - 1);
	z = gzip_image(padded, plen, &zlen);
	r = run_load(z, zlen, 0, plen + RD_BLOCK, padded, plen);
	check_run(r, r.ret == 0 && r.written == len - RD_BLOCK,
		  "loads the filesystem's size, not the stream's", "gzip");
	free(z);
	put_le32(padded + RD_BLOCK + 4, IMAGE_KIB + 100);
	z = gzip_image(padded, len, &zlen);
	r = run_load(z, zlen, 0, plen + 100 * RD_BLOCK, padded, len);
	check_run(r, r.ret < 0 && r.written == len &&
		  strstr(r.error, "truncated: the ext2 filesystem is 3100KiB, "
			 "the gzip image holds 3072000 bytes of it"),
		  "a stream that ends before its filesystem is an error",
		  "gzip");
	free(z);
	free(padded);
}

/* -i says what a load would do: a plain image of size 0 is refused. */
static void test_identify_size0(void)
{
	static struct load ld;
	unsigned char head[4 * RD_BLOCK] = { 0 };
	struct mem_image image = { head, sizeof(head), 0, 0 };
	struct mem_target target = { NULL };

	memcpy(head, "-rom1fs-", 8);		/* romfs of size 0 */
	mem_setup(&ld, &image, &target, 0);
	ld.head_only = true;
	check("-i: a plain image of size 0 is refused, as a load refuses it",
	      mem_load(&ld) < 0 && strstr(ld.err.msg, "has size 0KiB"));
}

static void test_old_gzip(void)
{
	unsigned char head[RD_HEAD_SIZE] = { 0x1f, 0x9e, 8 };
	struct run r = run_load(head, sizeof(head), 0, 1 << 20, head, 0);

	check_run(r, r.ret < 0 && r.written == 0 &&
		  strstr(r.error, "old gzip"),
		  "1f 9e is found but not decompressed, as in the kernel",
		  "gzip");
}

static void test_identify_only(const unsigned char *img, size_t len)
{
	static struct load ld;
	size_t zlen;
	unsigned char *z = bzip2_image(img, len, &zlen);
	struct mem_image image = { z, zlen, 0, 0 };
	struct mem_target target = { NULL };

	mem_setup(&ld, &image, &target, 0);
	ld.head_only = true;
	check("-i: the filesystem in the bzip2 head, no writes",
	      mem_load(&ld) == RD_STOP && ld.image_kib == IMAGE_KIB &&
	      !ld.written);
	free(z);
}

/*
 * --verify: sums taken in pieces that straddle MiB boundaries, read back
 * from a file; one changed byte is named by its MiB.
 */
static void test_verify(void)
{
	static struct load ld;
	static unsigned char out[OUT_SIZE];
	const size_t len = (7 << 19) + 123, pieces[] = { 1, 777777, 3 << 20 };
	char path[] = "/tmp/rdload-unit-verify.XXXXXX";
	int fd = mkstemp(path);
	unsigned char *data = malloc(len), byte;
	const size_t npieces = sizeof(pieces) / sizeof(pieces[0]);
	size_t i, n, k;
	bool ok = true;

	if (!data || fd < 0)
		abort();
	for (i = 0; i < len; i++)
		data[i] = i * 2654435761u >> 24;
	ld.verify = true;
	ld.out = out;
	for (i = k = 0; i < len; i += n, k++) {
		n = pieces[k % npieces];
		if (n > len - i)
			n = len - i;
		ok &= !rd_sum_written(&ld, data + i, n);
		ld.queued += n;
	}
	ld.written = len;
	ok &= write(fd, data, len) == (ssize_t)len;
	check("--verify: the same bytes read back, summed in uneven pieces",
	      ok && ld.nsums >= 4 && !rd_verify(&ld, fd, path));
	byte = data[(5 << 19) + 10] ^ 1;
	ok &= pwrite(fd, &byte, 1, (5 << 19) + 10) == 1;
	check("--verify: one byte changed in MiB 2 is found there",
	      ok && rd_verify(&ld, fd, path) < 0 &&
	      strstr(ld.err.msg, "in MiB 2 (bytes 2097152-3145727)"));
	ld.err.msg[0] = 0;
	byte ^= 1;	/* MiB 2 as it was; the last byte, in a partial MiB */
	ok &= pwrite(fd, &byte, 1, (5 << 19) + 10) == 1;
	byte = data[len - 1] ^ 0x80;
	ok &= pwrite(fd, &byte, 1, len - 1) == 1;
	check("--verify: the last byte changed, in the last partial MiB",
	      ok && rd_verify(&ld, fd, path) < 0 &&
	      strstr(ld.err.msg, "in MiB 3 (bytes 3145728-3670138)"));
	ld.err.msg[0] = 0;
	ok &= !ftruncate(fd, 2 << 20);
	check("--verify: a target that ends early is an error",
	      ok && rd_verify(&ld, fd, path) < 0 &&
	      strstr(ld.err.msg, "cannot read") &&
	      strstr(ld.err.msg, "at 2097152: end of device"));
	close(fd);
	unlink(path);
	free(ld.sums);
	free(data);
}

int main(void)
{
	size_t len, i;
	unsigned char *img = make_ext2(IMAGE_KIB, &len);

	test_identify();
	test_identify_order();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_codec(&cases[i], img, len);
	test_pending_output();
	test_unknown_size(img, len);
	test_corrupt(img, len);
	test_lzop_flags(img, len);
	test_lz4_frames();
	test_plain(img, len);
	test_start(img, len);
	test_padded_stream(img, len);
	test_identify_size0();
	test_old_gzip();
	test_identify_only(img, len);
	test_verify();
	free(img);
	return unit_status();
}
