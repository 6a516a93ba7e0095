/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF objects the skeletons embed, deflated at build time
 * (bpf/skelpack.c) and inflated here on first use.
 */
#ifndef KIT_BPFBLOB_H
#define KIT_BPFBLOB_H

#include <stddef.h>

struct bpf_blob {
	const unsigned char *z;	/* the zlib stream */
	size_t z_size;
	size_t size;		/* what it inflates to */
	void *data;		/* that, once inflated */
};

/*
 * The blob's bytes, inflated once and kept for the process's life (libbpf
 * reads a skeleton's ELF until the object is closed).  NULL with errno
 * ENOMEM, or EINVAL for a stream that does not inflate to its size: the
 * skeleton's open or load then fails as for any bad object.
 */
const void *sock_bpf_blob(struct bpf_blob *blob);

#endif
