/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdload's loader driven from memory, for tests/rdload_unit.c and
 * tests/rdload_fuzz.c (which include the engine's private header,
 * rd/rdimage.h, first, and link its image layers): an image in memory,
 * read a few bytes at a time if asked, loaded into a target in memory of
 * a given capacity, through the same identification and decompression
 * code the command runs.
 */
#ifndef RDLOAD_MEM_H
#define RDLOAD_MEM_H

struct mem_image {
	const unsigned char *data;
	size_t len, pos;
	size_t chunk;		/* the most one read returns; 0: no limit */
};

struct mem_target {
	unsigned char *data;	/* capacity bytes */
};

static ssize_t mem_read(struct load *ld, void *buf, size_t len)
{
	struct mem_image *m = ld->in_ctx;
	size_t n = m->len - m->pos;

	if (n > len)
		n = len;
	if (m->chunk && n > m->chunk)
		n = m->chunk;
	memcpy(buf, m->data + m->pos, n);
	m->pos += n;
	return n;
}

/* The loader checks the capacity; a write past it is a bug it has. */
static int mem_write(struct load *ld, const void *buf, size_t len)
{
	struct mem_target *t = ld->out_ctx;

	if (ld->written + len > ld->capacity)
		abort();
	memcpy(t->data + ld->written, buf, len);
	ld->written += len;
	return 0;
}

/* A fresh load of image into target; the buffers are allocated once. */
static void mem_setup(struct load *ld, struct mem_image *image,
		      struct mem_target *target, uint64_t capacity)
{
	static unsigned char *in, *out, *spare;

	if (!in) {
		in = malloc(IN_SIZE);
		out = malloc(OUT_SIZE);
		spare = malloc(OUT_SIZE);
		if (!in || !out || !spare)
			abort();
	}
	memset(ld, 0, sizeof(*ld));
	ld->read = mem_read;
	ld->write = mem_write;
	ld->in_ctx = image;
	ld->out_ctx = target;
	ld->capacity = capacity;
	ld->input_len = image->len;
	ld->in = in;
	ld->out = out;
	ld->spare = spare;
}

/* As rdload runs: identify, then load.  -2: nothing identified. */
static int mem_load(struct load *ld)
{
	if (rd_read_head(ld))
		return -1;
	if (!rd_identify_head(ld->head, &ld->id))
		return -2;
	return rd_load_image(ld);
}

#endif
