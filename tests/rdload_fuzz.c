// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the RAM-disk engine's image layers (applets/rd/: rdfs,
 * rdio, rddecode, rdimage; linked), and nothing else, on any bytes: identified, decompressed and loaded from
 * memory into a target in memory, as the command loads a file into a
 * block device.  A crash, a sanitizer report, a write past
 * the target or a change past what the loader reports written is a bug.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iapplets \
 *         -DRDLOAD_SMALL_BUFFERS tests/rdload_fuzz.c applets/rd/rdfs.c \
 *         applets/rd/rdio.c applets/rd/rddecode.c applets/rd/rdimage.c \
 *         -lz -llzma -lbz2 -lzstd -llz4 -llzo2
 *
 * tests/rdload_fuzz.t builds it and runs it on seeds made by the real
 * tools.  The first input byte picks how many bytes one read returns
 * (volume seams anywhere) and the target's size.
 */
#include <stdlib.h>
#include <string.h>

#include "rd/rdimage.h"
#include "rdload_mem.h"

#define TARGET_MAX	(1 << 20)
#define CANARY		0xa5

/* Whether len bytes at p all hold the canary. */
static bool intact(const unsigned char *p, size_t len)
{
	return !len || (p[0] == CANARY && !memcmp(p, p + 1, len - 1));
}

static void load_once(const uint8_t *data, size_t size, size_t chunk,
		      uint64_t capacity, bool head_only)
{
	static unsigned char target[TARGET_MAX + 4096];
	static struct load ld;
	struct mem_image image = { data, size, 0, chunk };
	struct mem_target out = { target };
	int ret;

	memset(target, CANARY, capacity + 4096);
	mem_setup(&ld, &image, &out, capacity);
	/* The dictionary the header asks for is allocated: keep it small. */
	ld.lzma_memlimit = 64 << 20;
	ld.head_only = head_only;
	ret = mem_load(&ld);
	if (ld.written > capacity || (ret == -1 && !ld.err.msg[0]))
		abort();
	if (!intact(target + ld.written, capacity + 4096 - ld.written))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t chunks[4] = { 0, 1, 7, 4096 };
	uint64_t capacity;
	uint8_t knobs;

	if (!size)
		return 0;
	knobs = data[0];
	capacity = knobs & 0x10 ? TARGET_MAX : (uint64_t)(knobs >> 5) << 15;
	load_once(data + 1, size - 1, chunks[knobs & 3], capacity,
		  knobs & 0x4);
	return 0;
}
