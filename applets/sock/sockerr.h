/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The socket engine's errors: each layer returns -1 and fills a struct
 * sock_err with the message and the exit status the applet dies with.
 */
#ifndef SOCKERR_H
#define SOCKERR_H

#include <stddef.h>

struct sock_err {
	int status;		/* EXIT_USAGE or EXIT_RUNTIME */
	char msg[512];		/* without the applet's name */
};

/* *e set to status and the message; returns -1. */
int sock_fail(struct sock_err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A runtime error, ": strerror(errno)" appended; returns -1. */
int sock_fail_errno(struct sock_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * v, an array of *cap elements of size bytes, with room for need: its
 * capacity doubled, or need if that is more.  NULL out of memory (v and
 * *cap as they were).
 */
void *sock_grow(void *v, size_t *cap, size_t need, size_t size);

#endif
