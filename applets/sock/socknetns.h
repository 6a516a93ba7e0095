/* SPDX-License-Identifier: GPL-2.0 */
/* tcpiter's and udpiter's network namespaces: -N NETNS and --all-netns. */
#ifndef SOCKNETNS_H
#define SOCKNETNS_H

#include <stdbool.h>
#include <sys/types.h>

#include "core/kit.h"

/* -N SPEC entered: a path as it is; pid:PID the process's; a name in
 * /run/netns (an all-digit SPEC: the process when no such name). */
int sock_enter_named_netns(const char *spec, struct kit_err *e);

/* A network namespace found for --all-netns. */
struct sock_netns {
	dev_t dev;
	ino_t ino;
	char path[64 + 256];
	char label[96 + 256];	/* "net:[INODE] pid N" or its name */
};

struct sock_netns_list {
	struct sock_netns *ns;
	size_t n, cap;
};

/* Every network namespace of /run/netns and /proc/PID/ns/net, each once,
 * by inode number (free l->ns after). */
int sock_list_netns(struct sock_netns_list *l, struct kit_err *e);
/*
 * ns entered: 0; 1 when it is gone meanwhile (a stale entry of
 * /run/netns, a process that exited), *why saying how; -1 on an error.
 */
int sock_enter_listed_netns(const struct sock_netns *ns, const char **why,
			    struct kit_err *e);

#endif
