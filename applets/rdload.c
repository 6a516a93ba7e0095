// SPDX-License-Identifier: GPL-2.0
/*
 * rdload: load a RAM-disk image as the kernel's rd_load_image() does, from
 * userspace: identify it at the start block the way identify_ramdisk_image()
 * does, decompress whatever the kernel decompresses, write it into /dev/ramN
 * (or any block device), and bring back multi-volume images (Linux 5.9 took
 * them out of the kernel).
 *
 * The image is a stream of volumes read one after another; identification
 * reads its head, the loader replays that head and goes on.  Decompressed
 * data goes through write buffers whose first bytes are identified again
 * (the filesystem inside a compressed image) before anything is written,
 * so a target that is too small is refused up front; a plain image goes
 * by sendfile() past its head.  Input and output are callbacks: the fuzz
 * target (tests/rdload_fuzz.c) drives the same code from memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#include <zstd.h>

#include "kit.h"

static const char usage[] =
"Usage: rdload -i [-s START] IMAGE...\n"
"       rdload [-s START] [-o TARGET] [-f] [-q] [--verify] [--prompt]\n"
"              IMAGE...\n"
"Find a RAM-disk image as the kernel does (gzip, bzip2, lzma, xz, lzo, lz4,\n"
"zstd; romfs, cramfs, squashfs, minix, ext2/3/4) and load it into a RAM disk.\n"
"Several IMAGEs are volumes of one image, read one after another.\n"
"\n"
"  -i          identify only: what the kernel finds, and the image's size\n"
"  -s START    the image starts at block START (1 KiB blocks) of the first\n"
"              IMAGE, as ramdisk_start= (default 0)\n"
"  -o TARGET   block device to load (default /dev/ram0; a missing /dev/ramN\n"
"              is created as the kernel does: mknod b 1 N)\n"
"  -f          TARGET may be a regular file: created when missing, written\n"
"              from its start, never truncated\n"
"  -q          quiet: errors only\n"
"  --verify    read TARGET back and compare\n"
"  --prompt    wait for ENTER before each further volume (a changed medium)\n"
"Reports go to stdout; errors, prompts and progress to stderr.\n";

KIT_APPLET(rdload, "load a RAM-disk image into /dev/ramN as the kernel does",
	   usage);

#define BLOCK		1024		/* the kernel's BLOCK_SIZE: KiB */
#define HEAD_SIZE	(3 * 512)	/* identification looks at no more */
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
#define VERIFY_SPAN	(1 << 20)	/* --verify sums each MiB apart */
#define STOP		1		/* head seen, -i wants no more */

struct load;

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
	const struct format *format;
	const char *fs;
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
	void *in_ctx, *out_ctx;

	uint64_t capacity;		/* bytes the target holds */
	uint64_t start;			/* the image's offset in the input */
	uint64_t input_len;		/* the input's bytes; UINT64_MAX: unknown */
	uint64_t queued;		/* bytes handed to write() */
	uint64_t written;		/* the only region that changed */
	unsigned char head[HEAD_SIZE];	/* read for identification */
	size_t head_len, head_pos;	/* replayed before further reads */
	unsigned char *in;		/* IN_SIZE bytes */
	unsigned char *out, *spare;	/* OUT_SIZE bytes each, swapped */
	size_t fill;			/* decompressed bytes in out */

	struct ident id;
	uint64_t image_kib;		/* 0: unknown */
	bool head_checked, head_only, quiet, progress, verify;
	uint32_t *sums;			/* --verify: CRC-32 of each MiB */
	size_t nsums;
	char error[512];		/* the first error */
};

/* Tests lower it: liblzma allocates the dictionary the header asks for. */
static uint64_t lzma_memlimit = UINT64_MAX;

static int fail(struct load *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct load *ld, const char *fmt, ...)
{
	va_list ap;

	if (ld->error[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(ld->error, sizeof(ld->error), fmt, ap);
	va_end(ap);
	return -1;
}

static void say(struct load *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct load *ld, const char *fmt, ...)
{
	va_list ap;

	if (ld->quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static uint16_t get_le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t get_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
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
	return bytes / BLOCK + (bytes % BLOCK != 0);
}

/* value << shift, saturated: sizes come from untrusted superblocks. */
static uint64_t shift_kib(uint64_t value, unsigned int shift)
{
	if (shift >= 64 || value > UINT64_MAX >> shift)
		return UINT64_MAX;
	return value << shift;
}

/* ---- Identification, in identify_ramdisk_image()'s order ---- */

static const struct codec gzip_codec, bzip2_codec, lzma_codec, zstd_codec;
static int unlzo(struct load *ld);
static int unlz4(struct load *ld);

/* lib/decompress.c's table; 1f 9e (old gzip) is found but not inflated. */
static const struct format formats[] = {
	{ { 0x1f, 0x8b }, "gzip", &gzip_codec, NULL },
	{ { 0x1f, 0x9e }, "gzip", &gzip_codec, NULL },
	{ { 0x42, 0x5a }, "bzip2", &bzip2_codec, NULL },
	{ { 0x5d, 0x00 }, "lzma", &lzma_codec, NULL },
	{ { 0xfd, 0x37 }, "xz", &lzma_codec, NULL },
	{ { 0x89, 0x4c }, "lzo", NULL, unlzo },
	{ { 0x02, 0x21 }, "lz4", NULL, unlz4 },
	{ { 0x28, 0xb5 }, "zstd", &zstd_codec, NULL },
};

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
 * The filesystems, at 0 of head (HEAD_SIZE bytes from the start block):
 * romfs, cramfs, squashfs, cramfs padded by 512, then minix and ext2 in
 * the next KiB.  Sizes in KiB, as the kernel computes them.
 */
static bool identify_fs(const unsigned char *head, struct ident *id)
{
	const unsigned char *sb = head + BLOCK;
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

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!memcmp(head, formats[i].magic, 2)) {
			memset(id, 0, sizeof(*id));
			id->format = &formats[i];
			return true;
		}
	}
	return identify_fs(head, id);
}

/* ---- Input: the head replayed, then the reader ---- */

static ssize_t ld_read(struct load *ld, void *buf, size_t len)
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
static ssize_t ld_read_full(struct load *ld, void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = ld_read(ld, (char *)buf + done, len - done);
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
	n = ld_read_full(ld, ld->head, sizeof(ld->head));
	if (n < 0)
		return -1;
	ld->head_len = n;
	ld->head_pos = 0;
	return 0;
}

static int fail_eof(struct load *ld)
{
	return fail(ld, "RAMDISK: EOF while reading compressed data: the %s "
		    "image is truncated", ld->id.format->name);
}

/* Reads exactly len bytes of compressed data; EOF is an error. */
static int read_exact(struct load *ld, void *buf, size_t len)
{
	ssize_t n = ld_read_full(ld, buf, len);

	if (n < 0)
		return -1;
	return (size_t)n < len ? fail_eof(ld) : 0;
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
			return fail(ld, "the size of the %s image is not known "
				    "before decompressing it: give the zram "
				    "device a disksize first",
				    ld->id.format->name);
		if (kib <= UINT64_MAX / BLOCK && ld->resize(ld, kib * BLOCK))
			return -1;
	}
	if (kib > ld->capacity / BLOCK)
		return fail(ld, "RAMDISK: image too big! (%lluKiB/%lluKiB)",
			    (unsigned long long)kib,
			    (unsigned long long)(ld->capacity / BLOCK));
	return 0;
}

/* The decompressed head, identified as the kernel would a plain image. */
static int check_head(struct load *ld)
{
	unsigned char head[HEAD_SIZE];
	struct ident fs;

	ld->head_checked = true;
	memset(head, 0xe5, sizeof(head));
	memcpy(head, ld->out, ld->fill < HEAD_SIZE ? ld->fill : HEAD_SIZE);
	if (identify_fs(head, &fs)) {
		ld->id.fs = fs.fs;
		ld->image_kib = fs.kib;
		say(ld, "RAMDISK: %s filesystem found in the %s image", fs.fs,
		    ld->id.format->name);
	}
	if (ld->head_only)
		return STOP;
	return fit_target(ld, ld->image_kib);
}

/* Every 4 MiB, on a terminal. */
static void show_progress(struct load *ld, uint64_t before)
{
	if (ld->progress && before >> 22 != ld->queued >> 22)
		fprintf(stderr, "\rRAMDISK: %llu MiB loaded",
			(unsigned long long)(ld->queued >> 20));
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
				return fail(ld, "out of memory for --verify");
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
	uint64_t end = ld->image_kib * BLOCK;	/* fit_target() checked it */

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
		return fail(ld, "RAMDISK: image too big! (more than "
			    "%lluKiB/%lluKiB)",
			    (unsigned long long)bytes_to_kib(ld->queued + len),
			    (unsigned long long)(ld->capacity / BLOCK));
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
static int out_reserve(struct load *ld, size_t need, unsigned char **out)
{
	int ret;

	if (OUT_SIZE - ld->fill < need && (ret = out_flush(ld)))
		return ret;
	*out = ld->out + ld->fill;
	return 0;
}

/* n more bytes decompressed at out + fill. */
static int out_commit(struct load *ld, size_t n)
{
	int ret;

	ld->fill += n;
	if (!ld->head_checked && ld->fill >= HEAD_SIZE &&
	    (ret = check_head(ld)))
		return ret;
	if (ld->fill >= WRITE_SIZE)
		return out_flush(ld);
	return 0;
}

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
			got = ld_read(ld, ld->in, IN_CHUNK);
			if (got <= 0) {
				ret = got ? -1 : fail_eof(ld);
				break;
			}
			in = ld->in;
			in_len = got;
		}
		ret = out_reserve(ld, 1, &out);
		if (ret)
			break;
		room = n = WRITE_SIZE - ld->fill;
		done = codec->step(ld, state, &in, &in_len, out, &n);
		if (done < 0) {
			ret = -1;
			break;
		}
		out_full = n == room;
		ret = out_commit(ld, n);
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
		return fail(ld, "RAMDISK: not a gzip file: 1f 9e is the old "
			    "gzip magic, which the kernel finds but does not "
			    "decompress either");
	}
	/* 16 + MAX_WBITS: a gzip member, its CRC checked. */
	if (!zs || inflateInit2(zs, 16 + MAX_WBITS) != Z_OK) {
		free(zs);
		return fail(ld, "out of memory for the gzip decoder");
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
	return fail(ld, "RAMDISK: gzip data corrupt (%s)",
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
		return fail(ld, "out of memory for the bzip2 decoder");
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
	return fail(ld, "RAMDISK: bzip2 data corrupt (libbz2 error %d)", ret);
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
	lzma_stream *xz = malloc(sizeof(*xz));
	lzma_mt mt = {
		.threads = sysconf(_SC_NPROCESSORS_ONLN),
		.memlimit_threading = lzma_physmem() / 4,
		.memlimit_stop = lzma_memlimit,
	};
	lzma_ret ret;

	if (!xz)
		return fail(ld, "out of memory for the %s decoder",
			    ld->id.format->name);
	*xz = (lzma_stream)LZMA_STREAM_INIT;
	if (mt.threads < 1)
		mt.threads = 1;
	if (!strcmp(ld->id.format->name, "xz"))
		ret = lzma_stream_decoder_mt(xz, &mt);
	else
		ret = lzma_alone_decoder(xz, lzma_memlimit);
	if (ret != LZMA_OK) {
		free(xz);
		return fail(ld, "out of memory for the %s decoder",
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
	return fail(ld, "RAMDISK: %s %s (liblzma error %d)",
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
		return fail(ld, "out of memory for the zstd decoder");
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
		return fail(ld, "RAMDISK: zstd data corrupt (%s)",
			    ZSTD_getErrorName(ret));
	return ret == 0;	/* 0: the frame is complete */
}

static void zstd_end(void *state)
{
	ZSTD_freeDStream(state);
}

static const struct codec zstd_codec = { zstd_init, zstd_step, zstd_end };

/* ---- Block decoders: the lz4 legacy frame and the lzop file ---- */

#define LZ4_LEGACY_MAGIC	0x184c2102
#define LZ4_LEGACY_BLOCK	OUT_SIZE	/* 8 MiB but in the fuzz build */

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

	ret = read_exact(ld, word, 4);
	if (ret)
		return ret;
	if (get_le32(word) != LZ4_LEGACY_MAGIC)
		return fail(ld, "RAMDISK: lz4: invalid header: the kernel "
			    "reads the legacy frame format only (lz4 -l)");
	for (;;) {
		n = ld_read_full(ld, word, 4);
		if (n < 0)
			return -1;
		if (n > 0 && n < 4)
			return fail_eof(ld);
		size = n ? get_le32(word) : 0;
		if (!size)
			return 0;
		if (size == LZ4_LEGACY_MAGIC) {
			short_block = 0;
			continue;
		}
		if (size > IN_SIZE)
			return fail(ld, "RAMDISK: lz4 data corrupt (a block of "
				    "%u bytes)", size);
		if (short_block)
			return fail(ld, "RAMDISK: lz4 data corrupt (a block "
				    "short of 8 MiB inside a frame)");
		ret = read_exact(ld, ld->in, size);
		if (!ret)
			ret = out_reserve(ld, LZ4_LEGACY_BLOCK, &out);
		if (ret)
			return ret;
		n = LZ4_decompress_safe((char *)ld->in, (char *)out, size,
					LZ4_LEGACY_BLOCK);
		if (n < 0)
			return fail(ld, "RAMDISK: lz4 data corrupt");
		short_block = n < LZ4_LEGACY_BLOCK;
		ret = out_commit(ld, n);
		if (ret)
			return ret;
	}
}

/* lzop's header flags that matter here. */
#define LZOP_ADLER32_D		0x0001
#define LZOP_ADLER32_C		0x0002
#define LZOP_EXTRA_FIELD	0x0040
#define LZOP_CRC32_D		0x0100
#define LZOP_CRC32_C		0x0200
#define LZOP_FILTER		0x0800
#define LZOP_HEADER_CRC32	0x1000

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

	if (read_exact(ld, p, n))
		return NULL;
	h->len += n;
	return p;
}

static int lzop_skip(struct load *ld, uint32_t len)
{
	size_t n;

	for (; len; len -= n) {
		n = len < IN_CHUNK ? len : IN_CHUNK;
		if (read_exact(ld, ld->in, n))
			return -1;
	}
	return 0;
}

static uint32_t lzop_checksum(bool crc, const unsigned char *p, size_t len)
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
		return fail(ld, "RAMDISK: lzo: invalid header (not lzop)");
	new_format = (p[9] << 8 | p[10]) >= 0x0940;
	if (!(p = lzop_take(ld, h, new_format ? 4 + 4 : 1 + 4)))
		return -1;
	method = p[new_format ? 2 : 0];
	h->flags = get_be32(p + (new_format ? 4 : 1));
	if (method < 1 || method > 3)
		return fail(ld, "RAMDISK: lzo: method %u is not LZO1X", method);
	if (h->flags & LZOP_FILTER)
		return fail(ld, "RAMDISK: lzo: filters are not supported");
	if (!(p = lzop_take(ld, h, 4 + 4 + (new_format ? 4 : 0) + 1)))
		return -1;
	if (!lzop_take(ld, h, p[new_format ? 12 : 8]))
		return -1;
	sum = lzop_checksum(h->flags & LZOP_HEADER_CRC32, h->buf + 9,
			    h->len - 9);
	if (!(p = lzop_take(ld, h, 4)))
		return -1;
	if (get_be32(p) != sum)
		return fail(ld, "RAMDISK: lzo: header checksum error");
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
		if (get_be32(sums) != lzop_checksum(false, data, len))
			return fail(ld, "RAMDISK: lzo data corrupt (adler32)");
		sums += 4;
	}
	if ((flags & crc_flag) &&
	    get_be32(sums) != lzop_checksum(true, data, len))
		return fail(ld, "RAMDISK: lzo data corrupt (crc32)");
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

	if (read_exact(ld, sizes, 4))
		return -1;
	dst_len = get_be32(sizes);
	*end = !dst_len;
	if (*end)
		return 0;
	if (read_exact(ld, sizes + 4, 4))
		return -1;
	src_len = get_be32(sizes + 4);
	if (dst_len > OUT_SIZE || !src_len || src_len > dst_len)
		return fail(ld, "RAMDISK: lzo data corrupt (block of %u bytes "
			    "from %u)", dst_len, src_len);
	if (src_len < dst_len)
		nc = lzop_count(flags, LZOP_ADLER32_C | LZOP_CRC32_C);
	if (read_exact(ld, sums, 4 * (nd + nc)) ||
	    read_exact(ld, ld->in, src_len))
		return -1;
	if (nc && lzop_verify(ld, flags, LZOP_ADLER32_C, LZOP_CRC32_C,
			      sums + 4 * nd, ld->in, src_len))
		return -1;
	ret = out_reserve(ld, dst_len, &out);
	if (ret)
		return ret;
	got = dst_len;
	if (src_len == dst_len)
		memcpy(out, ld->in, dst_len);
	else if (lzo1x_decompress_safe(ld->in, src_len, out, &got, NULL) !=
		 LZO_E_OK || got != dst_len)
		return fail(ld, "RAMDISK: lzo data corrupt");
	if (lzop_verify(ld, flags, LZOP_ADLER32_D, LZOP_CRC32_D, sums, out,
			dst_len))
		return -1;
	return out_commit(ld, dst_len);
}

static int unlzo(struct load *ld)
{
	struct lzop_header h = { .buf = malloc(LZOP_HEADER_MAX) };
	bool end = false;
	int ret;

	if (!h.buf)
		return fail(ld, "out of memory for the lzo header");
	if (lzo_init() != LZO_E_OK)
		ret = fail(ld, "liblzo2 does not work here");
	else
		ret = lzop_read_header(ld, &h);
	while (!ret && !end)
		ret = lzop_block(ld, h.flags, &end);
	free(h.buf);
	return ret;
}

/* ---- Loading ---- */

/* An uncompressed image: the kernel's nblocks KiB, no more. */
static int copy_plain(struct load *ld)
{
	uint64_t left = ld->image_kib * BLOCK;
	size_t want;
	ssize_t n;
	int ret;

	ld->head_checked = true;
	if (!ld->image_kib)
		return fail(ld, "RAMDISK: the %s filesystem has size 0KiB: "
			    "nothing to load", ld->id.fs);
	/* Before sizing or writing anything: is it all there? */
	if (ld->image_kib > (ld->input_len - ld->start) / BLOCK)
		return fail(ld, "RAMDISK: image truncated: the %s filesystem "
			    "is %lluKiB, the input holds %llu bytes of it",
			    ld->id.fs, (unsigned long long)ld->image_kib,
			    (unsigned long long)(ld->input_len - ld->start));
	if (ld->head_only)
		return STOP;
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
		n = ld_read_full(ld, ld->out + ld->fill, want);
		if (n < 0)
			return -1;
		left -= n;
		ret = out_commit(ld, n);
		if (!ret && (size_t)n < want)
			return fail(ld, "RAMDISK: image truncated: it ends "
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
	if (!ld->id.format || ld->queued >= ld->image_kib * BLOCK)
		return 0;
	return fail(ld, "RAMDISK: image truncated: the %s filesystem is "
		    "%lluKiB, the %s image holds %llu bytes of it", ld->id.fs,
		    (unsigned long long)ld->image_kib, ld->id.format->name,
		    (unsigned long long)ld->queued);
}

/*
 * Loads the identified image (ld->id, ld->head read): returns 0, STOP
 * when only the head was wanted, or -1 with ld->error.  Whatever
 * happened, no write is in flight afterwards.
 */
static int load_image(struct load *ld)
{
	int ret, synced;

	ld->image_kib = ld->id.kib;
	if (!ld->id.format)
		ret = copy_plain(ld);
	else if (ld->id.format->codec)
		ret = decode_stream(ld, ld->id.format->codec);
	else
		ret = ld->id.format->decompress(ld);
	if (!ret)
		ret = out_flush(ld);
	if (!ret)
		ret = check_complete(ld);
	synced = ld->sync ? ld->sync(ld) : 0;
	return ret ? ret : synced;
}

/* ---- The command: volumes in, a block device out ---- */

struct volumes {
	char **paths;
	int count, opened;
	int fd;			/* the volume being read, or -1 */
	bool prompt;
	struct stat target;	/* never read it as a volume */
	bool progress;
};

static void clear_progress(bool progress)
{
	if (progress)
		fputs("\r\033[K", stderr);
}

/* Waits for ENTER on the terminal, or on stdin without one. */
static int ask_for_volume(struct load *ld, struct volumes *v)
{
	int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
	int fd = tty >= 0 ? tty : STDIN_FILENO;
	ssize_t n;
	char c;

	clear_progress(v->progress);
	fprintf(stderr, "%s: insert disk #%d (%s) and press ENTER\n",
		applet_name, v->opened + 1, v->paths[v->opened]);
	do
		n = read(fd, &c, 1);
	while ((n == 1 && c != '\n') || (n < 0 && errno == EINTR));
	if (tty >= 0)
		close(tty);
	if (n != 1)
		return fail(ld, "no ENTER for disk #%d: %s", v->opened + 1,
			    n ? strerror(errno) : "end of input");
	return 0;
}

/* The same file, however named, or the same block device. */
static bool same_file(const struct stat *a, const struct stat *b)
{
	if (!a->st_mode || !b->st_mode)
		return false;
	if (S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode))
		return a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether fd is the target (whose stat is *target, once it is open). */
static bool is_target(int fd, const struct stat *target)
{
	struct stat st;

	return !fstat(fd, &st) && same_file(&st, target);
}

static int open_volume(struct load *ld, struct volumes *v)
{
	const char *path = v->paths[v->opened];

	if (v->opened && v->prompt && ask_for_volume(ld, v))
		return -1;
	v->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (v->fd < 0)
		return fail(ld, "cannot open %s: %s", path, strerror(errno));
	v->opened++;
	if (is_target(v->fd, &v->target))
		return fail(ld, "%s is the target itself", path);
	return 0;
}

/* The volumes, one after another, as one stream. */
static ssize_t volumes_read(struct load *ld, void *buf, size_t len)
{
	struct volumes *v = ld->in_ctx;
	ssize_t n;

	for (;;) {
		if (v->fd < 0) {
			if (v->opened == v->count)
				return 0;
			if (open_volume(ld, v))
				return -1;
		}
		n = read(v->fd, buf, len);
		if (n > 0)
			return n;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(ld, "RAMDISK: error while reading %s: %s",
				    v->paths[v->opened - 1], strerror(errno));
		close(v->fd);
		v->fd = -1;
	}
}

/*
 * A compressed image's target is written by a thread of its own, so that
 * decompressing the next buffer and writing the last one overlap, as in
 * a pipe to dd.  A plain copy is faster without: its buffers stay in the
 * cache of the one core that reads and writes them.
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
};

/* Tests point it at a fake tree. */
static const char *sysfs_root = "/sys";

/* An attribute of a zram device (disksize, reset); false for others. */
static bool zram_attr_path(dev_t rdev, const char *attr, char *path,
			   size_t size)
{
	snprintf(path, size, "%s/dev/block/%u:%u/%s", sysfs_root,
		 major(rdev), minor(rdev), attr);
	return !access(path, W_OK);
}

/* A zram device without a disksize gets the image's size. */
static int target_resize(struct load *ld, uint64_t bytes)
{
	struct target *t = ld->out_ctx;
	char path[PATH_MAX], value[32];
	uint64_t size = 0;
	struct stat st;
	int fd, len;

	if (fstat(t->fd, &st) ||
	    !zram_attr_path(st.st_rdev, "disksize", path, sizeof(path)))
		return fail(ld, "RAMDISK: %s has size 0", t->path);
	len = snprintf(value, sizeof(value), "%llu",
		       (unsigned long long)bytes);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, value, len) < 0) {
		if (fd >= 0)
			close(fd);
		return fail(ld, "cannot size zram %s: writing %s to %s: %s",
			    t->path, value, path, strerror(errno));
	}
	close(fd);
	t->resized = true;
	if (ioctl(t->fd, BLKGETSIZE64, &size) || size < bytes)
		return fail(ld, "zram %s did not take disksize %s", t->path,
			    value);
	/* zram rounds up to whole pages: the image keeps its own size. */
	ld->capacity = size;
	say(ld, "RAMDISK: zram %s sized to %lluKiB", t->path,
	    (unsigned long long)(bytes / BLOCK));
	return 0;
}

/*
 * After a failed load, a zram that rdload sized is put back unsized, as
 * it was: closed first, since zram resets only a device nobody holds.
 */
static void unsize_target(struct target *t)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	if (!t->resized || fstat(t->fd, &st) ||
	    !zram_attr_path(st.st_rdev, "reset", path, sizeof(path)))
		return;
	close(t->fd);
	t->fd = -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, "1", 1) < 0)
		warn_msg("cannot reset %s to no disksize: %s", t->path,
			 strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* write() until done: the bytes written, short with errno on error. */
static ssize_t write_fully(int fd, const void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n = 0;

	while (done < len) {
		n = write(fd, (const char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	if (!n)
		errno = ENOSPC;
	return done || n >= 0 ? (ssize_t)done : -1;
}

static void *writer_thread(void *arg)
{
	struct target *t = arg;
	ssize_t n;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (!t->buf && !t->quit)
			pthread_cond_wait(&t->cond, &t->lock);
		if (!t->buf)
			break;
		pthread_mutex_unlock(&t->lock);
		n = write_fully(t->fd, t->buf, t->len);
		pthread_mutex_lock(&t->lock);
		t->done = n;
		t->error = errno;
		t->buf = NULL;
		pthread_cond_broadcast(&t->cond);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* Waits for the write in flight and counts what it wrote. */
static int target_wait(struct load *ld, struct target *t)
{
	ssize_t done;
	size_t len;

	pthread_mutex_lock(&t->lock);
	while (t->buf)
		pthread_cond_wait(&t->cond, &t->lock);
	done = t->done;
	len = t->len;
	t->done = t->len = 0;
	pthread_mutex_unlock(&t->lock);
	if (done > 0)
		ld->written += done;
	if ((size_t)done == len)
		return 0;
	return fail(ld, "RAMDISK: incomplete write (%zd != %zu)%s%s", done,
		    len, done < 0 || t->error ? ": " : "",
		    done < 0 || t->error ? strerror(t->error) : "");
}

static int target_write(struct load *ld, const void *buf, size_t len)
{
	struct target *t = ld->out_ctx;

	if (target_wait(ld, t))
		return -1;
	if (!t->threaded) {
		t->len = len;
		t->done = write_fully(t->fd, buf, len);
		t->error = errno;
		return target_wait(ld, t);
	}
	pthread_mutex_lock(&t->lock);
	t->buf = buf;
	t->len = len;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

/* The last write done, the writer ends. */
static int target_sync(struct load *ld)
{
	struct target *t = ld->out_ctx;
	int ret = target_wait(ld, t);

	if (!t->threaded)
		return ret;
	pthread_mutex_lock(&t->lock);
	t->quit = true;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->writer, NULL);
	return ret;
}

/*
 * /dev/ramN, N decimal as the kernel names it (ram0, ram10; not ram010),
 * is the one node rdload makes: b 1 N, as the kernel's create_dev().
 */
static bool ram_minor(const char *path, unsigned int *minor)
{
	static const char prefix[] = "/dev/ram";
	char name[sizeof(prefix) + 20];
	unsigned long n;

	if (strncmp(path, prefix, sizeof(prefix) - 1) ||
	    path[sizeof(prefix) - 1] < '0' || path[sizeof(prefix) - 1] > '9')
		return false;
	n = strtoul(path + sizeof(prefix) - 1, NULL, 10);
	snprintf(name, sizeof(name), "%s%lu", prefix, n);
	if (strcmp(name, path) || n >> 20)	/* MINORBITS */
		return false;
	*minor = n;
	return true;
}

/* A missing target: /dev/ramN made, or a file to create with -f. */
static int missing_target(struct target *t, bool allow_file, bool *made)
{
	unsigned int minor;
	struct stat st;

	if (!lstat(t->path, &st))
		die("%s is a symbolic link to a file that does not exist: "
		    "give the file's own path, or remove the link", t->path);
	if (allow_file)
		return O_CREAT;
	if (!ram_minor(t->path, &minor))
		die("%s does not exist (a file as target needs -f)", t->path);
	if (mknod(t->path, S_IFBLK | 0600, makedev(1, minor)))
		die("cannot create %s (b 1 %u): %s", t->path, minor,
		    strerror(errno));
	*made = true;
	return 0;
}

/* A block device's size, and what it would refuse. */
static void block_target(struct load *ld, struct target *t)
{
	int ro = 0;

	if (ioctl(t->fd, BLKGETSIZE64, &ld->capacity))
		die("RAMDISK: could not determine device size of %s: %s",
		    t->path, strerror(errno));
	if (!ld->capacity)
		ld->resize = target_resize;
	if (!ioctl(t->fd, BLKROGET, &ro) && ro)
		die("%s is read-only: make it writable first (blockdev "
		    "--setrw %s, or a loop device set up without -r)",
		    t->path, t->path);
}

static void open_target(struct load *ld, struct target *t, bool allow_file)
{
	int flags = O_RDWR | O_CLOEXEC | O_EXCL, saved;
	bool made = false;
	struct stat st;

	if (stat(t->path, &st) && errno == ENOENT)
		flags |= missing_target(t, allow_file, &made);
	t->fd = open(t->path, flags, 0666);
	/* A node for a device that is not there helps nobody. */
	if (t->fd < 0 && made) {
		saved = errno;
		unlink(t->path);
		errno = saved;
	}
	if (t->fd < 0 && errno == EBUSY)
		die("%s is in use (mounted, or held by a device or program "
		    "that opened it exclusively): free it first", t->path);
	if (t->fd < 0 && (errno == ENXIO || errno == ENODEV))
		die("cannot open %s: no such device (for /dev/ramN: modprobe "
		    "brd)", t->path);
	if (t->fd < 0)
		die("cannot open %s: %s", t->path, strerror(errno));
	if (fstat(t->fd, &st))
		die("cannot stat %s: %s", t->path, strerror(errno));
	if (S_ISREG(st.st_mode) && !allow_file)
		die("%s is a regular file: use -f to load into a file",
		    t->path);
	if (S_ISREG(st.st_mode))
		ld->capacity = UINT64_MAX;
	else if (!S_ISBLK(st.st_mode))
		die("%s is not a block device", t->path);
	else
		block_target(ld, t);
	ld->write = target_write;
	ld->sync = target_sync;
	ld->out_ctx = t;
}

/* sendfile() from the volume being read to the target; 0 at its end. */
static ssize_t volumes_splice(struct load *ld, size_t len)
{
	struct volumes *v = ld->in_ctx;
	struct target *t = ld->out_ctx;
	ssize_t n;

	if (v->fd < 0)
		return 0;
	do
		n = sendfile(t->fd, v->fd, NULL, len);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
		ld->splice = NULL;	/* not between these two: read() */
		return 0;
	}
	if (n < 0)
		return fail(ld, "RAMDISK: error copying %s to %s: %s",
			    v->paths[v->opened - 1], t->path, strerror(errno));
	ld->written += n;
	return n;
}

static void start_writer(struct target *t)
{
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	errno = pthread_create(&t->writer, NULL, writer_thread, t);
	if (errno)
		die("cannot start the writer thread: %s", strerror(errno));
	t->threaded = true;
}

/* Reads back what was written, from the device and not the page cache. */
static int verify_target(struct load *ld, struct target *t)
{
	uint64_t pos;
	size_t want, got;
	ssize_t n;

	posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
	for (pos = 0; pos < ld->written; pos += want) {
		want = ld->written - pos < VERIFY_SPAN ? ld->written - pos :
							VERIFY_SPAN;
		for (got = 0; got < want; got += n) {
			n = pread(t->fd, ld->out + got, want - got, pos + got);
			if (n <= 0)
				return fail(ld, "RAMDISK: verify: cannot read "
					    "%s back at %llu: %s", t->path,
					    (unsigned long long)(pos + got),
					    n ? strerror(errno) :
						"end of device");
		}
		if (crc32_z(0, ld->out, want) != ld->sums[pos / VERIFY_SPAN])
			return fail(ld, "RAMDISK: verify failed: %s reads "
				    "back other bytes than were written, "
				    "in MiB %llu (bytes %llu-%llu)", t->path,
				    (unsigned long long)(pos / VERIFY_SPAN),
				    (unsigned long long)pos,
				    (unsigned long long)(pos + want - 1));
	}
	say(ld, "RAMDISK: verified %lluKiB",
	    (unsigned long long)bytes_to_kib(ld->written));
	return 0;
}

/* -i: the kernel's words, then the size it would load. */
static int report_identity(struct load *ld)
{
	int ret = 0;

	ld->head_only = true;
	ld->capacity = UINT64_MAX;
	ret = load_image(ld);
	if (ret < 0)
		die("%s", ld->error);
	if (ld->image_kib)
		say(ld, "RAMDISK: image size %lluKiB",
		    (unsigned long long)ld->image_kib);
	else
		say(ld, "RAMDISK: image size not known before decompressing");
	return 0;
}

/* After the load: flushed to the device, read back if asked, all used. */
static int finish_load(struct load *ld, struct target *t,
		       struct volumes *v)
{
	if (fsync(t->fd))
		return fail(ld, "RAMDISK: write error on %s: %s", t->path,
			    strerror(errno));
	if (ld->verify && verify_target(ld, t))
		return -1;
	if (v->opened < v->count)
		return fail(ld, "the image ended in volume %d of %d: %s not "
			    "read", v->opened, v->count, v->paths[v->opened]);
	return 0;
}

struct options {
	long start;
	const char *target;
	bool identify, allow_file, quiet, verify, prompt;
};

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "verify", no_argument, NULL, 'V' },
		{ "prompt", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":is:o:fq", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'i':
			o->identify = true;
			break;
		case 'f':
			o->allow_file = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'V':
			o->verify = true;
			break;
		case 'P':
			o->prompt = true;
			break;
		case 'o':
			o->target = optarg;
			break;
		case 's':
			if (parse_long(optarg, &o->start) || o->start < 0 ||
			    o->start > INT_MAX)
				die_usage("-s takes a block number (1 KiB "
					  "blocks), got %s", optarg);
			break;
		case ':':
			die_usage("option '-%c' needs a value; see 'rdload "
				  "--help'", optopt);
		default:
			if (optopt)
				die_usage("unknown option '-%c'; see 'rdload "
					  "--help'", optopt);
			die_usage("unknown option '%s'; see 'rdload --help'",
				  argv[optind - 1]);
		}
	}
	if (optind == argc)
		die_usage("no IMAGE given (see rdload --help)");
	return optind;
}

/*
 * Before anything is written, each volume that is there: data to read
 * (not a directory), and not the target, however named (a hard link,
 * /proc/self/fd/N).  Returns the bytes of a volume that is a file, else
 * UINT64_MAX.
 */
static uint64_t check_volume(const char *path, const struct stat *target,
			     bool must_exist)
{
	struct stat st;

	if (stat(path, &st) || access(path, R_OK)) {
		if (!must_exist && errno == ENOENT)
			return UINT64_MAX;
		die("cannot read %s: %s", path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		die("%s is a directory: each IMAGE is a file or a device",
		    path);
	if (same_file(&st, target))
		die("%s is the target itself: load it into another TARGET",
		    path);
	return S_ISREG(st.st_mode) ? (uint64_t)st.st_size : UINT64_MAX;
}

/*
 * All volumes checked; the bytes they hold together, UINT64_MAX when
 * unknown (a device, a medium still to insert).  Changed media appear
 * when asked for (--prompt); other volumes must exist now.
 */
static uint64_t check_volumes(struct volumes *v, const char *target)
{
	uint64_t total = 0, len;
	struct stat st = { .st_mode = 0 };
	int i;

	if (stat(target, &st))
		st.st_mode = 0;
	for (i = 0; i < v->count; i++) {
		len = check_volume(v->paths[i], &st, !i || !v->prompt);
		total = len > UINT64_MAX - total ? UINT64_MAX : total + len;
	}
	return v->prompt && v->count > 1 ? UINT64_MAX : total;
}

int rdload_main(int argc, char **argv)
{
	struct options o = { .target = "/dev/ram0" };
	struct volumes v = { .fd = -1 };
	struct target t = { .fd = -1 };
	struct load ld = { .read = volumes_read, .in_ctx = &v };
	int first = parse_options(argc, argv, &o);
	int ret;

	v.paths = argv + first;
	v.count = argc - first;
	v.prompt = o.prompt;
	ld.input_len = check_volumes(&v, o.target);
	ld.start = (uint64_t)o.start * BLOCK;
	ld.quiet = o.quiet;
	ld.verify = o.verify;
	ld.in = malloc(IN_SIZE);
	ld.out = malloc(OUT_SIZE);
	ld.spare = malloc(OUT_SIZE);
	if (!ld.in || !ld.out || !ld.spare)
		die("out of memory for the buffers");
	if (read_head(&ld))
		die("%s", ld.error);
	if (!identify(ld.head, &ld.id))
		die("RAMDISK: Couldn't find valid RAM disk image starting at "
		    "%ld.", o.start);
	say(&ld, "RAMDISK: %s %s found at block %ld",
	    ld.id.format ? ld.id.format->name : ld.id.fs,
	    ld.id.format ? "image" : "filesystem", o.start);
	if (o.identify)
		return report_identity(&ld);

	t.path = o.target;
	open_target(&ld, &t, o.allow_file);
	if (ld.id.format)
		start_writer(&t);
	else if (!o.verify)	/* --verify sums what goes through memory */
		ld.splice = volumes_splice;
	if (fstat(t.fd, &v.target))
		die("cannot stat %s: %s", t.path, strerror(errno));
	v.progress = ld.progress = !o.quiet && isatty(STDERR_FILENO);
	ret = load_image(&ld);
	if (!ret)
		ret = finish_load(&ld, &t, &v);
	clear_progress(ld.progress);
	if (ret) {
		unsize_target(&t);
		die("%s; %llu bytes written to %s", ld.error,
		    (unsigned long long)ld.written, t.path);
	}
	say(&ld, "RAMDISK: Loading %lluKiB [%d disk%s] into ram disk... done.",
	    (unsigned long long)bytes_to_kib(ld.written), v.opened,
	    v.opened > 1 ? "s" : "");
	return 0;
}
