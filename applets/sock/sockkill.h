/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpiter kill, udpiter kill: what becomes of each socket the walk chose:
 * closed by the program (bpf_sock_destroy(), 6.5, commit 4ddbcb886268),
 * or here through inet_diag.
 */
#ifndef SOCKKILL_H
#define SOCKKILL_H

#include <stddef.h>

#include "sock/sockopt.h"
#include "sock/sockwalk.h"

/* Who may close sockets through inet_diag. */
#define SOCK_KILL_PRIVILEGES	"root or CAP_NET_ADMIN"

/* kill without the kfunc: 0 when inet_diag can close PROTO's sockets and
 * we may ask it to, else -1 with *e saying why. */
int sock_kill_check(const struct sockiter_proto *proto, struct kit_err *e);

enum sock_kill_result {
	SOCK_KILL_CLOSED,	/* closed (-n: would be): list it */
	SOCK_KILL_GONE,		/* closed by its owner before kill */
	SOCK_KILL_REFUSED,	/* not closed: the reason says why */
};

/* w's socket closed if the program left it to inet_diag, and counted: an
 * enum sock_kill_result (*reason set for SOCK_KILL_REFUSED), or -1 with
 * *e set when inet_diag cannot be asked. */
int sock_kill_row(const struct sockiter *it, const struct sockiter_row *w,
		  const char **reason, struct kit_err *e);

/* What the rows handed to sock_kill_row() came to, so far. */
struct sock_kill_stats {
	size_t closed, refused, gone;
};
const struct sock_kill_stats *sock_kill_stats(void);

#endif
