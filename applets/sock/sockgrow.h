/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The socket engine's arrays' growth.  Each layer returns -1 with a
 * struct kit_err (core/kit.h) filled, which this header brings in.
 */
#ifndef SOCKGROW_H
#define SOCKGROW_H

#include <stddef.h>

#include "core/kit.h"

/*
 * v, an array of *cap elements of size bytes, with room for need: its
 * capacity doubled, or need if that is more.  NULL out of memory (v and
 * *cap as they were).
 */
void *sock_grow(void *v, size_t *cap, size_t need, size_t size);

#endif
