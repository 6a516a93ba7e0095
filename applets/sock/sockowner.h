/* SPDX-License-Identifier: GPL-2.0 */
/* tcpiter, udpiter -p: the processes that hold each socket. */
#ifndef SOCKOWNER_H
#define SOCKOWNER_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "../../bpf/sockrec.h"
#include "core/kit.h"

/* Every task's sockets read once: 0 or -1.  verbose: loaded by libbpf,
 * whose messages say why it fails. */
int sock_read_owners(bool verbose, struct kit_err *e);
/* The owners of the socket with that inode, n of them, the last process
 * and fd first (as ss lists them). */
const struct sock_owner_rec *sock_owners_of(__u64 inode, size_t *n);

#endif
