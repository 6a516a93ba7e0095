/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One walk of tcpiter's or udpiter's iterator: the records the program
 * writes, read (on a thread of their own) and handed, a row each, to a
 * callback in /proc's order.  The walk neither prints nor closes.
 */
#ifndef SOCKWALK_H
#define SOCKWALK_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "sock/sockopt.h"

/* /proc's pointer, as the program printed it ("%pK") */
#define SOCK_PTR_MAX 32

/* One socket of the walk. */
struct sockiter_row {
	struct sock_rec r;
	struct sock_info info;		/* -i, full sockets */
	struct sock_kill kill;		/* kill */
	__u32 ptr_len;
	char ptr[SOCK_PTR_MAX];
};

/* What a walk hands its rows to.  Each returns 0, or -1 with *e set,
 * which ends the walk. */
struct sock_walk_ops {
	int (*row)(void *ctx, const struct sockiter_row *w,
		   struct kit_err *e);
	/* after the IPv4 rows, before the IPv6 ones (NULL: nothing) */
	int (*v4_done)(void *ctx, struct kit_err *e);
	void *ctx;
};

/* The largest record a program writes: an IPv6 TCP socket's, with -i's
 * info and kill's tail. */
#define SOCK_REC_MAX	(SOCK_REC_ADDRS + SOCK_REC_ADDR_SIZE(SOCK_FAMILY_V6) + \
			 sizeof(struct sock_info) + sizeof(struct sock_kill))

/*
 * One walk as it is read.  Rows of `stream_family` are handed on as they
 * come; the others are held as the program wrote them and handed on
 * after the walk: IPv6 rows wait for the IPv4 table (/proc's order, `cat
 * tcp tcp6`), and UDP's rows all wait to be sorted.
 */
struct sock_walk {
	const struct sockiter *it;
	const struct sock_walk_ops *ops;
	struct kit_err *e;
	bool failed;			/* an error in *e ends the walk */
	int stream_family;		/* -1: none */
	bool ended;			/* the end of the walk (or of the
					 * listeners) seen */
	size_t reads;			/* read()s that returned rows */
	char *held;			/* records and pointers */
	size_t held_len, held_cap;
	/* family << 63 | sl << 32 | offset in held: /proc's order, then
	 * the walk's */
	__u64 *rows;
	size_t n, rows_cap;
	/* want_pointer: the records read that wait for their pointers,
	 * which come in batches after them */
	unsigned int waiting;
	size_t waiting_size[SOCK_PTR_BATCH];
	char waiting_rec[SOCK_PTR_BATCH][SOCK_REC_MAX];
};

/* One walk of the current network namespace through the iterator's link,
 * every row handed to ops: the read()s that brought rows, or -1. */
long sock_walk(const struct sockiter *it, int link,
	       const struct sock_walk_ops *ops, struct kit_err *e);

/* A walk's start and end, without the iterator (sock_walk() does
 * both): the end hands on the rows held, in /proc's order, and returns
 * as sock_walk() does. */
void sock_walk_init(struct sock_walk *walk, const struct sockiter *it,
		    const struct sock_walk_ops *ops, struct kit_err *e);
long sock_walk_end(struct sock_walk *walk);
/*
 * Takes the records at the start of buf[0..len): each handed on or
 * held, or kept until its pointer comes.  Returns the bytes used (a
 * record cut by the end of buf waits for the next read).
 */
size_t sock_walk_take(struct sock_walk *walk, const char *buf, size_t len);

#endif
