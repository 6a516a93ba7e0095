/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The socket engine's errors: each layer returns -1 and fills a struct
 * kit_err (core/kit.h) with the message and the exit status the applet
 * dies with; and its arrays' growth.
 */
#ifndef SOCKERR_H
#define SOCKERR_H

#include <stddef.h>

#include "core/kit.h"

/*
 * v, an array of *cap elements of size bytes, with room for need: its
 * capacity doubled, or need if that is more.  NULL out of memory (v and
 * *cap as they were).
 */
void *sock_grow(void *v, size_t *cap, size_t need, size_t size);

#endif
