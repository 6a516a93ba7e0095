// SPDX-License-Identifier: GPL-2.0
/*
 * One walk of tcpiter's or udpiter's iterator.  The BPF program
 * (bpf/sockiter.bpf.h) filters in the kernel and writes one fixed-size
 * struct sock_rec per socket, followed by /proc's hashed pointer as text
 * ("%pK": only the kernel can hash it), in batches.  Here the records are
 * read, put back in /proc's order and handed on, a row each.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "core/kit.h"
#include "sock/sockload.h"
#include "sock/sockwalk.h"

/* The walk ended by an error, in walk->e. */
static void fail(struct sock_walk *walk, const char *msg)
{
	kit_fail(walk->e, EXIT_RUNTIME, 0, "%s", msg);
	walk->failed = true;
}

/* Does the record at rec carry a struct sock_info (-i, full sockets)? */
static bool has_info(const struct sock_walk *walk, const char *rec)
{
	return walk->it->config.want_info &&
	       rec[offsetof(struct sock_rec, kind)] == SOCK_KIND_FULL;
}

/* The row from a record in its written form (sockrec.h) and its pointer,
 * handed on. */
static void hand_on(struct sock_walk *walk, const char *rec, size_t size,
		    const char *ptr, size_t ptr_len)
{
	size_t fields = SOCK_REC_FIELDS(walk->it->proto->tcp_tail);
	static struct sockiter_row w;

	memset(&w.r, 0, sizeof(w.r));
	/* from the end: the kill tail, then the info */
	if (walk->it->config.want_kill) {
		size -= sizeof(w.kill);
		memcpy(&w.kill, rec + size, sizeof(w.kill));
	}
	if (has_info(walk, rec)) {
		size -= sizeof(w.info);
		memcpy(&w.info, rec + size, sizeof(w.info));
	}
	memcpy(&w.r, rec, fields);
	memcpy(w.r.src, rec + fields, size - fields);
	if (w.r.family == SOCK_FAMILY_V4) {
		w.r.dst[0] = w.r.src[1];
		w.r.src[1] = 0;
	}
	w.ptr_len = ptr_len;	/* at most SOCK_PTR_MAX: take_pointers() */
	/* A row without a pointer has ptr NULL: memcpy() may not take it,
	 * even for no bytes (UBSan said so). */
	if (w.ptr_len)
		memcpy(w.ptr, ptr, w.ptr_len);
	if (walk->ops->row(walk->ops->ctx, &w, walk->e))
		walk->failed = true;
}

/* The size of the record at rec, in its written form. */
static size_t written_size(const struct sock_walk *walk, const char *rec)
{
	__u8 family = rec[offsetof(struct sock_rec, family)];

	return SOCK_REC_FIELDS(walk->it->proto->tcp_tail) +
	       SOCK_REC_ADDR_SIZE(family) +
	       (has_info(walk, rec) ? sizeof(struct sock_info) : 0) +
	       (walk->it->config.want_kill ? sizeof(struct sock_kill) : 0);
}

/* Room to hold len more bytes and one more row, and where rows are
 * sorted (UDP) as much again, sort_rows()'s copy. */
static bool room_to_hold(struct sock_walk *walk, size_t len)
{
	size_t room = walk->it->proto->sort_by_sl ? 2 : 1;
	char *held;
	__u64 *rows;

	if (walk->held_len > UINT32_MAX) {	/* tens of millions of rows */
		fail(walk, "too many rows to hold for sorting");
		return false;
	}
	held = grow(walk->held, &walk->held_cap, walk->held_len + len, 1);
	if (held)
		walk->held = held;
	rows = grow(walk->rows, &walk->rows_cap, room * (walk->n + 1),
		    sizeof(*walk->rows));
	if (rows)
		walk->rows = rows;
	if (!held || !rows)
		fail(walk, "out of memory");
	return held && rows;
}

/* The record, and after it its pointer's length, a byte, and the
 * pointer (want_pointer), kept to be handed on after the walk. */
static void hold(struct sock_walk *walk, const char *rec, size_t size,
		 const char *ptr, size_t ptr_len)
{
	bool pointer = walk->it->config.want_pointer;
	size_t len = size + (pointer ? 1 + ptr_len : 0);
	struct sock_rec head;
	char *p;

	if (!room_to_hold(walk, len))
		return;
	memcpy(&head, rec, SOCK_REC_TCP_OWN);
	walk->rows[walk->n++] = (__u64)head.family << 63 |
				(__u64)(head.sl & INT32_MAX) << 32 |
				walk->held_len;
	p = walk->held + walk->held_len;
	memcpy(p, rec, size);
	if (pointer) {
		p[size] = ptr_len;	/* at most SOCK_PTR_MAX */
		memcpy(p + size + 1, ptr, ptr_len);
	}
	walk->held_len += len;
}

/* A row of the walk's, handed on or held. */
static void take_row(struct sock_walk *walk, const char *rec, size_t size,
		     const char *ptr, size_t ptr_len)
{
	if (rec[offsetof(struct sock_rec, family)] == walk->stream_family)
		hand_on(walk, rec, size, ptr, ptr_len);
	else
		hold(walk, rec, size, ptr, ptr_len);
}

#define NO_POINTERS	"the iterator's rows lack their pointers"

/* A record kept until its pointer comes. */
static void wait_for_pointer(struct sock_walk *walk, const char *rec,
			     size_t size)
{
	if (walk->waiting == SOCK_PTR_BATCH) {
		fail(walk, NO_POINTERS);
		return;
	}
	memcpy(walk->waiting_rec[walk->waiting], rec, size);
	walk->waiting_size[walk->waiting++] = size;
}

/* A batch's pointers p[0..end), of equal width (sockrec.h), given to the
 * rows that wait. */
static void take_pointers(struct sock_walk *walk, const char *p,
			  const char *end)
{
	size_t width = (end - p) / SOCK_PTR_BATCH;
	unsigned int i;

	if (!width || width > SOCK_PTR_MAX ||
	    width * SOCK_PTR_BATCH != (size_t)(end - p)) {
		fail(walk, NO_POINTERS);
		return;
	}
	for (i = 0; i < walk->waiting && !walk->failed; i++, p += width)
		take_row(walk, walk->waiting_rec[i], walk->waiting_size[i], p,
			 width);
	walk->waiting = 0;
}

size_t sock_walk_take(struct sock_walk *walk, const char *buf, size_t len)
{
	const char *rec, *end;
	size_t off = 0, size;
	__u8 kind;

	while (len - off >= SOCK_REC_TCP_OWN && !walk->failed) {
		rec = buf + off;
		kind = rec[offsetof(struct sock_rec, kind)];
		if (kind == SOCK_KIND_END) {
			walk->ended = true;
			return len;
		}
		if (kind == SOCK_KIND_POINTERS) {
			rec += SOCK_REC_TCP_OWN;
			end = memchr(rec, '\n', buf + len - rec);
			if (!end)
				break;
			take_pointers(walk, rec, end);
			off = end + 1 - buf;
			continue;
		}
		size = written_size(walk, rec);
		if (len - off < size)
			break;
		if (walk->it->config.want_pointer)
			wait_for_pointer(walk, rec, size);
		else
			take_row(walk, rec, size, NULL, 0);
		off += size;
	}
	return off;
}

/*
 * The kernel's walk runs in a reader thread, on the other core, while
 * this one formats: reads land in a ring of chunks.  One read() returns
 * at most the kernel's 32 KiB buffer.
 */
#define READ_CHUNKS	4
#define READ_CHUNK	(32 * 1024)
/*
 * kill's reads: half the kernel's buffer.  A read() ends before the
 * program runs on a socket once it holds this much, so a record always
 * fits: a socket closed by the program is never shown again (it is no
 * longer in the table), so a record cut there would be lost.
 */
#define KILL_READ	(READ_CHUNK / 2)

struct reader {
	int fd;
	size_t read_size;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int filled, taken;	/* chunks, counted from the start */
	bool done;
	bool stop;			/* the walk failed: read no more */
	int err;			/* errno of a failed read() */
	struct {
		char data[READ_CHUNK];
		size_t len;
	} chunk[READ_CHUNKS];
};

static void *read_chunks(void *arg)
{
	struct reader *rd = arg;
	ssize_t got;

	for (;;) {
		pthread_mutex_lock(&rd->lock);
		while (rd->filled - rd->taken == READ_CHUNKS && !rd->stop)
			pthread_cond_wait(&rd->cond, &rd->lock);
		pthread_mutex_unlock(&rd->lock);
		if (rd->stop)
			return NULL;
		got = read(rd->fd, rd->chunk[rd->filled % READ_CHUNKS].data,
			   rd->read_size);
		/* EAGAIN: a million sockets filtered out in one read() */
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		pthread_mutex_lock(&rd->lock);
		if (got > 0)
			rd->chunk[rd->filled++ % READ_CHUNKS].len = got;
		else
			rd->err = got < 0 ? errno : 0;
		rd->done = got <= 0;
		pthread_cond_signal(&rd->cond);
		pthread_mutex_unlock(&rd->lock);
		if (got <= 0)
			return NULL;
	}
}

/* The next chunk read, or NULL at the end of the walk. */
static const char *next_chunk(struct reader *rd, size_t *len)
{
	const char *data = NULL;

	pthread_mutex_lock(&rd->lock);
	while (rd->taken == rd->filled && !rd->done)
		pthread_cond_wait(&rd->cond, &rd->lock);
	if (rd->taken != rd->filled) {
		data = rd->chunk[rd->taken % READ_CHUNKS].data;
		*len = rd->chunk[rd->taken % READ_CHUNKS].len;
	}
	pthread_mutex_unlock(&rd->lock);
	return data;
}

static void chunk_done(struct reader *rd)
{
	pthread_mutex_lock(&rd->lock);
	rd->taken++;
	pthread_cond_signal(&rd->cond);
	pthread_mutex_unlock(&rd->lock);
}

/* The walk failed: the reader reads no more. */
static void stop_reader(struct reader *rd)
{
	pthread_mutex_lock(&rd->lock);
	rd->stop = true;
	pthread_cond_signal(&rd->cond);
	pthread_mutex_unlock(&rd->lock);
}

#define CUT_SHORT	"the iterator's output is cut short"

/*
 * Listeners only: a read() of one IPv4 record's size or less ends at the
 * row that filled it (bpf_seq_read() stops once it has the count asked
 * for), so no read() goes on through the established hash, that has no
 * rows to give, once the program marked the end of the listening hash.
 * Two read()s a listener: fine for the few there are.
 */
static void read_listeners(struct sock_walk *walk, int fd)
{
	static char buf[2 * sizeof(struct sockiter_row)];
	size_t have = 0, used;
	long got;

	while (!walk->ended && !walk->failed) {
		got = sock_iter_read(fd, buf + have, SOCK_REC_ADDRS + 8,
				     walk->e);
		if (got < 0)
			walk->failed = true;
		if (got <= 0)
			break;
		have += got;
		used = sock_walk_take(walk, buf, have);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	if (!walk->failed && (have || walk->waiting))
		fail(walk, CUT_SHORT);
}

/* The chunks the reader thread reads, taken. */
static void take_chunks(struct sock_walk *walk, struct reader *rd)
{
	static char buf[2 * READ_CHUNK];	/* a cut record, then a chunk */
	size_t have = 0, used, len;
	const char *data;

	while ((data = next_chunk(rd, &len))) {
		if (walk->ended) {	/* what follows is not of this walk */
			chunk_done(rd);
			continue;
		}
		walk->reads++;
		/* A read() of the kernel's whole buffer ends between two
		 * runs of the program; kill's reads (KILL_READ) and a buffer
		 * bigger than READ_CHUNK (64 KiB pages) can cut a record: a
		 * chunk is taken where it is, but after a cut record. */
		if (have) {
			memcpy(buf + have, data, len);
			data = buf;
		}
		have += len;
		used = sock_walk_take(walk, data, have);
		memmove(buf, data + used, have - used);
		chunk_done(rd);
		if (walk->failed) {
			stop_reader(rd);
			return;
		}
		have -= used;
	}
	if (rd->err) {
		errno = rd->err;
		kit_fail(walk->e, EXIT_RUNTIME, errno, "reading the iterator");
		walk->failed = true;
	} else if (have || walk->waiting) {
		fail(walk, CUT_SHORT);
	}
}

/* The whole walk, handed on or held as it is read. */
static void read_walk(struct sock_walk *walk, int link)
{
	static struct reader rd;
	pthread_t thread;
	int err;

	rd = (struct reader){
		.fd = bpf_iter_create(link),
		.read_size = walk->it->config.want_kill ? KILL_READ : READ_CHUNK,
	};
	if (rd.fd < 0) {
		kit_fail(walk->e, EXIT_RUNTIME, errno, "cannot start the "
			 "iterator");
		walk->failed = true;
		return;
	}
	if (walk->it->config.listeners_only) {
		read_listeners(walk, rd.fd);
		close(rd.fd);
		return;
	}
	pthread_mutex_init(&rd.lock, NULL);
	pthread_cond_init(&rd.cond, NULL);
	err = pthread_create(&thread, NULL, read_chunks, &rd);
	if (err) {
		errno = err;
		kit_fail(walk->e, EXIT_RUNTIME, errno, "cannot start a thread");
		walk->failed = true;
		close(rd.fd);
		return;
	}
	take_chunks(walk, &rd);
	pthread_join(thread, NULL);
	close(rd.fd);
}

#define SORT_BITS	16	/* of the key, a pass: two passes */
#define SORT_KEYS	(1 << SORT_BITS)
_Static_assert(32 / SORT_BITS % 2 == 0 && 32 % SORT_BITS == 0,
	       "sort_rows() ends in the rows after an even number of passes");

/*
 * /proc lists UDP sockets by hash slot; kernels from 6.5 (commit
 * c96dac8d369f) walk another hash.  The n rows by their top 32 bits (the
 * family, then the slot), the walk's order kept within a slot: a radix
 * sort, SORT_BITS a pass, through copy (n more), from which the second
 * pass brings them back.
 */
static void sort_rows(__u64 *rows, size_t n, __u64 *copy)
{
	static __u32 start[SORT_KEYS];
	__u64 *from = rows, *to = copy, *swap;
	unsigned int shift, key;
	__u32 sum, count;
	size_t i;

	for (shift = 32; shift < 64; shift += SORT_BITS) {
		memset(start, 0, sizeof(start));
		for (i = 0; i < n; i++)
			start[from[i] >> shift & (SORT_KEYS - 1)]++;
		for (key = 0, sum = 0; key < SORT_KEYS; key++) {
			count = start[key];
			start[key] = sum;
			sum += count;
		}
		for (i = 0; i < n; i++)
			to[start[from[i] >> shift & (SORT_KEYS - 1)]++] =
				from[i];
		swap = from;
		from = to;
		to = swap;
	}
}

/* How many rows ahead hand_on_held() fetches a record. */
#define HELD_AHEAD	8

/* Held row i, handed on.  Sorted rows take their records in no order of
 * memory's: a later row's is fetched meanwhile, both its cache lines. */
static void hand_on_held(struct sock_walk *walk, size_t i)
{
	const char *rec = walk->held + (__u32)walk->rows[i], *ahead;
	size_t size = written_size(walk, rec);

	if (i + HELD_AHEAD < walk->n) {
		ahead = walk->held + (__u32)walk->rows[i + HELD_AHEAD];
		__builtin_prefetch(ahead);
		__builtin_prefetch(ahead + 64);
	}

	if (walk->it->config.want_pointer)
		hand_on(walk, rec, size, rec + size + 1,
			(unsigned char)rec[size]);
	else
		hand_on(walk, rec, size, NULL, 0);
}

/* The rows held, in /proc's order: IPv4's, then IPv6's. */
static void hand_on_all_held(struct sock_walk *walk)
{
	const struct sock_walk_ops *ops = walk->ops;
	size_t i;

	if (walk->it->proto->sort_by_sl && walk->n)
		sort_rows(walk->rows, walk->n, walk->rows + walk->n);
	for (i = 0; i < walk->n && walk->rows[i] >> 63 == SOCK_FAMILY_V4 &&
		    !walk->failed; i++)
		hand_on_held(walk, i);
	if (!walk->failed && ops->v4_done && ops->v4_done(ops->ctx, walk->e))
		walk->failed = true;
	for (; i < walk->n && !walk->failed; i++)
		hand_on_held(walk, i);
}

void sock_walk_init(struct sock_walk *walk, const struct sockiter *it,
		    const struct sock_walk_ops *ops, struct kit_err *e)
{
	const struct sockiter_filter *f = &it->config.filter;
	int first = f->families & (1 << SOCK_FAMILY_V4) ? SOCK_FAMILY_V4 :
							  SOCK_FAMILY_V6;

	memset(walk, 0, offsetof(struct sock_walk, waiting_size));
	walk->it = it;
	walk->ops = ops;
	walk->e = e;
	walk->stream_family = it->proto->sort_by_sl ? -1 : first;
}

long sock_walk_end(struct sock_walk *walk)
{
	if (!walk->failed)
		hand_on_all_held(walk);
	free(walk->held);
	free(walk->rows);
	return walk->failed ? -1 : (long)walk->reads;
}

long sock_walk(const struct sockiter *it, int link,
	       const struct sock_walk_ops *ops, struct kit_err *e)
{
	static struct sock_walk walk;

	sock_walk_init(&walk, it, ops, e);
	read_walk(&walk, link);
	return sock_walk_end(&walk);
}
