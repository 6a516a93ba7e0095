// SPDX-License-Identifier: GPL-2.0
/* The socket engine's arrays' growth (sockerr.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kit.h"
#include "sock/sockerr.h"

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
