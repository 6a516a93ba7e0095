// SPDX-License-Identifier: GPL-2.0
/* The socket engine's errors (sockerr.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kit.h"
#include "sock/sockerr.h"

static void set(struct sock_err *e, int status, int errnum, const char *fmt,
		va_list ap)
{
	int n;

	e->status = status;
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	if (errnum && n >= 0 && (size_t)n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %s",
			 strerror(errnum));
}

int sock_fail(struct sock_err *e, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(e, status, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int sock_fail_errno(struct sock_err *e, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;

	va_start(ap, fmt);
	set(e, EXIT_RUNTIME, errnum, fmt, ap);
	va_end(ap);
	return -1;
}

void *sock_grow(void *v, size_t *cap, size_t need, size_t size)
{
	size_t want = need > 2 * *cap ? need : 2 * *cap;

	if (need <= *cap)
		return v;
	v = realloc(v, want * size);
	if (v)
		*cap = want;
	return v;
}
