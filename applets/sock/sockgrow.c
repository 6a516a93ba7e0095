// SPDX-License-Identifier: GPL-2.0
/* The socket engine's arrays' growth (sockgrow.h). */
#include <stdlib.h>

#include "sock/sockgrow.h"

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
