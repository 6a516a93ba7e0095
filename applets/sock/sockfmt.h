/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpiter's and udpiter's output: rows as text, in the form asked for,
 * buffered for stdout.  A write that fails is remembered: what follows
 * is dropped, and every later call returns -1 with its errno.
 */
#ifndef SOCKFMT_H
#define SOCKFMT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "sock/sockopt.h"
#include "sock/sockwalk.h"

/* /proc's header for family, padded like its rows. */
void sock_fmt_proc_header(const struct sockiter *it, int family);
/* -t's header. */
void sock_fmt_table_header(const struct sockiter *it);
/* One row in the form the command line asked for; netns: --all-netns's
 * JSON field, or NULL; owners[0..n_owners): -p's.  0 or -1. */
int sock_fmt_row(const struct sockiter *it, const struct sockiter_row *w,
		 const char *netns, const struct sock_owner_rec *owners,
		 size_t n_owners);
/* -c's table of counts[family][state]. */
void sock_fmt_counts(const struct sockiter *it,
		     __u64 (*counts)[SOCK_TCP_STATES]);
/* All that is buffered, stdio's too, written out: 0 or -1. */
int sock_fmt_flush(void);

/* At most this long: sl, addresses, numbers, pointer, padding. */
#define SOCK_ROW_MAX 512
/* /proc's row of r and its pointer at p; its end. */
char *sock_format_proc_row(char *p, const struct sockiter_proto *proto,
			   const struct sock_rec *r, const char *ptr,
			   int ptr_len);

/* r's -t row, its spaces squeezed, for messages */
#define SOCK_BRIEF_MAX 160
void sock_row_brief(char *buf, const struct sock_rec *r);

#endif
