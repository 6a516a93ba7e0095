// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

#include "sock/bpfblob.h"

const void *sock_bpf_blob(struct bpf_blob *blob)
{
	uLongf size = blob->size;
	void *data;

	if (blob->data)
		return blob->data;
	data = malloc(size);
	if (!data) {
		errno = ENOMEM;
		return NULL;
	}
	if (uncompress(data, &size, blob->z, blob->z_size) != Z_OK ||
	    size != blob->size) {
		free(data);
		errno = EINVAL;
		return NULL;
	}
	blob->data = data;
	return data;
}
